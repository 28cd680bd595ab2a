"""Load benchmark: many live tables at once, on one or two server processes.

    .venv/bin/python -m tools.bench_load [--tables 10,50,100,200] [--processes 1,2] [--stacks project,floor]
                                         [--seconds 30] [--json]
    .venv/bin/python -m tools.bench_load --arena 200 [--viewers 20] [--seconds 30]   (see tools.bench_arena)

For every (processes, tables) pair: N tables of 4 seats, 3 scripted websocket players
and 1 computer player (medium, ``FEMKORT_COMPUTER_PAUSE=0.3``); each player plays its
first playable card 1.0 s after a view showing its turn arrives. Sessions are created
with a target of 1000 wins, so none finishes inside the window.

Servers are daphne in production mode (``DJANGO_DEBUG=0``, settings as deployed),
on 127.0.0.1 only, started through ``tools.bench_server`` (which counts database round
trips without touching product code), sharing PostgreSQL (database ``femkort_bench``,
dropped and recreated at start, flushed before each case) and Redis (db 11 by default,
flushed before each case). With two processes, players' connections alternate between
them, so most moves reach some players through Redis (``--split players``, the default), or
each table's players all go to one process (``--split tables``, as a proxy sticky by table
would place them). Readiness is a TCP connect plus any HTTP answer to ``/``. With ``--proxy``
every player connects through HAProxy instead (deploy/haproxy.cfg on 127.0.0.1, ``tools.haproxy``),
which sends each table's sockets to one process by the table's id; its CPU is reported apart.

Every (processes, tables) case runs twice: against the project, then against the stack floor
(``tools.bench_floor``: a bare Channels consumer on the same daphne, channels-redis, Redis and
PostgreSQL, one compare-and-set UPDATE and one group_send per move, each socket sent a frame of
the project's mean frame size just measured), and prints the project's cards/s as a share of the
floor's: what is ours, and what is the stack's.

After every connection is open and has a view, a warm-up (``--warmup``, 5 s), then the
measured window (``--seconds``, 30 s), then up to ``--timeout`` seconds for moves sent
in the window to arrive. Printed per case:

- cards/s: ``Play`` rows created in the window (human and computer cards), per second (the
  floor: moves its tables' rows counted);
- KB/frame: the mean size of the views the players received in the window;
- move -> all 3 views: for each human move sent in the window, the time from sending it
  until all three players at the table have a view with ``data-seq`` >= seq + 1
  (p50/p95/p99/max in ms, and how many moves);
- errors over the whole run (connect, warm-up, window, drain): ``refused(status)`` and
  ``connect:<exception>`` (handshake attempts answered with an HTTP error, or that failed
  or timed out; like htmx-ext-ws, a player retries with full-jitter backoff, 1 s doubling
  up to 64 s, for 45 s at the start and 30 s after a close), ``unconnected`` (players that
  gave up), ``closed(code)`` (a socket the server closed; the player reconnects),
  ``stale``/``refused-move`` (a message frame instead of a view), ``timeout`` (a move
  whose views did not all arrive within ``--timeout``), ``lost`` (a window move still
  incomplete at the end), ``stalled`` (a table with no progress for ``--stall`` seconds: an
  overloaded server or a missing player), ``no-progress`` (tables that played no card in
  the whole window), ``server-errors`` (tracebacks in the servers' logs),
  ``foreign-redis-clients`` (other clients on the bench's Redis db when the case ended:
  their group messages may have reached our consumers; a case refuses to start, and the
  run to drop the database, while someone else is connected to them);
- server CPU (all daphne processes, % of one core) and CPU ms per card; PostgreSQL CPU
  (the backends connected to ``femkort_bench``), the client's own CPU, and everything else
  on the machine (all cores' busy time minus those and Redis: other work), % of one core;
- database work per card: ``q`` = statements through Django's cursor (an
  ``execute_wrapper``), ``rt`` = round trips: statements + commits + rollbacks + one
  ``BEGIN`` per transaction (psycopg sends it) + connection health checks (``SELECT 1``);
- templates rendered per card (``renders``, counted by ``tools.bench_server``);
- memory: the servers' resident memory at the window's end (``RSS_MB``), and per socket its
  growth from before the first socket to every socket open with its first view (``KB/sock``;
  the JSON also gives the growth to the window's end per busy table);
- load: the 1-minute load average at the start and end of the case.

The client is one asyncio process (``websockets``, regex parsing) sharing the machine with
the servers; its CPU is reported so you can judge how much it took from them. Server
logs are kept in a temporary directory printed at the start (stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import itertools
import json
import math
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/femkort_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/11"
SEATS = 4
HUMANS = 3
TARGET = 1000
CLK_TCK = os.sysconf("SC_CLK_TCK")
CONNECT_CONCURRENCY = 25  # handshakes in flight at once
CONNECT_WITHIN = 45.0  # seconds for every player to connect at the start (retrying)
FIRST_VIEW_WITHIN = 20.0  # then seconds for every connected player to receive its first view
RECONNECT_WITHIN = 30.0  # seconds for a player whose socket closed to get back
HANDSHAKE_TIMEOUT = 15.0  # for one attempt (daphne itself rejects handshakes not accepted within 5 s)

# --- frames ---------------------------------------------------------------------------------

TABLE_TAG = re.compile(r'<[a-zA-Z]+\s[^>]*\bid="table(?:-state)?"[^>]*>')  # a whole table, or its changed regions
SEQ_ATTR = re.compile(r'\sdata-seq="(\d+)"')
BUTTON_TAG = re.compile(r"<button\s[^>]*>")
MOVE_NAME = re.compile(r'\sname="move"')  # a move button (a card, a bid)
VALUE_ATTR = re.compile(r'\svalue="([^"]*)"')
QUOTED = re.compile(r'"[^"]*"')
DISABLED = re.compile(r"\sdisabled(?=[\s/>=])")
INERT = re.compile(r'\saria-disabled="true"')  # a card in the hand that cannot be played now
MESSAGE_TEXT = re.compile(r'id="table-message"[^>]*>(.*?)</', re.S)


@dataclass(frozen=True, slots=True)
class View:
    seq: int
    playable: tuple[str, ...]


def parse_frame(frame: str) -> View | None:
    """A table view's ``data-seq`` and the hand's enabled card buttons; ``None`` for a message frame.

    A frame of changed regions carries its ``data-seq`` on ``#table-state``, after the regions: its
    buttons are those of the regions it carries (a hand not sent did not change)."""
    table = TABLE_TAG.search(frame)
    if table is None:
        return None
    seq = SEQ_ATTR.search(table.group())
    if seq is None:
        return None
    playable = []
    for button in BUTTON_TAG.finditer(frame):
        tag = button.group()
        if not MOVE_NAME.search(tag) or DISABLED.search(QUOTED.sub('""', tag)) or INERT.search(tag):
            continue
        value = VALUE_ATTR.search(tag)
        if value:
            playable.append(value.group(1))
    return View(int(seq.group(1)), tuple(playable))


def message_text(frame: str) -> str | None:
    """The text of a message frame ("" for an empty message); ``None`` for any other fragment (e.g. presence)."""
    match = MESSAGE_TEXT.search(frame)
    return re.sub(r"\s+", " ", match.group(1)).strip() if match else None


# --- processes, CPU, counters ----------------------------------------------------------------


def cpu_seconds(pid: int | str) -> float:
    """utime + stime of a process, in seconds (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_bytes(pid: int) -> int:
    """A process's resident memory (``VmRSS``), in bytes; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def machine_busy_seconds() -> float:
    """CPU time all cores spent not idle since boot, in seconds (from /proc/stat)."""
    with open("/proc/stat") as stat:
        ticks = [int(value) for value in stat.readline().split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / CLK_TCK


def processes_named(name: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as comm:
                    if comm.read().strip() == name:
                        found.append(int(entry))
            except OSError:
                pass
    return found


def read_counts(path: Path) -> dict[str, int]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    counts: Path
    log: Path

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


PROJECT_APP = "femkort_site.asgi:application"
FLOOR_APP = "tools.bench_floor:application"


def start_servers(count: int, env: dict[str, str], workdir: Path, label: str, app: str = PROJECT_APP) -> list[Server]:
    servers = []
    for number in range(count):
        port = free_port()
        counts = workdir / f"{label}-server{number}.counts.json"
        log = workdir / f"{label}-server{number}.log"
        command = [sys.executable, "-m", "tools.bench_server", "-b", "127.0.0.1", "-p", str(port)]
        with open(log, "w") as err:
            process = subprocess.Popen(
                [*command, app],
                cwd=ROOT,
                env=env | {"FEMKORT_BENCH_COUNTS": str(counts)},
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        servers.append(Server(port, process, counts, log))
    try:
        for server in servers:
            wait_ready(server)
    except BaseException:
        stop_servers(servers)
        raise
    return servers


def wait_ready(server: Server, timeout: float = 40) -> None:
    """Ready when the port accepts a connection, answers ``/`` with any status, and counts are written."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server on port {server.port} exited:\n{server.log.read_text()[-3000:]}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
            connection.request("GET", "/", headers={"Host": "127.0.0.1"})
            connection.getresponse().read()
            connection.close()
            if read_counts(server.counts):
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"server on port {server.port} did not start; log {server.log}")


