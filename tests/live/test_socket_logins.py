"""An open websocket lives no longer than its login: logout, a password change or a deactivated
account close it (with a message and code 4401), and no frame of it acts after that."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from femkort_site.asgi import application
from games.live.logins import SIGNED_OUT
from games.models import ChatMessage, Play, SeedDraw
from tests.live_helpers import frames_until, table_now
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a-long-test-password-42"


def browser(user) -> Client:
    """A signed-in browser of its own (its own session)."""
    client = Client()
    client.force_login(user)
    return client


async def socket_of(client: Client, session_id: int) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{session_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


async def closed_with(communicator: WebsocketCommunicator) -> tuple[list[str], int]:
    """The frames up to the socket's close, and its close code."""
    frames = []
    while True:
        output = await communicator.receive_output(timeout=30)
        if output["type"] == "websocket.close":
            return frames, output.get("code")
        frames.append(output.get("text", ""))


def play(card: str, seq: int) -> str:
    return json.dumps({"action": "play", "card": card, "seq": seq})


async def mover_and_card(session_id: int, players):
    session, state = await table_now(session_id)
    return players[state.to_act], state.legal_cards()[0], session.seq


@pytest.fixture
def table(players):
    return started_table(players)


async def test_logging_out_closes_that_browsers_sockets_and_only_those(players, table):
    mover, card, seq = await mover_and_card(table.pk, players)
    here, elsewhere = await database_sync_to_async(browser)(mover), await database_sync_to_async(browser)(mover)
    leaving, staying = await socket_of(here, table.pk), await socket_of(elsewhere, table.pk)
    await frames_until(staying, seq)
    response = await database_sync_to_async(here.post)("/accounts/logout/")
    assert response.status_code == 302
    frames, code = await closed_with(leaving)
    assert code == SIGNED_OUT
    assert "no longer logged in" in frames[-1]
    await staying.send_to(text_data=play(card, seq))  # the other browser still plays
    await frames_until(staying, seq + 1)
    assert await database_sync_to_async(Play.objects.count)() == 1
    await staying.disconnect()


async def test_a_password_change_closes_every_socket_opened_before_it(players, table):
    mover, card, seq = await mover_and_card(table.pk, players)
    here, elsewhere = await database_sync_to_async(browser)(mover), await database_sync_to_async(browser)(mover)
    mine, other = await socket_of(here, table.pk), await socket_of(elsewhere, table.pk)
    await frames_until(mine, seq)
    new_password = "another-long-password-77"
    changed = await database_sync_to_async(here.post)(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert changed.status_code == 302
    for socket in (other, mine):  # Django gives the browser that changed it a new session key
        _, code = await closed_with(socket)
        assert code == SIGNED_OUT
    again = await socket_of(here, table.pk)  # the page reloaded, with its new cookie
    await frames_until(again, seq)
    await again.send_to(text_data=play(card, seq))
    await frames_until(again, seq + 1)
    assert await database_sync_to_async(Play.objects.count)() == 1
    await again.disconnect()


async def test_a_deactivated_account_is_closed_out(players, table):
    mover, _, seq = await mover_and_card(table.pk, players)
    socket = await socket_of(await database_sync_to_async(browser)(mover), table.pk)
    await frames_until(socket, seq)
    mover.is_active = False
    await database_sync_to_async(mover.save)()  # as the admin's change form saves it
    _, code = await closed_with(socket)
    assert code == SIGNED_OUT


async def test_every_action_checks_the_login_even_when_nobody_said_it_changed(players, table):
    """The push is a courtesy; the check on each frame is the rule (an update that bypasses
    ``save()``, a lost broadcast)."""
    mover, card, seq = await mover_and_card(table.pk, players)
    socket = await socket_of(await database_sync_to_async(browser)(mover), table.pk)
    await frames_until(socket, seq)
    model = type(mover)
    await database_sync_to_async(model.objects.filter(pk=mover.pk).update)(is_active=False)
    await socket.send_to(text_data=play(card, seq))
    frames, code = await closed_with(socket)
    assert code == SIGNED_OUT
    assert "nothing changed" in frames[-1]
    assert await database_sync_to_async(Play.objects.count)() == 0


async def test_chat_from_a_socket_whose_session_ended_is_refused(players, table):
    client = await database_sync_to_async(browser)(players[0])
    socket = await socket_of(client, table.pk)
    await frames_until(socket, table.seq)
    store = client.session
    await database_sync_to_async(store.delete)()  # the session expired or was removed on the server
    await socket.send_to(text_data=json.dumps({"action": "chat", "text": "still here?"}))
    _, code = await closed_with(socket)
    assert code == SIGNED_OUT
    assert not await database_sync_to_async(ChatMessage.objects.exists)()


async def test_a_contribution_from_a_socket_whose_session_ended_is_refused(players, table):
    client = await database_sync_to_async(browser)(players[0])
    socket = await socket_of(client, table.pk)
    await frames_until(socket, table.seq)
    draw = await database_sync_to_async(SeedDraw.objects.get)(session=table)
    await database_sync_to_async(client.session.delete)()
    frame = {"action": "contribute", "commitment": draw.commitment, "value": "ab" * 16}
    await socket.send_to(text_data=json.dumps(frame))
    _, code = await closed_with(socket)
    assert code == SIGNED_OUT
    await database_sync_to_async(draw.refresh_from_db)()
    assert draw.contributions == {}
