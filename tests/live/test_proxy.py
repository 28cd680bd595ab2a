"""HAProxy in front of two daphne processes, as deploy/haproxy.cfg runs it: a table's page, its
poll and its socket reach one process (hashed on the table's id); when that process dies, its
players reconnect through the proxy to the other and play on from where they were."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import GameSession
from games.stored import deal_state
from tests.live_helpers import frame_seq, session_cookie
from tests.servers import (
    free_port,
    manage,
    next_view,
    production_env,
    server_database_url,
    server_process,
    shared_services_or_skip,
    table_socket,
)
from tests.site_helpers import started_table
from tools.haproxy import haproxy_binary, local_config

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # starts servers and a proxy

PROCESS = "X-Femkort-Process"


def haproxy_or_skip() -> str:
    found = haproxy_binary()
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("CI must run the proxy test: .ci/run installs haproxy (apt-get install haproxy)")
    pytest.skip("haproxy is not installed (sudo apt install haproxy)")


def get(base: str, path: str, user=None):
    headers = {"Cookie": session_cookie(user).decode()} if user else {}
    return urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=10)


def closed(client) -> None:
    """Returns once the server's end of the socket is gone (frames before that are skipped)."""
    try:
        while True:
            client.recv(timeout=30)
    except ConnectionClosed:
        return


def play_cards(session, clients, count: int, acknowledged: list[str]) -> None:
    """``count`` cards, each made by the seat to act and seen by every seat; each card counts as
    acknowledged once its player has the view that shows it."""
    for _ in range(count):
        session.refresh_from_db()
        state = deal_state(session.deals.order_by("-number").first())
        card = state.legal_cards()[0]
        clients[state.to_act].send(f'{{"action": "play", "card": "{card}", "seq": {session.seq}}}')
        for seat, client in enumerate(clients):
            assert f'data-card="{card}"' in next_view(client, session.seq + 1), f"seat {seat} missed {card}"
        acknowledged.append(card)


def test_a_table_stays_on_one_process_and_moves_when_it_dies(players, tmp_path):
    shared_services_or_skip()
    haproxy = haproxy_or_skip()
    session = started_table(players)
    env = production_env(tmp_path / "static", DATABASE_URL=server_database_url(tmp_path), DJANGO_PROXY_COUNT="1")
    manage("collectstatic", "--noinput", env=env)
    daphne_ports = {"app1": free_port(), "app2": free_port()}
    proxy_port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(local_config(proxy_port, list(daphne_ports.values())))
    subprocess.run([haproxy, "-c", "-q", "-f", str(config)], check=True, timeout=30)
    base = f"http://127.0.0.1:{proxy_port}"
    with ExitStack() as stack:
        processes = {
            name: stack.enter_context(server_process(daphne_command(port), env, port, log(stack)))
            for name, port in daphne_ports.items()
        }
        proxy_log = log(stack)
        stack.enter_context(server_process([haproxy, "-db", "-f", str(config)], {}, proxy_port, proxy_log))

        # Without a table id, requests go round robin; the table's page, poll and socket to one process.
        assert {get(base, "/").headers[PROCESS] for _ in range(2)} == set(processes)
        holder = get(base, f"/tables/{session.pk}/", players[0]).headers[PROCESS]
        assert get(base, f"/tables/{session.pk}/?seq={session.seq}", players[1]).headers[PROCESS] == holder
        clients = [stack.enter_context(table_socket(base, session.pk, user)) for user in players]
        assert {client.response.headers[PROCESS] for client in clients} == {holder}
        for client in clients:
            next_view(client, session.seq)
        acknowledged: list[str] = []
        play_cards(session, clients, 3, acknowledged)

        # The process holding the table dies, its sockets with it; the players come back through the proxy.
        os.kill(processes[holder].pid, signal.SIGKILL)
        for client in clients:
            closed(client)
        session.refresh_from_db()
        clients = [stack.enter_context(table_socket(base, session.pk, user)) for user in players]
        (survivor,) = set(processes) - {holder}
        assert {client.response.headers[PROCESS] for client in clients} == {survivor}
        for client in clients:
            assert frame_seq(next_view(client)) == session.seq  # the current view, at once
        assert get(base, f"/tables/{session.pk}/", players[0]).headers[PROCESS] == survivor
        play_cards(session, clients, 3, acknowledged)
        deal = session.deals.order_by("-number").first()
        assert list(deal.plays.order_by("pk").values_list("action", flat=True)) == acknowledged
        assert GameSession.objects.get(pk=session.pk).status == GameSession.Status.PLAYING

        # The process back on its port: the health check finds it, and its tables hash to it again.
        port = daphne_ports[holder]
        stack.enter_context(server_process(daphne_command(port), env, port, log(stack)))
        assert "Layer7 check passed" in logged(proxy_log, rf"Server daphne/{holder} is UP.*")
        assert get(base, f"/tables/{session.pk}/", players[0]).headers[PROCESS] == holder


def daphne_command(port: int) -> list[str]:
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "femkort_site.asgi:application"]


def logged(log, pattern: str, timeout: float = 30) -> str:
    """The first line of ``log`` that matches ``pattern``, once it has been written."""
    deadline = time.monotonic() + timeout
    while True:
        log.seek(0)
        if found := re.search(pattern, log.read().decode(errors="replace")):
            return found.group()
        assert time.monotonic() < deadline, f"nothing like {pattern!r} in the log"
        time.sleep(0.1)


def log(stack: ExitStack):
    return stack.enter_context(tempfile.TemporaryFile())