def start_proxy(servers: Sequence[Server], workdir: Path, label: str, floor: bool) -> Server:
    """HAProxy as deployed in front of ``servers`` (the floor answers no page: checked by TCP)."""
    from tools.haproxy import haproxy_binary, local_config

    binary = haproxy_binary()
    if binary is None:
        raise SystemExit("--proxy needs haproxy (sudo apt install haproxy)")
    port = free_port()
    config = workdir / f"{label}-haproxy.cfg"
    config.write_text(local_config(port, [server.port for server in servers], page_check=not floor))
    log = workdir / f"{label}-haproxy.log"
    with open(log, "w") as err:
        process = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=subprocess.DEVNULL, stderr=err)
    proxy = Server(port, process, workdir / f"{label}-haproxy.counts", log)
    deadline = time.monotonic() + 20
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"haproxy exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proxy
        if time.monotonic() > deadline:
            stop_servers([proxy])
            raise RuntimeError(f"haproxy did not start; log {log}")
        time.sleep(0.1)


def stop_servers(servers: Sequence[Server]) -> None:
    for server in servers:
        if server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
    for server in servers:
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)


def log_errors(servers: Sequence[Server]) -> tuple[int, list[str]]:
    """Tracebacks in the servers' logs, and the distinct last lines of each."""
    count, kinds = 0, []
    for server in servers:
        lines = server.log.read_text(errors="replace").splitlines()
        for number, line in enumerate(lines):
            if line.startswith("Traceback"):
                count += 1
                end = next((lines[i] for i in range(number + 1, len(lines)) if not lines[i].startswith(" ")), "")
                if end and end not in kinds:
                    kinds.append(end)
    return count, kinds


