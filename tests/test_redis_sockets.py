"""Against the real Redis, as deployed: a websocket left idle stays open and still receives the next move."""

import time

import pytest
from websockets.sync.client import connect as ws_connect

from games import services
from games.records import deal_state
from tests.live_helpers import frame_seq, session_cookie
from tests.servers import daphne, production_env, server_database_url, shared_services_or_skip

pytestmark = pytest.mark.django_db(transaction=True)
REDIS_READ_TIMEOUT = 15  # femkort_site.env.redis_host: the client's socket timeout


def next_view(client, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = client.recv(timeout=max(0.1, deadline - time.monotonic()))
        if frame_seq(frame) is not None:
            return frame


def test_an_idle_socket_outlives_the_redis_client_timeout_and_receives_the_next_move(players, tmp_path):
    shared_services_or_skip()
    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    session = services.session_start(session_id=session.pk, user=players[0])
    env = production_env(tmp_path, DATABASE_URL=server_database_url(tmp_path))
    with daphne(env) as base:
        url = base.replace("http", "ws") + f"/ws/tables/{session.pk}/"
        headers = {"Cookie": session_cookie(players[0]).decode(), "Origin": base}
        with ws_connect(url, additional_headers=headers, open_timeout=10) as client:
            assert frame_seq(next_view(client)) == session.seq
            time.sleep(REDIS_READ_TIMEOUT + 3)  # a player thinking; the server's Redis reads time out meanwhile
            state = deal_state(session.deals.get())
            mover = session.seats.get(position=state.to_act).user
            card = state.legal_cards()[0]
            services.card_play(session_id=session.pk, user=mover, card=card, seen_seq=session.seq)
            view = next_view(client)
            assert frame_seq(view) == session.seq + 1
            assert f'data-card="{card}"' in view
