"""Telling every connection to a table that it changed; each consumer then renders its own view."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def table_group(session_id: int) -> str:
    return f"table-{session_id}"


def announce(session_id: int, seq: int) -> None:
    """Once the transaction commits, broadcast "table ``session_id`` is now at ``seq``" (no cards, no HTML)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(table_group(session_id), {"type": "table.changed", "seq": seq})

    transaction.on_commit(send)
