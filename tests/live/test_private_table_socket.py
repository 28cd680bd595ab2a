"""A private table's websocket is refused like a missing table to whoever may not see the table."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from femkort_site.asgi import application
from games import services
from tests.live_helpers import connect, session_cookie, view_where

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def private_table(host):
    return services.table_create(host=host, seats=4, game="femkort", options={}, unlisted=True)


@database_sync_to_async
def cookie_after_the_link(session, user=None) -> bytes:
    """A browser that opened the table's link (with its code), signed in as ``user`` or not."""
    client = Client()
    if user is not None:
        client.force_login(user)
    assert client.get(f"/tables/{session.pk}/?code={session.code}").status_code == 200
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def opened(session_id: int, cookie: bytes | None) -> tuple[bool, int | None]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{session_id}/", headers=headers)
    connected, code = await communicator.connect(timeout=30)
    if connected:
        await communicator.disconnect()
    return connected, code


async def test_the_socket_of_a_private_table_is_refused_to_strangers(players):
    anna, bjorn, _ = players
    session = await private_table(anna)
    assert await opened(session.pk, None) == (False, 4404)
    stranger = await database_sync_to_async(session_cookie)(bjorn)
    assert await opened(session.pk, stranger) == (False, 4404)
    host = await connect(session.pk, anna)
    await view_where(host, lambda frame: session.code in frame)
    await host.disconnect()
    with_link = await cookie_after_the_link(session, bjorn)
    assert (await opened(session.pk, with_link))[0]
