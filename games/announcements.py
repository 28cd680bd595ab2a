"""Telling every connection to a table that it changed; each consumer then renders its own view.

Group messages carry no cards: only "table X is now at seq N" and who is online. A failed
broadcast (Redis unreachable) is logged, never raised: the change is already committed, and
pages fall back to polling until the channel layer is back.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.threads import serving_loop

log = logging.getLogger(__name__)


def table_group(session_id: int) -> str:
    return f"table-{session_id}"


def player_group(user_id: int) -> str:
    return f"player-{user_id}"


def login_changed(user_id: int, session_key: str | None = None) -> None:
    """Once the transaction commits, have ``user_id``'s open sockets check their login again
    (only those of ``session_key`` when one browser session logged out): a socket whose login no
    longer holds closes."""

    def tell() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        message = {"type": "player.login_changed", "player": user_id, "session_key": session_key}
        try:
            async_to_sync(layer.group_send)(player_group(user_id), message)
        except Exception as error:  # every socket re-checks the login at its next action anyway
            log.warning("could not tell player %s's sockets about a login change: %r", user_id, error)

    transaction.on_commit(tell)


def announce(session_id: int, seq: int) -> None:
    """Once the transaction commits, broadcast "table ``session_id`` is now at ``seq``"."""
    transaction.on_commit(lambda: send_sync(session_id, {"type": "table.changed", "session": session_id, "seq": seq}))


def send_sync(session_id: int, message: dict) -> bool:
    """From a live database thread, hand the broadcast to its event loop and go on; from anywhere
    else (an HTTP request, a command), wait for it.
    """
    layer = get_channel_layer()
    if layer is None:
        return False
    loop = serving_loop()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(send(session_id, message), loop)
        return True
    try:
        async_to_sync(layer.group_send)(table_group(session_id), message)
    except Exception as error:  # the channel layer is down: the change stands, the pages poll
        log.warning("could not tell table %s about %s: %r", session_id, message["type"], error)
        return False
    return True


async def send(session_id: int, message: dict) -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.group_send(table_group(session_id), message)
    except Exception as error:
        log.warning("could not tell table %s about %s: %r", session_id, message["type"], error)
        return False
    return True
