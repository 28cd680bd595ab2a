"""Against the real Redis, as deployed: a websocket left idle stays open and still receives the next move."""

import time

import pytest

from games import services
from games.stored import deal_state
from tests.live_helpers import frame_seq
from tests.servers import daphne, next_view, production_env, server_database_url, shared_services_or_skip, table_socket
from tests.site_helpers import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # starts servers
REDIS_READ_TIMEOUT = 15  # femkort_site.env.redis_host: the client's socket timeout


def test_an_idle_socket_outlives_the_redis_client_timeout_and_receives_the_next_move(players, tmp_path):
    shared_services_or_skip()
    session = started_table(players)
    env = production_env(tmp_path, DATABASE_URL=server_database_url(tmp_path))
    with daphne(env) as base, table_socket(base, session.pk, players[0]) as client:
        assert frame_seq(next_view(client)) == session.seq
        time.sleep(REDIS_READ_TIMEOUT + 3)  # a player thinking; the server's Redis reads time out meanwhile
        state = deal_state(session.deals.get())
        mover = session.seats.get(position=state.to_act).user
        card = state.legal_cards()[0]
        services.action_take(session_id=session.pk, user=mover, action=card, seen_seq=session.seq)
        view = next_view(client)
        assert frame_seq(view) == session.seq + 1
        assert f'data-card="{card}"' in view
