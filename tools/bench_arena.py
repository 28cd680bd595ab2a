"""An arena under load: ``python -m tools.bench_load --arena 200`` (see ``tools.bench_load``).

``--arena N`` scripted players enter a running arena of the first game (tables of 4, one deal a
table), on one server process (daphne in production mode through ``tools.bench_server``, its task
worker running the pairing passes and the tournaments' clock every second, and with ``--reviews
on`` the usual worker computing each finished deal's review) with PostgreSQL and
Redis as ``bench_load`` sets them up. Each player keeps its notices socket open; "your table is
ready" sends it to the table's socket, where it plays its first playable card ``--think`` seconds
after each view showing its turn, until the view shows the session's result; then it leaves the
table and waits to be seated again. ``--viewers`` more clients fetch the standings every 2 s as the
arena's page does (``?v=`` the version they show). Once every player has its notices socket, the
arena starts; after ``--warmup`` seconds the window of ``--seconds`` is measured:

- pairing passes: each ``arena_pair`` task's time in the worker (queue table's started/finished),
  p50/p95/max, and how many;
- tables finished and cards played per second (``Play`` rows) in the window;
- free -> seated: from the frame showing a player's table over to its next "table is ready" notice;
- standings polls: latency p50/p95 (changed: 200, unchanged: 204) and how often each answered;
- errors: sockets refused or closed, tracebacks in the server's log; the server's CPU.
"""

from __future__ import annotations

import asyncio
import json
import re
import statistics
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

READY = re.compile(r'id="table-ready-(\d+)"')
RESULT = re.compile(r'class="result"')
THINK = 1.0


@dataclass
class ArenaPlayer:
    cookie: str
    table: int | None = None
    freed: float | None = None  # when its last table showed its result
    acted: int = -1


@dataclass
class Figures:
    errors: Counter = field(default_factory=Counter)
    seat_waits: list[float] = field(default_factory=list)
    polls: dict[int, list[float]] = field(default_factory=lambda: {200: [], 204: []})
    window: tuple[float, float] = (float("inf"), float("inf"))
    closing: bool = False

    def in_window(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]


def setup(players: int) -> tuple[int, list[str]]:
    """The players (logins as cookies) and an upcoming arena they have all entered."""
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from games.engine import GAMES
    from games.models import Tournament, TournamentEntry

    with transaction.atomic():
        users = User.objects.bulk_create(
            User(username=f"arena{i}", password=make_password(None)) for i in range(players)
        )
        arena = Tournament.objects.create(
            kind=Tournament.Kind.ARENA,
            game=next(iter(GAMES)),
            players=4,
            deals=1,
            name="arena load",
            starts=timezone.now() + timedelta(days=1),  # started once every player listens
            minutes=120,
        )
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=arena, user=user, free_since=arena.starts) for user in users
        )
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return arena.pk, cookies


def start_now(arena_id: int) -> None:
    from django.utils import timezone

    from games.models import Tournament

    Tournament.objects.filter(pk=arena_id).update(starts=timezone.now())


def passes_and_tables(arena_id: int, window: tuple[float, float], wall: tuple[float, float]) -> dict[str, Any]:
    """From the database: the pairing passes' times, tables finished and cards played in the window."""
    from datetime import UTC, datetime

    from django.db.models import Count
    from django_tasks_db.models import DBTaskResult

    from games.models import GameSession, Play

    begin, end = (datetime.fromtimestamp(moment, UTC) for moment in wall)
    passes = [
        (row.finished_at - row.started_at).total_seconds()
        for row in DBTaskResult.objects.filter(
            task_path="games.tasks.arena_pair", finished_at__gte=begin, finished_at__lt=end
        )
        if row.started_at and row.finished_at
    ]
    tables = GameSession.objects.filter(tournament_id=arena_id, finished__gte=begin, finished__lt=end).count()
    cards = Play.objects.filter(played__gte=begin, played__lt=end).aggregate(n=Count("pk"))["n"]
    seconds = window[1] - window[0]
    return {
        "passes": len(passes),
        "pass_ms": _spread(passes),
        "tables_finished": tables,
        "tables_per_minute": round(tables * 60 / seconds, 1),
        "cards_per_second": round(cards / seconds, 1),
    }


def _spread(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "max": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "p50": round(statistics.median(ordered) * 1000, 1),
        "p95": round(p95 * 1000, 1),
        "max": round(ordered[-1] * 1000, 1),
    }


async def notices(player: ArenaPlayer, port: int, figures: Figures) -> None:
    """The player's notices socket: each "table is ready" seats it (its table's socket plays)."""
    from websockets.asyncio.client import connect

    headers = {"Cookie": player.cookie, "Origin": f"http://127.0.0.1:{port}"}
    async with connect(f"ws://127.0.0.1:{port}/ws/notices/", additional_headers=headers, proxy=None) as ws:
        async for frame in ws:
            found = READY.search(frame)
            if found is None or figures.closing:
                continue
            table = int(found.group(1))
            if table == player.table:
                continue
            now = time.perf_counter()
            if player.freed is not None and figures.in_window(now):
                figures.seat_waits.append(now - player.freed)
            player.table, player.freed, player.acted = table, None, -1
            asyncio.get_running_loop().create_task(play(player, table, port, figures))