# --- database setup (in this process) ---------------------------------------------------------


def recreate_database(database_url: str) -> None:
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        raise SystemExit(f"refusing to drop {name!r}: the bench database name must contain 'bench'")
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        others = connection.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]).fetchone()
        if others and others[0]:
            raise SystemExit(f"refusing to drop {name!r}: {others[0]} other connection(s) use it; pick --database")
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def redis_users(redis_url: str) -> list[str]:
    """Addresses of other clients connected to the bench's Redis db (none while no server of ours runs)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        db, me = str(client.connection_pool.connection_kwargs.get("db", 0)), client.client_id()
        return [str(c.get("addr")) for c in client.client_list() if str(c.get("db")) == db and c.get("id") != str(me)]
    finally:
        client.close()


def flush_redis(redis_url: str) -> None:
    """Empty the bench's Redis db, unless it is db 0 or someone else is using it."""
    import redis

    if urlsplit(redis_url).path.strip("/") in ("", "0"):
        raise SystemExit("refusing to flush Redis db 0: give --redis a db of its own, e.g. redis://127.0.0.1:6379/11")
    others = redis_users(redis_url)
    if others:
        raise RuntimeError(f"{len(others)} other client(s) use {redis_url} ({', '.join(others[:3])}); pick --redis")
    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


@dataclass
class TablePlan:
    session_id: int
    cookies: list[str]


def create_floor_tables(count: int) -> list[TablePlan]:
    """The floor's tables: a row each at seq 0, and a cookie naming each human's seat."""
    from django.db import connection, transaction

    from tools.bench_floor import TABLE

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id integer PRIMARY KEY, seq integer NOT NULL)")
        cursor.execute(f"TRUNCATE {TABLE}")
        cursor.executemany(f"INSERT INTO {TABLE} (id, seq) VALUES (%s, 0)", [(n,) for n in range(1, count + 1)])
    return [TablePlan(n, [f"floorseat={seat}" for seat in range(HUMANS)]) for n in range(1, count + 1)]


def create_tables(count: int) -> list[TablePlan]:
    """Users, tables of 3 players + 1 medium computer, started with a target of 1000 wins, and logins."""
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from accounts.models import User

    with transaction.atomic():  # one commit for the whole setup
        users = User.objects.bulk_create(
            User(username=f"load{i}", password=make_password(None)) for i in range(count * HUMANS)
        )
        return [_create_table(users[number * HUMANS : (number + 1) * HUMANS]) for number in range(count)]


def _create_table(players: Sequence[Any]) -> TablePlan:
    from django.test import Client

    from games import services

    session = services.table_create(host=players[0], seats=SEATS, options={"target": TARGET})
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    services.computer_add(session_id=session.pk, user=players[0], level="medium")
    services.session_start(session_id=session.pk, user=players[0])
    cookies = []
    for user in players:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return TablePlan(session.pk, cookies)


def database_now(database: str, floor: bool = False) -> tuple[int, list[int]]:
    """Cards played so far, and the PostgreSQL backends serving the bench database (not this one)."""
    from django.db import connection

    from tools.bench_floor import TABLE

    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT coalesce(sum(seq), 0) FROM {TABLE}" if floor else "SELECT count(*) FROM games_play")
            plays = cursor.fetchone()[0]
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [database]
            )
            backends = [row[0] for row in cursor.fetchall()]
        return plays, backends
    finally:
        connection.close()


# --- the players ------------------------------------------------------------------------------


@dataclass
class Move:
    player: Player
    seq: int
    sent: float
    in_window: bool
    timed_out: bool = False


