"""Two server processes sharing PostgreSQL and Redis: players on either one see each other's moves."""

import time
from contextlib import ExitStack

import pytest
from websockets.sync.client import connect as ws_connect

from games import services
from games.records import deal_state
from tests.live_helpers import frame_seq, session_cookie
from tests.servers import daphne, production_env, server_database_url, shared_services_or_skip

pytestmark = pytest.mark.django_db(transaction=True)


def start_servers(stack: ExitStack, tmp_path) -> list[str]:
    env = production_env(tmp_path, DATABASE_URL=server_database_url(tmp_path))
    return [stack.enter_context(daphne(env)) for _ in range(2)]


def receive_view(client, at_least: int, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = client.recv(timeout=max(0.1, deadline - time.monotonic()))
        seq = frame_seq(frame)
        if seq is not None and seq >= at_least:
            return frame


def test_players_on_two_processes_see_each_others_moves(players, tmp_path):
    shared_services_or_skip()
    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    session = services.session_start(session_id=session.pk, user=players[0])
    with ExitStack() as stack:
        bases = start_servers(stack, tmp_path)
        clients = [
            stack.enter_context(
                ws_connect(
                    bases[seat % 2].replace("http", "ws") + f"/ws/tables/{session.pk}/",
                    additional_headers={"Cookie": session_cookie(user).decode(), "Origin": bases[seat % 2]},
                    open_timeout=10,
                )
            )
            for seat, user in enumerate(players)
        ]
        play_six_cards(session, clients, bases)


def play_six_cards(session, clients, bases) -> None:
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
            assert f'data-card="{card}"' in frame, f"seat {seat} on {bases[seat % 2]} missed {card}"
