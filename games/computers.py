"""Computer players move on their own, server-side, with a short pause so humans can follow.

A driver is an asyncio task in the process that noticed the turn: it never blocks
the event loop, and the service's row lock plus the sequence number make sure that
two drivers (two processes sharing Redis, or a reconnect) never play one turn twice.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from . import services
from .selectors import computer_due

log = logging.getLogger(__name__)
_drivers: dict[int, asyncio.Task] = {}
_look_again: set[int] = set()


def drive_computers(session_id: int) -> None:
    """Make sure one driver in this process plays the computers' turns at this table."""
    loop = asyncio.get_running_loop()
    running = _drivers.get(session_id)
    if running is not None and not running.done() and running.get_loop() is loop:
        _look_again.add(session_id)  # it may be about to finish: have it check once more
        return
    _drivers[session_id] = loop.create_task(_drive(session_id))


async def _drive(session_id: int) -> None:
    pause = settings.COMPUTER_PAUSE_SECONDS
    try:
        while True:
            _look_again.discard(session_id)
            while (seq := await database_sync_to_async(computer_due)(session_id)) is not None:
                await asyncio.sleep(pause)
                await database_sync_to_async(services.computer_turn)(session_id=session_id, seen_seq=seq)
            if session_id not in _look_again:
                return
    except Exception:
        log.exception("computer players at table %s stopped", session_id)
    finally:
        if _drivers.get(session_id) is asyncio.current_task():
            del _drivers[session_id]