@dataclass
class Table:
    session_id: int
    players: list[Player] = field(default_factory=list)
    pending: dict[int, Move] = field(default_factory=dict)
    top_seq: int = -1
    progressed: float = 0.0
    stalled: bool = False


@dataclass
class Player:
    table: Table
    server: Server
    cookie: str
    ws: Any = None
    open: bool = False
    seen: int = -1
    acted: int = -1


@dataclass
class Run:
    think: float
    timeout: float
    stall: float
    errors: Counter = field(default_factory=Counter)
    messages: Counter = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    window: tuple[float, float] = (math.inf, math.inf)
    closing: bool = False
    human_moves: int = 0
    views: int = 0  # views received in the window, and their bytes
    view_bytes: int = 0
    other_frames: int = 0  # neither a view nor a message (e.g. a presence fragment): not an error
    tasks: set[asyncio.Task] = field(default_factory=set)
    rss_started: list[int] = field(default_factory=list)  # the servers' memory before any socket, and with all open
    rss_connected: list[int] = field(default_factory=list)
    handshakes: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(CONNECT_CONCURRENCY))

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def on_frame(self, player: Player, frame: str, now: float) -> None:
        view = parse_frame(frame)
        if view is None:
            text = message_text(frame)
            if text is None:
                self.other_frames += 1
            elif text:
                self.errors["stale" if "moved on" in text else "refused-move"] += 1
                self.messages[text] += 1
                table = player.table
                for seq, move in list(table.pending.items()):
                    if move.player is player:
                        del table.pending[seq]
            return
        if self.window[0] <= now < self.window[1]:
            self.views += 1
            self.view_bytes += len(frame.encode())
        if view.seq < player.seen:
            return
        player.seen = view.seq
        table = player.table
        if view.seq > table.top_seq:
            table.top_seq, table.progressed, table.stalled = view.seq, now, False
        if table.pending:
            everyone = min(p.seen for p in table.players)
            for seq, move in list(table.pending.items()):
                if everyone >= seq + 1:
                    del table.pending[seq]
                    if move.in_window:
                        self.latencies.append(now - move.sent)
        if view.playable and view.seq > player.acted and not self.closing:
            player.acted = view.seq
            asyncio.get_running_loop().call_later(self.think, self._play_soon, player, view.seq, view.playable[0])

    def _play_soon(self, player: Player, seq: int, card: str) -> None:
        if not self.closing and player.seen == seq:
            self.spawn(self._play(player, seq, card))

    async def _play(self, player: Player, seq: int, card: str) -> None:
        sent = time.perf_counter()
        start, end = self.window
        move = Move(player, seq, sent, in_window=start <= sent < end)
        player.table.pending[seq] = move
        if move.in_window:
            self.human_moves += 1
        try:
            await asyncio.wait_for(player.ws.send(json.dumps({"action": "play", "card": card, "seq": seq})), 5)
        except Exception as error:
            self.errors[f"send:{type(error).__name__}"] += 1

    async def read(self, player: Player) -> None:
        """Handle frames until the socket closes; an unexpected close is counted and the player reconnects."""
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in player.ws:
                self.on_frame(player, frame, time.perf_counter())
        except ConnectionClosed:
            pass
        except Exception as error:
            self.errors[f"read:{type(error).__name__}"] += 1
        player.open = False
        if not self.closing:
            self.errors[f"closed({player.ws.close_code})"] += 1
            await self.connect(player, time.perf_counter() + RECONNECT_WITHIN)

    async def connect(self, player: Player, give_up: float) -> None:
        """Open the player's socket, retrying like htmx-ext-ws (full-jitter backoff) until ``give_up``.

        Every failed attempt is counted; a player still not connected at ``give_up`` counts as ``unconnected``.
        """
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        url = f"ws://127.0.0.1:{player.server.port}/ws/tables/{player.table.session_id}/"
        headers = {"Cookie": player.cookie, "Origin": player.server.origin}
        for attempt in itertools.count():
            async with self.handshakes:
                if self.closing:
                    return
                if time.perf_counter() > give_up:
                    self.errors["unconnected"] += 1
                    return
                try:
                    ws = await connect(
                        url,
                        additional_headers=headers,
                        open_timeout=HANDSHAKE_TIMEOUT,
                        ping_interval=None,  # like a browser: daphne pings, the client only answers
                        close_timeout=2,
                        compression=None,  # daphne does not negotiate permessage-deflate anyway
                        proxy=None,
                        max_size=2**22,
                    )
                except InvalidStatus as refused:
                    self.errors[f"refused({refused.response.status_code})"] += 1
                except Exception as error:
                    self.errors[f"connect:{type(error).__name__}"] += 1
                else:
                    player.ws, player.open, player.acted = ws, True, -1  # a new page: it may act on what it shows
                    self.spawn(self.read(player))
                    return
            delay = random.random() * 2 ** min(attempt, 6)
            if time.perf_counter() + delay > give_up:
                self.errors["unconnected"] += 1
                return
            await asyncio.sleep(delay)

    async def watch(self, tables: Sequence[Table]) -> None:
        """Count moves not seen by all three within ``timeout`` and tables with no progress for ``stall``."""
        while True:
            await asyncio.sleep(0.5)
            now = time.perf_counter()
            for table in tables:
                for move in table.pending.values():
                    if not move.timed_out and now - move.sent > self.timeout:
                        move.timed_out = True
                        self.errors["timeout"] += 1
                if not table.stalled and now - table.progressed > self.stall:
                    table.stalled = True
                    self.errors["stalled"] += 1


