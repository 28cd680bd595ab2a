"""The live table under bad input, crashes and too many sockets: a message, never a ghost connection."""

import asyncio
import json
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from femkort_site.asgi import application
from games import announcements as broadcast
from games import services
from games.live import drivers, sockets
from games.live.consumer import TableConsumer
from games.models import Connection, GameSession, Play
from games.services import play as play_service
from tests.live.test_live_table import start_table
from tests.live_helpers import connect, frame_seq, frames_until, next_message, table_now, table_when, view_where

pytestmark = pytest.mark.django_db(transaction=True)
rows = database_sync_to_async(lambda: Connection.objects.count())


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        (json.dumps({"action": "play", "card": ["AS"], "seq": 1}), "not understood"),
        (json.dumps({"action": "play", "card": {"AS": 1}, "seq": 1}), "not understood"),
        (json.dumps({"action": "play", "card": "AS", "seq": "²"}), "not understood"),
        (json.dumps({"action": "play", "card": "AS", "seq": "9" * 5000}), "not understood"),
        (json.dumps({"action": "play", "card": "AS", "seq": 10**40}), "not understood"),
        (json.dumps({"action": "play", "card": "AS", "seq": -1}), "not understood"),
        (json.dumps({"action": "play", "card": "AS", "seq": True}), "not understood"),
        ("[" * 1000 + "]" * 1000, "nothing changed"),
        ('{"action": "play", "x": ' + "[" * 1000 + "]" * 1000 + "}", "nothing changed"),
        ("x" * 100_000, "not understood"),
        ("null", "Unknown action"),
    ],
)
@pytest.mark.parametrize("signed_in", [True, False])
async def test_forged_frames_get_a_message_and_change_nothing(players, frame, expected, signed_in):
    session = await start_table(players)
    socket = await connect(session.pk, players[0] if signed_in else None)
    await frames_until(socket, session.seq)
    await socket.send_to(text_data=frame)
    reply = await next_message(socket)
    assert expected in reply
    assert await database_sync_to_async(Play.objects.count)() == 0
    await socket.send_to(text_data="{}")  # still open and answering
    assert "Unknown action" in await next_message(socket)
    await socket.disconnect()
    assert await rows() == 0


async def test_a_crash_while_handling_a_move_is_answered_and_the_socket_lives_on(players, monkeypatch):
    session = await start_table(players)
    socket = await connect(session.pk, players[0])
    await frames_until(socket, session.seq)

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "action_take", broken)
    await socket.send_to(text_data=json.dumps({"action": "play", "card": "AS", "seq": session.seq}))
    answer = await view_where(socket, lambda frame: "went wrong" in frame)  # with the table as it is
    assert frame_seq(answer) == session.seq
    await socket.send_to(text_data="{}")
    assert "Unknown action" in await next_message(socket)
    await socket.disconnect()
    assert await rows() == 0


async def test_when_the_channel_layer_fails_the_socket_closes_and_leaves_nothing_behind(players, monkeypatch):
    session = await start_table(players)
    socket = await connect(session.pk, players[0])
    await frames_until(socket, session.seq)
    assert await rows() == 1
    consumer_receive = TableConsumer.table_changed

    async def layer_gone(self, event):
        raise ConnectionError("Redis went away")

    monkeypatch.setattr(TableConsumer, "table_changed", layer_gone)
    _, state = await table_now(session.pk)
    mover = session.seats.model.objects.filter(session=session, position=state.to_act)
    user = await database_sync_to_async(lambda: mover.get().user)()
    await database_sync_to_async(services.action_take)(
        session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq
    )
    # The error reaches the server (daphne closes the socket with 1011; the page polls and reconnects).
    assert isinstance(await failure_of(socket), ConnectionError)
    monkeypatch.setattr(TableConsumer, "table_changed", consumer_receive)
    assert await rows() == 0


