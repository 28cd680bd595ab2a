"""Live, on a real server: one of two players closes the browser, and the session still ends."""

import time

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import GameSession, Seat
from games.stored import deal_state
from tests.live_helpers import frame_seq
from tests.servers import daphne, production_env, server_database_url, shared_services_or_skip, table_socket
from tests.site_helpers import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # starts servers


def test_a_player_who_disconnects_is_replaced_and_the_session_finishes(players, tmp_path):
    shared_services_or_skip()
    anna, bjorn = players[:2]
    session = started_table([anna, bjorn], computers=1, target=1)
    env = production_env(
        tmp_path,
        DATABASE_URL=server_database_url(tmp_path),
        FEMKORT_AWAY_SECONDS="1",
        FEMKORT_SWEEP_SECONDS="0.2",
    )
    with daphne(env) as base, table_socket(base, session.pk, anna) as client:
        with table_socket(base, session.pk, bjorn) as leaving:
            leaving.recv(timeout=10)  # bjorn was there, then closes the browser
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            session.refresh_from_db()
            if session.status != GameSession.Status.PLAYING:
                break
            try:
                frame = client.recv(timeout=2)
            except TimeoutError:
                continue
            except ConnectionClosed:
                pytest.fail("anna's socket was closed")
            seq = frame_seq(frame)
            session.refresh_from_db()
            if seq is None or seq != session.seq or session.status != GameSession.Status.PLAYING:
                continue
            state = deal_state(session.deals.order_by("-number").first())
            if state.to_act is None:  # the server moved on since the read above: the deal is over
                continue
            if session.seats.get(position=state.to_act).user == anna:
                client.send(f'{{"action": "play", "card": "{state.legal_cards()[0]}", "seq": {seq}}}')
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert Seat.objects.get(session=session, user=bjorn).stand_in == "medium"  # as the table's one computer
    assert Seat.objects.get(session=session, user=anna).stand_in == ""
