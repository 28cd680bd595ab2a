"""Benchmark: how long a move takes to reach every player over websockets.

    .venv/bin/python -m tools.bench_live [--sessions 3] [--players 3]

Starts daphne on 127.0.0.1 with a throw-away SQLite database (and Redis if REDIS_URL
is set), seats players with websocket clients, plays whole sessions, and prints the
time from sending a card to the last player seeing it (median, p95, max).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="femkort-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ["FEMKORT_COMPUTER_PAUSE"] = "0"
    os.environ["FEMKORT_TRICK_PAUSE_SECONDS"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "femkort_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "femkort_site.asgi:application"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(port)
        latencies = []
        for number in range(args.sessions):
            latencies += _play_session(port, args.players, number)
    finally:
        server.terminate()
        server.wait(timeout=10)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    layer = "redis" if os.environ.get("REDIS_URL") else "in-memory"
    print(f"{len(latencies)} moves, {args.players} players, {args.sessions} sessions, {layer} channel layer")
    print(
        f"move -> every player: median {statistics.median(latencies) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms"
    )
    return 0


def _play_session(port: int, players: int, number: int) -> list[float]:
    from django.test import Client
    from websockets.sync.client import connect

    from accounts.models import User
    from games import services

    users = [User.objects.create_user(f"bench{number}-{i}", password="x-long-bench-password") for i in range(players)]
    session = services.table_create(host=users[0], seats=players)
    for user in users[1:]:
        services.seat_take(session_id=session.pk, user=user)
    session = services.session_start(session_id=session.pk, user=users[0])
    with ExitStack() as stack:
        sockets = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookie = f"sessionid={client.cookies['sessionid'].value}"
            headers = {"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"}
            url = f"ws://127.0.0.1:{port}/ws/tables/{session.pk}/"
            sockets.append(stack.enter_context(connect(url, additional_headers=headers)))
        return _time_moves(session, sockets)


def _time_moves(session, sockets) -> list[float]:
    from games.models import GameSession
    from games.stored import deal_state
    from tests.live_helpers import frame_seq

    def until(sock, seq: int) -> None:
        while (frame_seq(sock.recv(timeout=10)) or -1) < seq:
            pass

    for sock in sockets:
        until(sock, session.seq)
    latencies = []
    while True:
        session = GameSession.objects.get(pk=session.pk)
        if session.status != GameSession.Status.PLAYING:
            break
        state = deal_state(session.deals.order_by("-number").first())
        started = time.perf_counter()
        message = {"action": "play", "card": state.legal_cards()[0], "seq": session.seq}
        sockets[state.to_act].send(json.dumps(message))
        for sock in sockets:
            until(sock, session.seq + 1)
        latencies.append(time.perf_counter() - started)
    return latencies


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


if __name__ == "__main__":
    sys.exit(main())