# --- one case -----------------------------------------------------------------------------------


@dataclass
class Snapshot:
    at: float
    servers: list[float]
    counts: list[dict[str, int]]
    plays: int
    postgres: dict[int, float]
    redis: float
    client: float
    proxy: float
    seqs: list[int]
    rss: list[int]
    load: float
    machine: float


async def server_counts(servers: Sequence[Server]) -> list[dict[str, int]]:
    """Ask every server for its totals now (SIGUSR1) and wait up to 5 s for each to write them."""
    serials = [read_counts(server.counts).get("serial", -1) for server in servers]
    for server in servers:
        server.process.send_signal(signal.SIGUSR1)
    deadline = time.perf_counter() + 5
    while True:
        counts = [read_counts(server.counts) for server in servers]
        fresh = all(count.get("serial", -1) > serial for count, serial in zip(counts, serials, strict=True))
        if fresh or time.perf_counter() > deadline:
            return counts
        await asyncio.sleep(0.005)


async def snapshot(
    servers: Sequence[Server], tables: Sequence[Table], database: str, floor: bool, proxy: Server | None = None
) -> Snapshot:
    plays, backends = await asyncio.wait_for(asyncio.to_thread(database_now, database, floor), 10)
    counts = await server_counts(servers)
    return Snapshot(
        at=time.perf_counter(),
        servers=[cpu_seconds(server.process.pid) for server in servers],
        counts=counts,
        plays=plays,
        postgres={pid: cpu_seconds(pid) for pid in backends},
        redis=sum(cpu_seconds(pid) for pid in processes_named("redis-server")),
        client=cpu_seconds("self"),
        proxy=cpu_seconds(proxy.process.pid) if proxy else 0.0,
        seqs=[max(table.top_seq, 0) for table in tables],
        rss=[rss_bytes(server.process.pid) for server in servers],
        load=os.getloadavg()[0],
        machine=machine_busy_seconds(),
    )


async def drive(
    plans: Sequence[TablePlan],
    servers: Sequence[Server],
    args: argparse.Namespace,
    database: str,
    floor: bool,
    proxy: Server | None = None,
) -> dict[str, Any]:
    run = Run(think=args.think, timeout=args.timeout, stall=args.stall)
    tables, players = [], []
    for plan in plans:
        table = Table(plan.session_id)
        for cookie in plan.cookies:
            # "players": connections alternate between processes, most moves reach someone through
            # Redis; "tables": each table's players on one process, as a proxy sticky by table would;
            # through the proxy, it places them.
            spread = len(tables) if args.split == "tables" else len(players)
            player = Player(table, proxy or servers[spread % len(servers)], cookie)
            table.players.append(player)
            players.append(player)
        tables.append(table)
    watcher: asyncio.Task | None = None
    try:
        run.rss_started = [rss_bytes(server.process.pid) for server in servers]
        started = time.perf_counter()
        give_up = started + CONNECT_WITHIN
        loop = asyncio.get_running_loop()
        connecting = [loop.create_task(run.connect(player, give_up)) for player in players]
        _, late = await asyncio.wait(connecting, timeout=CONNECT_WITHIN + HANDSHAKE_TIMEOUT + 5)
        for task in late:  # only if an attempt overran badly; counted like a player that gave up
            task.cancel()
            run.errors["unconnected"] += 1
        deadline = time.perf_counter() + FIRST_VIEW_WITHIN
        while any(player.open and player.seen < 0 for player in players) and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
        ready = time.perf_counter() - started
        run.rss_connected = [rss_bytes(server.process.pid) for server in servers]
        for table in tables:  # stalls count from here on
            table.progressed = time.perf_counter()
        watcher = asyncio.get_running_loop().create_task(run.watch(tables))
        connected = sum(player.open for player in players)
        print(f"  {connected}/{len(players)} connected, all views in {ready:.1f} s; warm-up", file=sys.stderr)
        await asyncio.sleep(args.warmup)
        before = await snapshot(servers, tables, database, floor, proxy)
        connected = sum(player.open for player in players)
        run.window = (before.at, before.at + args.seconds)
        await asyncio.sleep(max(0.0, run.window[1] - time.perf_counter()))
        after = await snapshot(servers, tables, database, floor, proxy)
        drain_until = time.perf_counter() + args.timeout
        while any(m.in_window for t in tables for m in t.pending.values()) and time.perf_counter() < drain_until:
            await asyncio.sleep(0.1)
        lost = sum(m.in_window for t in tables for m in t.pending.values())
        if lost:
            run.errors["lost"] += lost
    finally:
        run.closing = True
        if watcher is not None:
            watcher.cancel()
        sockets = [player.ws for player in players if player.open]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True), 15)
        for task in list(run.tasks):
            task.cancel()
        await asyncio.gather(*run.tasks, return_exceptions=True)
    return summarise(run, before, after, connected, ready)


