"""This process's table sockets: one subscription per table, presence, and nobody left behind.

A process listens to each table's broadcasts once, on one channel of its own, and hands each
message to its sockets at that table: a change costs one Redis message per process, not one
per socket. If the channel layer fails, every socket is told to close (pages then poll and
reconnect).

Presence rows live in the database (so every process agrees); one task per process refreshes
the rows of all its sockets every ``PRESENCE_BEAT`` seconds (rows of a process that died stop
counting after ``PRESENCE_TIMEOUT``). People coming and going are told to the table once per
burst, as a small presence fragment, not as a re-rendered table for every socket.

Broadcasts are hints that can be lost (a channel over capacity, a Redis blip); every
``RESYNC_SECONDS`` one query per process compares the tables' sequence numbers with what its
sockets have shown, and nudges the ones that fell behind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Protocol

from channels.layers import get_channel_layer
from django.utils import timezone

from games import snapshots
from games.announcements import player_group, send, table_group
from games.models import PRESENCE_BEAT, PRESENCE_TIMEOUT, Connection, GameSession, SocketOpening
from games.threads import db

from .cancelling import honour_cancel, until_cancelled

log = logging.getLogger(__name__)
COALESCE_SECONDS = 0.25
RESYNC_SECONDS = 5
RENEW_SECONDS = 3600


class TableSocket(Protocol):
    session_id: int | None  # None: a notices socket, on a page that is not a table (told only player news)
    user_id: int | None  # the signed-in player, if any
    channel_name: str
    sent_seq: int
    nudges: asyncio.Queue


_sockets: dict[int, set[TableSocket]] = {}
_players: dict[int, set[TableSocket]] = {}  # by user: told when their login no longer holds
_subscribed: set[int] = set()
_subscribed_players: set[int] = set()
_channel: str | None = None
_pump: asyncio.Task | None = None
_keeper: asyncio.Task | None = None
_pending: dict[int, asyncio.Task] = {}


async def join(socket: TableSocket) -> None:
    """Hand this table's (and its player's) broadcasts to ``socket``; raises if the channel layer is unreachable."""
    global _keeper
    if socket.session_id is not None:
        _sockets.setdefault(socket.session_id, set()).add(socket)
    loop = asyncio.get_running_loop()
    if _keeper is None or _keeper.done() or _keeper.get_loop() is not loop:
        _keeper = loop.create_task(_keep())
    if socket.user_id is not None:
        _players.setdefault(socket.user_id, set()).add(socket)
    try:
        channel = await _listening()
        if socket.session_id is not None and socket.session_id not in _subscribed:
            await get_channel_layer().group_add(table_group(socket.session_id), channel)
            _subscribed.add(socket.session_id)
        if socket.user_id is not None and socket.user_id not in _subscribed_players:
            await get_channel_layer().group_add(player_group(socket.user_id), channel)
            _subscribed_players.add(socket.user_id)
    except Exception:
        await leave(socket)
        raise


async def leave(socket: TableSocket) -> None:
    if socket.user_id is not None:
        await _forget(_players, _subscribed_players, socket.user_id, socket, player_group)
    if socket.session_id is not None:
        await _forget(_sockets, _subscribed, socket.session_id, socket, table_group)


async def _forget(
    sockets: dict[int, set[TableSocket]], subscribed: set[int], key: int, socket: TableSocket, group
) -> None:
    """Drop ``socket`` from its table's (or player's) set; the last one out stops the listening."""
    members = sockets.get(key)
    if members is None:
        return
    members.discard(socket)
    if members:
        return
    del sockets[key]
    if key in subscribed and _channel is not None:
        subscribed.discard(key)
        try:
            await get_channel_layer().group_discard(group(key), _channel)
        except Exception as error:  # Redis is away; the membership expires on its own
            log.warning("%s: could not stop listening: %r", group(key), error)


async def _listening() -> str:
    """This process's channel for table broadcasts, with its pump running on this event loop."""
    global _channel, _pump
    loop = asyncio.get_running_loop()
    if _pump is None or _pump.done() or _pump.get_loop() is not loop:
        _channel = await get_channel_layer().new_channel("tables.")
        _subscribed.clear()
        _subscribed_players.clear()
        _pump = loop.create_task(_hand_out(_channel))
    return _channel


async def _hand_out(channel: str) -> None:
    layer = get_channel_layer()
    try:
        while True:
            message = await until_cancelled(layer.receive(channel))
            honour_cancel()
            to = (
                _players.get(message.get("player"), ())
                if "player" in message
                else _sockets.get(message.get("session"), ())
            )
            for socket in list(to):
                socket.nudges.put_nowait(message)
    except asyncio.CancelledError:
        raise
    except Exception as error:  # Redis went away: every socket closes, pages poll and reconnect
        log.warning("table broadcasts stopped: %r", error)
        _subscribed.clear()
        _subscribed_players.clear()
        for socket in _every_socket():
            socket.nudges.put_nowait({"type": "layer.lost"})


def changed(session_id: int) -> None:
    """Someone came or went: tell the table who is online, once for a burst of such changes."""
    loop = asyncio.get_running_loop()
    pending = _pending.get(session_id)
    if pending is None or pending.done() or pending.get_loop() is not loop:
        _pending[session_id] = loop.create_task(_tell(session_id))


async def _tell(session_id: int) -> None:
    await asyncio.sleep(COALESCE_SECONDS)
    _pending.pop(session_id, None)  # a change from now on needs another message
    try:
        online = await snapshots.refresh_online(session_id)
    except Exception as error:
        log.warning("table %s: could not read presence: %r", session_id, error)
        return
    await send(session_id, {"type": "table.presence", "session": session_id, "online": sorted(online)})


async def _keep() -> None:
    beats = 0
    while _sockets or _players:
        honour_cancel()
        await asyncio.sleep(RESYNC_SECONDS)
        try:
            tables = list(_sockets)
            beats += 1
            if beats % (RENEW_SECONDS // RESYNC_SECONDS) == 0 and _channel is not None:
                for session_id in list(_subscribed):  # group memberships expire after a day
                    await get_channel_layer().group_add(table_group(session_id), _channel)
                for user_id in list(_subscribed_players):
                    await get_channel_layer().group_add(player_group(user_id), _channel)
            beat = beats % (PRESENCE_BEAT // RESYNC_SECONDS) == 0
            channels = [socket.channel_name for socket in _every_socket()] if beat else []
            for session_id, seq in await db(_check)(tables, channels):
                for socket in _sockets.get(session_id, ()):
                    if socket.sent_seq < seq:
                        socket.nudges.put_nowait({"type": "table.changed", "seq": seq})
        except Exception as error:  # the database is away; try again next time
            log.warning("keeping this process's table sockets failed: %r", error)


def _every_socket() -> set[TableSocket]:
    """This process's sockets: at tables, and notices sockets (which are only in ``_players``)."""
    return {socket for group in (*_sockets.values(), *_players.values()) for socket in group}


def _check(tables: Iterable[int], channel_names: list[str]) -> list[tuple[int, int]]:
    """Each table's sequence number; on a heartbeat, also refresh and prune presence rows."""
    if channel_names:
        now = timezone.now()
        Connection.objects.filter(channel_name__in=channel_names).update(seen=now)
        Connection.objects.filter(seen__lt=now - timedelta(seconds=10 * PRESENCE_TIMEOUT)).delete()
        SocketOpening.objects.filter(opened__lt=now - timedelta(seconds=60)).delete()
    return list(GameSession.objects.filter(pk__in=list(tables)).values_list("pk", "seq"))
