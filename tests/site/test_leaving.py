"""A seat left for good is no longer yours: the leaver sees the table as a spectator from then on,
over HTTP and over the websocket, so in a partnership game they cannot tell the partner who stayed
what the seat holds."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.models import GameSession, Seat
from games.selectors import table_view_for
from games.stored import deal_state
from tests.live_helpers import DATA_CARD, connect, frames_until, hidden_from, table_now

pytestmark = pytest.mark.django_db(transaction=True)


def euchre_table(users) -> GameSession:
    session = services.table_create(host=users[0], seats=4, game="euchre", options={})
    for user in users[1:]:
        services.seat_take(session_id=session.pk, user=user)
    return services.session_start(session_id=session.pk, user=users[0])


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("anna", "bo", "cleo", "dag")]


def state_now(session_id: int):
    return deal_state(GameSession.objects.get(pk=session_id).deals.order_by("-number").first())


def test_the_leavers_page_shows_no_hand_of_the_seat_they_left(four):
    session = euchre_table(four)
    leaver = four[1]
    seat = Seat.objects.get(session=session, user=leaver)
    page = Client()
    page.force_login(leaver)
    html = page.get(f"/tables/{session.pk}/").content.decode()
    assert set(state_now(session.pk).hand(seat.position)) <= set(DATA_CARD.findall(html))
    services.session_leave(session_id=session.pk, user=leaver)
    view = table_view_for(GameSession.objects.get(pk=session.pk), leaver)
    assert view.my_seat is None
    assert view.hand == ()
    html = page.get(f"/tables/{session.pk}/").content.decode()
    assert not set(DATA_CARD.findall(html)) & hidden_from(state_now(session.pk), None)
    assert "Take my seat back" not in html


async def test_the_leavers_socket_gets_the_spectators_view(four):
    session = await database_sync_to_async(euchre_table)(four)
    leaver = four[2]
    await database_sync_to_async(services.session_leave)(session_id=session.pk, user=leaver)
    socket = await connect(session.pk, leaver)
    session, state = await table_now(session.pk)
    frames = await frames_until(socket, session.seq)
    assert not set(DATA_CARD.findall(frames[-1])) & hidden_from(state, None)
    await socket.disconnect()
