"""Telling every connection to a table that it changed (each consumer then renders its own view),
and a player's open pages that they were invited.

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


def turns_changed(user_ids: list[int]) -> None:
    """Once the transaction commits, have these players' open pages count again the tables waiting on them."""

    def tell() -> None:
        for user_id in user_ids:
            _group_send_sync(player_group(user_id), {"type": "player.turns", "player": user_id})

    transaction.on_commit(tell)


def invited(user_id: int, invitation_id: int) -> None:
    """Once the transaction commits, tell ``user_id``'s open pages of a new invitation (each reads it,
    in its own language; the message names nothing but the invitation's number)."""
    message = {"type": "player.invited", "player": user_id, "invitation": invitation_id}
    transaction.on_commit(lambda: _group_send_sync(player_group(user_id), message))


def table_ready(user_id: int, session_id: int) -> None:
    """Once the transaction commits, tell ``user_id``'s open pages that a tournament seated them at
    ``session_id`` (each page reads it for its own player)."""
    message = {"type": "player.table_ready", "player": user_id, "session": session_id}
    transaction.on_commit(lambda: _group_send_sync(player_group(user_id), message))


def send_sync(session_id: int, message: dict) -> bool:
    return _group_send_sync(table_group(session_id), message)


def _group_send_sync(group: str, message: dict) -> bool:
    """From a live database thread, hand the broadcast to its event loop and go on; from anywhere
    else (an HTTP request, a command), wait for it.
    """
    layer = get_channel_layer()
    if layer is None:
        return False
    loop = serving_loop()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(_group_send(group, message), loop)
        return True
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as error:  # the channel layer is down: the change stands, the pages poll
        log.warning("could not tell %s about %s: %r", group, message["type"], error)
        return False
    return True


async def send(session_id: int, message: dict) -> bool:
    return await _group_send(table_group(session_id), message)


async def _group_send(group: str, message: dict) -> bool:
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        await layer.group_send(group, message)
    except Exception as error:
        log.warning("could not tell %s about %s: %r", group, message["type"], error)
        return False
    return True
