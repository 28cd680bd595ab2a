"""The live table: one websocket consumer per connection, thin like the views.

Frames in: ``{"action": "play", "card": "QH", "seq": N}`` (plus what htmx adds).
Frames out: HTML fragments that htmx swaps by id (the table for this user's own
view, or a message for this connection only). Group messages carry only
"table X changed to seq N"; each consumer renders its own user's view.
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.cards import INDEX

from . import services
from .computers import drive_computers
from .live import table_group
from .models import PRESENCE_BEAT, Connection, GameSession
from .selectors import table_view_for

log = logging.getLogger(__name__)
NOT_FOUND = 4404


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.user = self.scope["user"]
        if not await database_sync_to_async(GameSession.objects.filter(pk=self.session_id).exists)():
            await self.close(code=NOT_FOUND)
            return
        self.group = table_group(self.session_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await database_sync_to_async(self._presence_open)()
        self.heartbeat = asyncio.get_running_loop().create_task(self._beat())
        await self.channel_layer.group_send(self.group, {"type": "table.changed", "seq": None})
        drive_computers(self.session_id)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        self.heartbeat.cancel()
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await database_sync_to_async(Connection.objects.filter(channel_name=self.channel_name).delete)()
        await self.channel_layer.group_send(self.group, {"type": "table.changed", "seq": None})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            await self._refuse(_("That message was not understood; nothing changed."))
            return
        if not isinstance(message, dict) or message.get("action") != "play":
            await self._refuse(_("Unknown action; nothing changed."))
            return
        card, seq = message.get("card"), _whole_number(message.get("seq"))
        if card not in INDEX or seq is None:
            await self._refuse(_("That move was not understood; nothing changed."))
            return
        if not self.user.is_authenticated:
            await self._refuse(_("Log in and take a seat to play."))
            return
        try:
            await database_sync_to_async(services.card_play)(
                session_id=self.session_id, user=self.user, card=card, seen_seq=seq
            )
        except services.StaleMove as stale:
            await self._refuse(stale.message)
            await self._send_view()
            return
        except services.TableError as refused:
            await self._refuse(refused.message)
            return
        drive_computers(self.session_id)

    async def table_changed(self, event: dict) -> None:
        await self._send_view()

    async def _send_view(self) -> None:
        await self.send(text_data=await database_sync_to_async(self._render_view)())

    def _render_view(self) -> str:
        session = GameSession.objects.get(pk=self.session_id)
        context = {"table": table_view_for(session, self.user), "live": True, "message": ""}
        return render_to_string("games/_table.html", context) + render_to_string("games/_message.html", context)

    async def _refuse(self, text: str) -> None:
        await self.send(text_data=render_to_string("games/_message.html", {"message": text}))

    async def _beat(self) -> None:
        """Keep this connection's presence row fresh while the socket is open."""
        touch = database_sync_to_async(
            lambda: Connection.objects.filter(channel_name=self.channel_name).update(seen=timezone.now())
        )
        while True:
            await asyncio.sleep(PRESENCE_BEAT)
            await touch()

    def _presence_open(self) -> None:
        user = self.user if self.user.is_authenticated else None
        Connection.objects.create(session_id=self.session_id, user=user, channel_name=self.channel_name)


def _whole_number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None