async def play(player: ArenaPlayer, table: int, port: int, figures: Figures) -> None:
    """At the table until its result shows: the first playable card after each view of its turn."""
    from websockets.asyncio.client import connect

    from tools.bench_load import parse_frame

    headers = {"Cookie": player.cookie, "Origin": f"http://127.0.0.1:{port}"}
    try:
        async with connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table}/", additional_headers=headers, proxy=None, max_size=2**22
        ) as ws:
            async for frame in ws:
                if RESULT.search(frame):
                    player.freed = time.perf_counter()
                    return
                view = parse_frame(frame)
                if view is None or not view.playable or view.seq <= player.acted or figures.closing:
                    continue
                player.acted = view.seq
                await asyncio.sleep(THINK)
                await ws.send(json.dumps({"action": "play", "card": view.playable[0], "seq": view.seq}))
    except Exception as error:
        figures.errors[f"table:{type(error).__name__}"] += 1


async def viewer(arena_id: int, port: int, figures: Figures) -> None:
    """A standings page left open: fetch every 2 s with the version shown."""
    version = ""
    while not figures.closing:
        started = time.perf_counter()
        url = f"http://127.0.0.1:{port}/tournaments/{arena_id}/standings/?v={version}"
        try:
            status, body = await asyncio.to_thread(_get, url)
        except Exception as error:
            figures.errors[f"poll:{type(error).__name__}"] += 1
            status, body = 0, ""
        if figures.in_window(started) and status in figures.polls:
            figures.polls[status].append(time.perf_counter() - started)
        found = re.search(r'data-version="(\d+)"', body)
        version = found.group(1) if found else version
        await asyncio.sleep(max(0.0, 2.0 - (time.perf_counter() - started)))


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Host": "127.0.0.1"}), timeout=10) as answer:
        return answer.status, answer.read().decode()


async def drive(arena_id: int, cookies: list[str], port: int, args: Any) -> dict[str, Any]:
    figures = Figures()
    players = [ArenaPlayer(cookie) for cookie in cookies]
    tasks = [asyncio.create_task(notices(player, port, figures)) for player in players]
    await asyncio.sleep(3)  # every notices socket open (a refused one shows in the errors)
    await asyncio.to_thread(start_now, arena_id)
    tasks += [asyncio.create_task(viewer(arena_id, port, figures)) for _ in range(args.viewers)]
    await asyncio.sleep(args.warmup)
    began, wall_began = time.perf_counter(), time.time()
    figures.window = (began, began + args.seconds)
    await asyncio.sleep(args.seconds)
    wall = (wall_began, time.time())
    figures.closing = True
    for task in tasks:
        task.cancel()
    await asyncio.sleep(1)  # the last passes of the window are written
    result = await asyncio.to_thread(passes_and_tables, arena_id, (began, began + args.seconds), wall)
    return result | {
        "free_to_seated_ms": _spread(figures.seat_waits),
        "seated": len(figures.seat_waits),
        "poll_changed_ms": _spread(figures.polls[200]),
        "poll_unchanged_ms": _spread(figures.polls[204]),
        "polls": {"changed": len(figures.polls[200]), "unchanged": len(figures.polls[204])},
        "errors": dict(figures.errors),
    }


def run(args: Any, env: dict[str, str], workdir: Path) -> dict[str, Any]:
    """One arena case on one server process; the figures as a dict."""
    from django.core.management import call_command
    from django.db import connections

    from tools.bench_load import cpu_seconds, flush_redis, log_errors, start_servers, stop_servers

    call_command("flush", interactive=False, verbosity=0)
    flush_redis(args.redis)
    arena_id, cookies = setup(args.arena)
    connections.close_all()
    env = env | {
        "FEMKORT_TASK_WORKERS": "1" if args.reviews == "on" else "0",  # off: deals' reviews wait in the queue
        "FEMKORT_TOURNAMENT_WORKERS": "1",
        "FEMKORT_TOURNAMENT_TICK_SECONDS": "1",
        "FEMKORT_TOURNAMENT_SCHEDULE": "[]",
        "FEMKORT_ARENA_FILL_SECONDS": "5",
    }
    servers = start_servers(1, env, workdir, f"arena-{args.arena}")
    try:
        cpu_before = cpu_seconds(servers[0].process.pid)
        started = time.perf_counter()
        result = asyncio.run(drive(arena_id, cookies, servers[0].port, args))
        elapsed = time.perf_counter() - started
        result["server_cpu_percent"] = round(100 * (cpu_seconds(servers[0].process.pid) - cpu_before) / elapsed, 1)
    finally:
        stop_servers(servers)
    tracebacks, kinds = log_errors(servers)
    if tracebacks:
        result["errors"]["server-errors"] = tracebacks
        result["server_error_kinds"] = kinds[:5]
    return {"players": args.arena, "viewers": args.viewers, "seconds": args.seconds, "reviews": args.reviews} | result


def report(result: dict[str, Any]) -> str:
    def spread(name: str) -> str:
        values = result[name]
        return f"p50 {values['p50']} ms, p95 {values['p95']} ms, max {values['max']} ms"

    return "\n".join(
        [
            f"arena of {result['players']} players, {result['viewers']} standings viewers, "
            f"{result['seconds']:.0f} s window, deals' reviews computed beside it: {result['reviews']}",
            f"  pairing passes: {result['passes']}, {spread('pass_ms')} (in the task worker)",
            f"  tables finished: {result['tables_finished']} ({result['tables_per_minute']}/min), "
            f"cards/s {result['cards_per_second']}",
            f"  free -> seated: {result['seated']} times, {spread('free_to_seated_ms')}",
            f"  standings polls: changed {result['polls']['changed']} ({spread('poll_changed_ms')}), "
            f"unchanged {result['polls']['unchanged']} ({spread('poll_unchanged_ms')})",
            f"  server CPU {result['server_cpu_percent']} % of one core; errors {result['errors'] or 'none'}",
        ]
    )
