"""Who is at a table: rows in the database (so every process agrees), kept fresh and told in bursts.

One task per process refreshes the rows of all its sockets every ``PRESENCE_BEAT`` seconds
(rows of a process that died stop counting after ``PRESENCE_TIMEOUT``). When people come
and go, the table hears about it once per burst, as a small presence fragment, not as a
re-rendered table for every socket.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from django.utils import timezone

from games.models import PRESENCE_BEAT, PRESENCE_TIMEOUT, Connection

from . import snapshots
from .broadcast import send
from .threads import db

log = logging.getLogger(__name__)
COALESCE_SECONDS = 0.25
_watched: set[str] = set()
_beat: asyncio.Task | None = None
_pending: dict[int, asyncio.Task] = {}


def watch(channel_name: str) -> None:
    global _beat
    _watched.add(channel_name)
    loop = asyncio.get_running_loop()
    if _beat is None or _beat.done() or _beat.get_loop() is not loop:
        _beat = loop.create_task(_heartbeat())


def unwatch(channel_name: str) -> None:
    _watched.discard(channel_name)


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
    await send(session_id, {"type": "table.presence", "online": sorted(online)})


async def _heartbeat() -> None:
    while _watched:
        await asyncio.sleep(PRESENCE_BEAT)
        try:
            await db(_touch)(list(_watched))
        except Exception as error:  # the database is away; the next beat tries again
            log.warning("presence heartbeat failed: %r", error)


def _touch(channel_names: list[str]) -> None:
    now = timezone.now()
    Connection.objects.filter(channel_name__in=channel_names).update(seen=now)
    Connection.objects.filter(seen__lt=now - timedelta(seconds=10 * PRESENCE_TIMEOUT)).delete()
