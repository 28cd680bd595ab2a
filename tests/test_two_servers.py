"""Two server processes sharing PostgreSQL and Redis: players on either one see each other's moves."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from websockets.sync.client import connect as ws_connect

from games import services
from games.records import deal_state
from tests.live_helpers import frame_seq, session_cookie

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db(transaction=True)


def shared_services_or_skip() -> None:
    needs = []
    if connection.vendor != "postgresql":
        needs.append("DATABASE_URL=postgres://...")
    if not os.environ.get("REDIS_URL"):
        needs.append("REDIS_URL=redis://...")
    if needs:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run this test against shared services; set {' and '.join(needs)}")
        pytest.skip(f"two processes need shared services: set {' and '.join(needs)}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    url = urlsplit(os.environ["DATABASE_URL"])
    test_db = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    env = os.environ | {"DATABASE_URL": test_db, "FEMKORT_COMPUTER_PAUSE": "0", "DJANGO_DEBUG": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "femkort_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(process.stderr.read().decode()) from None
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"daphne on port {port} did not start")


def receive_view(client, at_least: int, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = client.recv(timeout=max(0.1, deadline - time.monotonic()))
        seq = frame_seq(frame)
        if seq is not None and seq >= at_least:
            return frame


def test_players_on_two_processes_see_each_others_moves(players):
    shared_services_or_skip()
    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    session = services.session_start(session_id=session.pk, user=players[0])
    ports = [free_port(), free_port()]
    servers = [start_server(port) for port in ports]
    try:
        with ExitStack() as open_sockets:
            clients = [
                open_sockets.enter_context(
                    ws_connect(
                        f"ws://127.0.0.1:{ports[seat % 2]}/ws/tables/{session.pk}/",
                        additional_headers={
                            "Cookie": session_cookie(user).decode(),
                            "Origin": f"http://127.0.0.1:{ports[seat % 2]}",
                        },
                        open_timeout=10,
                    )
                )
                for seat, user in enumerate(players)
            ]
            play_six_cards(session, clients, ports)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


def play_six_cards(session, clients, ports) -> None:
    """Each move, made on one process, must reach the players connected to the other."""
    for client in clients:
        receive_view(client, session.seq)
    for _ in range(6):
        session.refresh_from_db()
        state = deal_state(session.deals.order_by("-number").first())
        card = state.legal_cards()[0]
        mover = state.to_act
        clients[mover].send(f'{{"action": "play", "card": "{card}", "seq": {session.seq}}}')
        for seat, client in enumerate(clients):
            frame = receive_view(client, session.seq + 1)
            assert f'data-card="{card}"' in frame, f"seat {seat} on port {ports[seat % 2]} missed {card}"