async def failure_of(socket: WebsocketCommunicator) -> BaseException | None:
    """The error the socket's application stopped with: waited for on its task, since ``receive_output``
    reports it only once its own timeout has run out."""
    await asyncio.wait([socket.future], timeout=30)
    return socket.future.exception() if socket.future.done() else None


async def test_too_many_sockets_of_one_player_are_refused_with_a_message(players, settings):
    settings.FEMKORT_SOCKETS_PER_USER = 2
    session = await start_table(players)
    allowed = [await connect(session.pk, players[0]) for _ in range(2)]
    extra = await connect(session.pk, players[0])
    assert "too many live connections" in await next_message(extra)
    assert (await extra.receive_output(timeout=30))["code"] == 4429
    assert await rows() == 2
    other = await connect(session.pk, players[1])  # other players are not affected
    await frames_until(other, session.seq)
    for socket in [*allowed, other]:
        await socket.disconnect()


async def test_anonymous_sockets_are_limited_per_table_and_address(players, settings):
    settings.FEMKORT_ANONYMOUS_SOCKETS_PER_TABLE = 2
    session = await start_table(players)
    watchers = [await connect(session.pk) for _ in range(2)]
    refused = await connect(session.pk)
    assert "too many live connections" in await next_message(refused)
    from_elsewhere = WebsocketCommunicator(
        application,
        f"/ws/tables/{session.pk}/",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )
    from_elsewhere.scope["client"] = ("10.1.2.3", 5000)
    assert (await from_elsewhere.connect(timeout=30))[0]
    await frames_until(from_elsewhere, session.seq)
    for socket in [*watchers, from_elsewhere]:
        await socket.disconnect()
    assert await rows() == 0


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (b"http://localhost", b"localhost", True),
        (b"http://localhost:8000", b"localhost:8000", True),
        (b"https://localhost", b"localhost", False),  # another scheme
        (b"http://localhost:9999", b"localhost:8000", False),  # another port
        (b"http://localhost", b"evil.example", False),  # a host not allowed
        (b"http://evil.example", b"localhost", False),
        (b"null", b"localhost", False),
    ],
)
async def test_websocket_origin_must_be_this_site_with_scheme_and_port(players, origin, host, allowed):
    session = await start_table(players)
    communicator = WebsocketCommunicator(
        application, f"/ws/tables/{session.pk}/", headers=[(b"origin", origin), (b"host", host)]
    )
    connected, _ = await communicator.connect(timeout=30)
    assert connected is allowed
    if connected:
        await communicator.disconnect()