def summarise(run: Run, before: Snapshot, after: Snapshot, connected: int, ready: float) -> dict[str, Any]:
    seconds = after.at - before.at
    cards = after.plays - before.plays
    server_cpu = sum(after.servers) - sum(before.servers)
    totals = Counter()
    for start, end in zip(before.counts, after.counts, strict=True):
        for key in ("queries", "commits", "rollbacks", "pings", "connections", "renders"):
            totals[key] += end.get(key, 0) - start.get(key, 0)
    transactions = totals["commits"] + totals["rollbacks"]
    round_trips = totals["queries"] + 2 * transactions + totals["pings"]
    postgres = sum(cpu - before.postgres.get(pid, 0.0) for pid, cpu in after.postgres.items())
    redis = after.redis - before.redis
    client = after.client - before.client
    proxy = after.proxy - before.proxy
    other = (after.machine - before.machine) - server_cpu - postgres - redis - client - proxy
    latencies = sorted(run.latencies)
    frozen = sum(end <= start for start, end in zip(before.seqs, after.seqs, strict=True))
    if frozen:
        run.errors["no-progress"] += frozen

    def per_card(value: float) -> float | None:
        return value / cards if cards else None

    return {
        "connected": connected,
        "ready_seconds": round(ready, 1),
        "seconds": round(seconds, 2),
        "cards": cards,
        "cards_per_second": round(cards / seconds, 2),
        "cards_per_second_seen": round((sum(after.seqs) - sum(before.seqs)) / seconds, 2),
        "human_moves_sent": run.human_moves,
        "frame_bytes": round(run.view_bytes / run.views) if run.views else None,
        "moves_timed": len(latencies),
        "latency_ms": {
            "p50": percentile(latencies, 50),
            "p95": percentile(latencies, 95),
            "p99": percentile(latencies, 99),
            "max": round(latencies[-1] * 1000, 1) if latencies else None,
        },
        "errors": dict(sorted(run.errors.items())),
        "messages": dict(run.messages.most_common(5)),
        "other_frames": run.other_frames,
        "server_cpu_seconds": round(server_cpu, 2),
        "server_cpu_percent": round(100 * server_cpu / seconds, 1),
        "server_cpu_percent_each": [
            round(100 * (end - start) / seconds, 1) for start, end in zip(before.servers, after.servers, strict=True)
        ],
        "server_cpu_ms_per_card": round(1000 * per_card(server_cpu), 2) if cards else None,
        "postgres_cpu_percent": round(100 * postgres / seconds, 1),
        "redis_cpu_percent": round(100 * redis / seconds, 1),
        "client_cpu_percent": round(100 * client / seconds, 1),
        "proxy_cpu_percent": round(100 * proxy / seconds, 1),
        "other_cpu_percent": round(100 * other / seconds, 1),
        "db": dict(totals) | {"round_trips": round_trips},
        "db_queries_per_card": round(per_card(totals["queries"]), 1) if cards else None,
        "db_round_trips_per_card": round(per_card(round_trips), 1) if cards else None,
        "renders_per_card": round(per_card(totals["renders"]), 1) if cards else None,
        "rss_mb": round(sum(after.rss) / 2**20, 1),
        "rss_kb_per_socket": round((sum(run.rss_connected) - sum(run.rss_started)) / 1024 / connected)
        if connected and run.rss_connected
        else None,
        "rss_kb_per_busy_table": round((sum(after.rss) - sum(run.rss_started)) / 1024 / len(before.seqs))
        if before.seqs and run.rss_started
        else None,
        "load": [round(before.load, 2), round(after.load, 2)],
    }


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile, in ms."""
    if not values:
        return None
    rank = max(1, math.ceil(p / 100 * len(values)))
    return round(values[rank - 1] * 1000, 1)


def run_case(
    processes: int, count: int, args: argparse.Namespace, env: dict[str, str], workdir: Path, stack: str = "project"
) -> dict[str, Any]:
    from django.core.management import call_command
    from django.db import connections

    floor = stack == "floor"
    load_start = os.getloadavg()
    call_command("flush", interactive=False, verbosity=0)
    flush_redis(args.redis)
    started = time.perf_counter()
    plans = create_floor_tables(count) if floor else create_tables(count)
    connections.close_all()
    print(f"  {count} tables set up in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    label = f"{stack}-p{processes}-t{count}"
    if floor:
        env = env | {"DJANGO_SETTINGS_MODULE": "tools.bench_floor_settings"}
    if args.proxy:
        env = env | {"DJANGO_PROXY_COUNT": "1"}  # as deployed behind it
    servers = start_servers(processes, env, workdir, label, FLOOR_APP if floor else PROJECT_APP)
    proxy = None
    try:
        proxy = start_proxy(servers, workdir, label, floor) if args.proxy else None
        database = urlsplit(args.database).path.lstrip("/")
        budget = CONNECT_WITHIN + HANDSHAKE_TIMEOUT + FIRST_VIEW_WITHIN + args.warmup + args.seconds + args.timeout + 60
        result = asyncio.run(asyncio.wait_for(drive(plans, servers, args, database, floor, proxy), budget))
    finally:
        stop_servers([*servers, *([proxy] if proxy else [])])
    others = redis_users(args.redis)  # ours have stopped: anyone still here shared the channel layer with us
    if others:
        result["errors"]["foreign-redis-clients"] = len(others)
    tracebacks, kinds = log_errors(servers)
    if tracebacks:
        result["errors"]["server-errors"] = tracebacks
    result["server_error_kinds"] = kinds[:5]
    result["logs"] = [str(server.log) for server in servers]
    return {
        "stack": stack,
        "processes": processes,
        "split": "proxy" if args.proxy else args.split,
        "tables": count,
        "load_before_setup": round(load_start[0], 2),
    } | result


# --- output --------------------------------------------------------------------------------------


def columns(result: dict[str, Any]) -> list[tuple[str, str]]:
    """(title, value) for one printed row; ``-`` for what the result lacks."""

    def number(key: str, digits: int = 0, within: dict[str, Any] = result) -> str:
        value = within.get(key)
        return "-" if value is None else f"{value:.{digits}f}"

    load = result.get("load")
    errors = result.get("errors", {})
    return [
        ("stack", str(result.get("stack", "-"))),
        ("proc", number("processes")),
        ("tables", number("tables")),
        ("conns", number("connected")),
        ("cards/s", number("cards_per_second", 1)),
        ("KB/frame", "-" if result.get("frame_bytes") is None else f"{result['frame_bytes'] / 1000:.1f}"),
        ("moves", number("moves_timed")),
        *((name, number(name, within=result.get("latency_ms", {}))) for name in ("p50", "p95", "p99", "max")),
        ("srvCPU%", number("server_cpu_percent")),
        ("ms/card", number("server_cpu_ms_per_card", 1)),
        ("q/card", number("db_queries_per_card", 1)),
        ("rt/card", number("db_round_trips_per_card", 1)),
        ("renders", number("renders_per_card", 1)),
        ("RSS_MB", number("rss_mb")),
        ("KB/sock", number("rss_kb_per_socket")),
        ("pgCPU%", number("postgres_cpu_percent")),
        ("cliCPU%", number("client_cpu_percent")),
        ("pxCPU%", number("proxy_cpu_percent")),
        ("othCPU%", number("other_cpu_percent")),
        ("load", f"{load[0]:.1f}-{load[1]:.1f}" if load else "-"),
        ("errors", " ".join(f"{kind}={count}" for kind, count in errors.items()) or "none"),
    ]


def header() -> str:
    return " ".join(title.rjust(max(len(title), 5)) for title, _ in columns({})[:-1]) + "  errors"


def row(result: dict[str, Any]) -> str:
    if "failed" in result:
        return (
            f"{result.get('stack', '-'):>7} {result['processes']:>5} {result['tables']:>6}  failed: {result['failed']}"
        )
    cells = columns(result)
    return " ".join(value.rjust(max(len(title), 5)) for title, value in cells[:-1]) + "  " + cells[-1][1]


def stacks(text: str) -> list[str]:
    chosen = [part.strip() for part in text.split(",") if part.strip()]
    if not chosen or set(chosen) - {"project", "floor"}:
        raise argparse.ArgumentTypeError("project, floor, or project,floor")
    return sorted(set(chosen), key=["project", "floor"].index)


def numbers(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part.strip()]
    if not values or any(value < 1 for value in values):
        raise argparse.ArgumentTypeError("a comma-separated list of positive whole numbers")
    return values


def _against_floor(results: list[dict[str, Any]], result: dict[str, Any]) -> None:
    """A floor case says what share of its cards/s the project's same case reached."""
    if result.get("stack") != "floor" or not result.get("cards_per_second"):
        return
    project = next(
        (
            earlier
            for earlier in reversed(results)
            if earlier.get("stack") == "project"
            and (earlier["processes"], earlier["tables"]) == (result["processes"], result["tables"])
        ),
        None,
    )
    if project is not None and project.get("cards_per_second"):
        result["project_share"] = round(project["cards_per_second"] / result["cards_per_second"], 2)


