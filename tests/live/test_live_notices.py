"""A player's news on any open page: an invitation arrives live as a toast (over the notices socket
on other pages, over the table's own socket at a table), for the invitee alone; the notices socket
counts as online for friends, lives no longer than its login and counts towards the socket limit."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from femkort_site.asgi import application
from games import services
from games.live.logins import SIGNED_OUT
from games.live.notices import NOT_SIGNED_IN, TOO_MANY
from games.models import Connection, GameSession, Invitation, Seat
from games.notice_html import invitation_notice
from games.selectors import friends_online
from tests.live_helpers import connect, frame_where
from tests.site.test_turn_based import a_card
from tests.site_helpers import logged_in, started_table, table_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("in_english")]


def notices_headers(client: Client | None) -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return headers


async def refused_code(communicator: WebsocketCommunicator) -> int:
    """The code a refused notices socket is closed with, once accepted (so the browser does not retry)."""
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    output = await communicator.receive_output(timeout=30)
    assert output["type"] == "websocket.close"
    return output["code"]


async def notices_of(client: Client) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, "/ws/notices/", headers=notices_headers(client))
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


def toast_of(invitation_id: int):
    return lambda frame: f'id="invitation-{invitation_id}"' in frame


@database_sync_to_async
def invite(session, host, username: str) -> Invitation:
    response = logged_in(host).post(f"/tables/{session.pk}/invite/", {"username": username})
    assert response.status_code == 302
    return Invitation.objects.get(session=session, invitee__username=username)


async def test_an_invitation_reaches_the_invitees_open_pages_at_once_and_nobody_elses(players):
    host, bjorn, cecilia = players
    session = await database_sync_to_async(table_with)(host, "euchre", {}, 4, computers=[2])
    bjorns_lobby = await notices_of(await database_sync_to_async(logged_in)(bjorn))
    bjorns_table = await connect(session.pk, bjorn)  # looking at the table before being asked to it
    cecilias_lobby = await notices_of(await database_sync_to_async(logged_in)(cecilia))
    to_bjorn = await invite(session, host, bjorn.username)
    to_cecilia = await invite(session, host, cecilia.username)
    frame = await bjorns_lobby.receive_from(timeout=30)
    assert toast_of(to_bjorn.pk)(frame)
    assert f"{host.name} invites you to {session}" in frame
    assert 'id="invitations-link"' in frame
    assert "1 waiting for your answer" in frame
    assert f"/invitations/{to_bjorn.pk}/answer/" in frame
    assert await frame_where(bjorns_table, toast_of(to_bjorn.pk))
    first = await cecilias_lobby.receive_from(timeout=30)  # her own invitation, never bjorn's
    assert toast_of(to_cecilia.pk)(first)
    assert not toast_of(to_bjorn.pk)(first)
    for communicator in (bjorns_lobby, bjorns_table, cecilias_lobby):
        await communicator.disconnect()


def test_news_of_an_invitation_no_longer_open_shows_nothing(players):
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 4)
    invitation = services.invite(session_id=session.pk, user=host, username=bjorn.username)
    assert invitation_notice(cecilia, invitation.pk) == ""  # not hers
    assert "invites you to" in invitation_notice(bjorn, invitation.pk)
    services.invitation_answer(invitation_id=invitation.pk, user=bjorn, join=False)
    assert invitation_notice(bjorn, invitation.pk) == ""


async def test_a_notices_socket_is_for_a_signed_in_player_and_ends_with_the_login(players):
    anonymous = WebsocketCommunicator(application, "/ws/notices/", headers=notices_headers(None))
    assert await refused_code(anonymous) == NOT_SIGNED_IN
    client = await database_sync_to_async(logged_in)(players[1])
    communicator = await notices_of(client)
    await database_sync_to_async(client.post)("/accounts/logout/")
    output = await communicator.receive_output(timeout=30)
    assert output["type"] == "websocket.close"
    assert output["code"] == SIGNED_OUT


async def test_a_notices_socket_counts_as_online_and_pages_have_limits_apart_from_tables(players, settings):
    host, bjorn, _ = players
    await database_sync_to_async(services.follow)(user=host, username=bjorn.username)
    assert await database_sync_to_async(friends_online)(host) == []
    client = await database_sync_to_async(logged_in)(bjorn)
    communicator = await notices_of(client)
    online = await database_sync_to_async(friends_online)(host)
    assert [(friend.username, friend.table) for friend in online] == [(bjorn.username, None)]
    settings.FEMKORT_SOCKETS_PER_USER = 1
    second = WebsocketCommunicator(application, "/ws/notices/", headers=notices_headers(client))
    assert await refused_code(second) == TOO_MANY
    session = await database_sync_to_async(table_with)(host, "femkort", {}, 4)
    at_table = await connect(session.pk, bjorn)  # a table's socket is not crowded out by pages
    assert "too many live connections" not in await at_table.receive_from(timeout=30)
    await at_table.disconnect()
    await communicator.disconnect()
    assert not await database_sync_to_async(Connection.objects.filter(user=bjorn).exists)()
    assert await database_sync_to_async(friends_online)(host) == []


async def test_browsing_pages_does_not_use_up_the_sockets_a_table_may_open(players, settings):
    settings.FEMKORT_SOCKET_OPENS_PER_MINUTE = 2
    host, bjorn, _ = players
    client = await database_sync_to_async(logged_in)(bjorn)
    for _ in range(2):
        await (await notices_of(client)).disconnect()
    refused = WebsocketCommunicator(application, "/ws/notices/", headers=notices_headers(client))
    assert await refused_code(refused) == TOO_MANY
    session = await database_sync_to_async(table_with)(host, "femkort", {}, 4)
    at_table = await connect(session.pk, bjorn)
    assert "reconnected too often" not in await at_table.receive_from(timeout=30)
    await at_table.disconnect()


async def test_a_turn_based_move_updates_the_count_of_tables_waiting_in_every_seated_persons_header(players):
    session = await database_sync_to_async(started_table)(players, game="nap", options={"rounds": 2}, pace_seconds=3600)
    to_act = await database_sync_to_async(
        lambda: Seat.objects.select_related("user").get(
            session=session, position=GameSession.objects.get(pk=session.pk).to_act
        )
    )()
    lobbies = {player.pk: await notices_of(await database_sync_to_async(logged_in)(player)) for player in players}
    seq = await database_sync_to_async(lambda: GameSession.objects.get(pk=session.pk).seq)()
    await database_sync_to_async(services.action_take)(
        session_id=session.pk, user=to_act.user, action=await database_sync_to_async(a_card)(session), seen_seq=seq
    )
    after = await database_sync_to_async(lambda: GameSession.objects.get(pk=session.pk))()
    next_user = await database_sync_to_async(lambda: Seat.objects.get(session=session, position=after.to_act).user_id)()
    for player in players:
        frame = await lobbies[player.pk].receive_from(timeout=30)
        assert 'id="my-tables-link"' in frame
        assert ("1 waiting on your move" in frame) == (player.pk == next_user)
    for communicator in lobbies.values():
        await communicator.disconnect()