async def test_behind_a_tls_proxy_the_origin_is_https(players, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    session = await start_table(players)
    for proto, origin, allowed in [(b"https", b"https://localhost", True), (b"http", b"https://localhost", False)]:
        headers = [(b"origin", origin), (b"host", b"localhost"), (b"x-forwarded-proto", proto)]
        communicator = WebsocketCommunicator(application, f"/ws/tables/{session.pk}/", headers=headers)
        connected, _ = await communicator.connect(timeout=30)
        assert connected is allowed
        if connected:
            await communicator.disconnect()


async def test_trusted_origins_are_allowed(players, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://femkort.example"]
    session = await start_table(players)
    headers = [(b"origin", b"https://femkort.example"), (b"host", b"localhost")]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{session.pk}/", headers=headers)
    assert (await communicator.connect(timeout=30))[0]
    await communicator.disconnect()


async def test_an_overdue_computer_turn_is_played_by_the_sweep_with_nobody_connected(players, settings):
    """The process that should have played it is gone; any process's sweep finds it in the database."""
    settings.FEMKORT_SWEEP_SECONDS = 0.1

    @database_sync_to_async
    def left_on_a_computers_turn():
        host = players[0]
        for seed in range(20):
            session = services.table_create(host=host, seats=3)
            for position in (1, 2):
                services.computer_add(session_id=session.pk, user=host, position=position)
            session = services.session_start(session_id=session.pk, user=host, rng=random.Random(seed))
            if session.to_act != 0:  # a computer leads
                GameSession.objects.filter(pk=session.pk).update(due=timezone.now() - timedelta(minutes=5))
                return session
        raise AssertionError("no seed let a computer lead")

    session = await left_on_a_computers_turn()
    drivers.ensure_started()
    await table_when(session.pk, lambda _, state: state.to_act == 0)
    now = await database_sync_to_async(GameSession.objects.get)(pk=session.pk)  # table_now reads in two steps
    assert now.to_act == 0  # a person is to act: only the check whether they are still there is due
    assert now.due == now.turn_since + timedelta(seconds=settings.FEMKORT_AWAY_SECONDS)


async def test_a_lost_broadcast_is_made_good_by_the_resync(players, monkeypatch):
    """Broadcasts are hints (a channel over capacity drops them): the process's resync catches up."""
    monkeypatch.setattr(sockets, "RESYNC_SECONDS", 0.2)
    monkeypatch.setattr(broadcast, "announce", lambda session_id, seq: None)  # every broadcast lost
    monkeypatch.setattr(play_service, "announce", lambda session_id, seq: None)
    session = await start_table(players)
    watcher = await connect(session.pk)
    await frames_until(watcher, session.seq)
    _, state = await table_now(session.pk)
    user = await database_sync_to_async(lambda: session.seats.get(position=state.to_act).user)()
    await database_sync_to_async(services.action_take)(
        session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq
    )
    frames = await frames_until(watcher, session.seq + 1)
    assert frame_seq(frames[-1]) == session.seq + 1
    await watcher.disconnect()


async def test_a_page_reconnecting_in_a_loop_is_refused_for_the_rest_of_the_minute(players, settings):
    settings.FEMKORT_SOCKET_OPENS_PER_MINUTE = 3
    session = await start_table(players)
    for _ in range(3):
        socket = await connect(session.pk, players[0])
        await frames_until(socket, session.seq)
        await socket.disconnect()
    refused = await connect(session.pk, players[0])
    assert "reconnected too often" in await next_message(refused)
    assert (await refused.receive_output(timeout=30))["code"] == 4429
    assert await rows() == 0
    other = await connect(session.pk, players[1])  # the others are not affected
    await frames_until(other, session.seq)
    await other.disconnect()
    watchers = [await connect(session.pk) for _ in range(3)]  # visitors count by address
    for watcher in watchers:
        await watcher.disconnect()
    assert "reconnected too often" in await next_message(await connect(session.pk))


def _open_at_once(consumers: list[TableConsumer], ip: str) -> list[str]:
    import threading

    from django import db

    start = threading.Barrier(len(consumers))
    verdicts = []

    def open_one(consumer: TableConsumer) -> None:
        try:
            start.wait()
            verdicts.append(consumer._open(ip))
        finally:
            db.connections.close_all()

    threads = [threading.Thread(target=open_one, args=(consumer,)) for consumer in consumers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return verdicts


@pytest.mark.parametrize("signed_in", [True, False])
async def test_sockets_opened_at_the_same_moment_are_counted_one_by_one(players, settings, signed_in):
    from django.contrib.auth.models import AnonymousUser
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writing transaction at a time: there is no race to lose")
    settings.FEMKORT_SOCKETS_PER_USER = settings.FEMKORT_ANONYMOUS_SOCKETS_PER_TABLE = 4
    session = await start_table(players)
    consumers = []
    for n in range(12):
        consumer = TableConsumer()
        consumer.session_id, consumer.channel_name = session.pk, f"race-{n}"
        consumer.user = players[0] if signed_in else AnonymousUser()
        consumer.scope = {"session": {}}  # a browser session that showed no private table's code
        consumers.append(consumer)
    verdicts = await database_sync_to_async(_open_at_once, thread_sensitive=False)(consumers, "192.0.2.1")
    assert sorted(verdicts) == ["ok"] * 4 + ["too_many"] * 8
    assert await rows() == 4