def _print(args: argparse.Namespace, results: list[dict[str, Any]], result: dict[str, Any]) -> None:
    if args.save:  # after every case, so an interrupted run keeps what it measured
        args.save.write_text(json.dumps(results, indent=2) + "\n")
    if args.json:
        return
    if len(results) == 1:
        print(header())
    print(row(result), flush=True)
    if "project_share" in result:
        print(f"{'':>12}the project carried {result['project_share']:.2f} of the floor's cards/s")
    for text, times in result.get("messages", {}).items():
        print(f"{'':>12}message x{times}: {text}")
    for kind in result.get("server_error_kinds", []):
        print(f"{'':>12}server error: {kind}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=numbers, default=[10, 50, 100, 200], help="table counts (10,50,100,200)")
    parser.add_argument("--processes", type=numbers, default=[1, 2], help="server process counts (1,2)")
    parser.add_argument(
        "--stacks", type=stacks, default=["project", "floor"], help="project, floor or both, in that order (both)"
    )
    parser.add_argument(
        "--split", choices=("players", "tables"), default="players", help="spread over processes by (players)"
    )
    parser.add_argument(
        "--proxy", action="store_true", help="players connect through HAProxy (deploy/haproxy.cfg) instead"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window (30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after every view arrived (5)")
    parser.add_argument("--think", type=float, default=1.0, help="a player's pause before playing (1.0)")
    parser.add_argument("--timeout", type=float, default=5.0, help="a move later than this is an error (5)")
    parser.add_argument("--stall", type=float, default=10.0, help="a table with no progress this long stalled (10)")
    parser.add_argument("--computer-pause", default="0.3", help="FEMKORT_COMPUTER_PAUSE for the servers (0.3)")
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="dropped and recreated (name must say bench)")
    parser.add_argument("--redis", default=DEFAULT_REDIS, help="flushed before each case (not db 0)")
    parser.add_argument("--deadline", type=float, default=900.0, help="skip cases that would start after this (900)")
    parser.add_argument(
        "--arena", type=int, default=0, help="instead: an arena of this many players (tools.bench_arena)"
    )
    parser.add_argument("--viewers", type=int, default=20, help="with --arena: standings pages left open (20)")
    parser.add_argument(
        "--reviews", choices=("on", "off"), default="on", help="with --arena: compute deals' reviews beside it (on)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--save", type=Path, help="also write the results as JSON to this file")
    args = parser.parse_args()

    began = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="femkort-bench-load-"))
    print(f"server logs in {workdir}", file=sys.stderr)
    secret = secrets.token_urlsafe(50)
    common = {
        "DJANGO_SETTINGS_MODULE": "femkort_site.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secret,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        "DATABASE_URL": args.database,
    }
    server_env = os.environ | common
    server_env |= {
        "DJANGO_STATIC_ROOT": str(workdir / "static"),
        "REDIS_URL": args.redis,
        "FEMKORT_COMPUTER_PAUSE": args.computer_pause,
        "FEMKORT_TRICK_PAUSE_SECONDS": args.computer_pause,  # as measured before tricks paused longer
        "PYTHONUNBUFFERED": "1",
    }
    os.environ.update(common)
    os.environ.pop("REDIS_URL", None)  # this process only sets tables up: no channel layer needed
    os.environ["DJANGO_DB_POOL"] = "0"

    recreate_database(args.database)
    # As deployed: the pages' static files are collected (WhiteNoise serves them with hashed names).
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=server_env,
        check=True,
        capture_output=True,
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    if args.arena:
        from tools import bench_arena

        result = bench_arena.run(args, server_env, workdir)
        print(json.dumps(result, indent=2) if args.json else bench_arena.report(result))
        return 0
    results = []
    frame_bytes = 8300  # the floor's frames: the project's mean frame, once measured
    for processes in args.processes:
        for count in args.tables:
            for stack in args.stacks:
                if time.monotonic() - began > args.deadline:
                    print(f"skipped {stack}, {processes} process(es), {count} tables: past --deadline", file=sys.stderr)
                    continue
                print(f"{stack}, {processes} process(es), {count} tables:", file=sys.stderr)
                env = server_env | {"FLOOR_FRAME_BYTES": str(frame_bytes)}
                try:
                    result = run_case(processes, count, args, env, workdir, stack)
                except Exception as error:  # report it and go on with the next case
                    print(f"  failed: {error!r}", file=sys.stderr)
                    result = {"stack": stack, "processes": processes, "tables": count, "failed": repr(error)}
                if stack == "project" and result.get("frame_bytes"):
                    frame_bytes = result["frame_bytes"]
                _against_floor(results, result)
                results.append(result)
                _print(args, results, result)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(
            f"{args.seconds:.0f} s window after {args.warmup:.0f} s warm-up; latency in ms (move -> all 3 views); "
            f"CPU % of one core; {os.cpu_count()} cores; total {time.monotonic() - began:.0f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
