"""The live table: one websocket consumer per connection, thin like the views.

Frames in: ``{"action": "play", "card": "QH", "seq": N}`` or ``{"action": "chat", "text": "..."}``
(plus what htmx adds).
Frames out: HTML fragments that htmx swaps by id (this user's table, or during play only the
regions of it that changed; the seats' presence markers; a message for this connection only).
Group messages carry only "table X is at seq N" and who is online; each consumer builds its own
user's view from the snapshot its process keeps, out of pieces rendered once per process
(``games/table_html.py``), so a change costs one read per process and per socket only its own
hand, prompt and state line.

Whatever happens — bad input, a crash, Redis going away — the connection leaves its group
and its presence row behind it, and the player gets a message rather than a dead socket.
"""

from __future__ import annotations

import json
import logging

from channels.exceptions import StopConsumer
from django.utils import timezone
from django.utils.translation import gettext as _

from femkort_site.proxies import scope_client_address
from games import services, snapshots
from games.access import may_see
from games.chat_html import chat_html, chat_line_html
from games.engine.cards import INDEX
from games.engine.game import looks_like_action
from games.models import ChatMute, GameSession, Seat
from games.selectors import table_view
from games.table_html import message_html, presence_html, table_frame
from games.threads import db

from . import drivers, sockets
from .base import LiveConsumer
from .connections import connection_open
from .logins import login_holds

log = logging.getLogger(__name__)
NOT_FOUND = 4404
TOO_MANY = 4429
MAX_FRAME = 2048  # a move is under 200 characters; anything much longer is not one
MAX_MARKED = 13  # a whole hand marked, at most


class TableConsumer(LiveConsumer):
    session_id: int
    sent_seq = -1
    shown: dict[str, str] | None = None  # the table's regions as this page shows them (during play)
    opened_at_seq = 0

    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        self.user = self.scope["user"]
        if self.user.is_authenticated:
            self.user_id = self.user.pk
            self.session_key = self.scope["session"].session_key
        verdict = await db(self._open)(scope_client_address(self.scope))
        if verdict == "missing":
            await self.close(code=NOT_FOUND)
            return
        if verdict in ("too_many", "too_often"):
            await self.accept()
            await self.send(text_data=message_html(_too_many() if verdict == "too_many" else _too_often()))
            await self.close(code=TOO_MANY)
            return
        if not await self._join():
            return
        await self.accept()
        # The chat box too: lines written while this page had no socket.
        snapshot = await self._send_view(self.opened_at_seq, extra=await db(self._chat_box)())
        if self.user.is_authenticated:
            sockets.changed(self.session_id)
        if snapshot is not None and snapshot.computer_to_act() is not None:
            drivers.schedule(self.session_id, snapshot.seq, snapshot.session.due or timezone.now())

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            await self._receive(text_data)
        except StopConsumer:
            raise  # the socket is gone: nothing to tell anyone
        except Exception:
            log.exception("table %s: handling a frame failed", self.session_id)
            message = _("Something went wrong on our side; here is the table as it is now.")
            await self._send_view(0, force=True, message=message)

    async def _receive(self, text_data: str | None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME:
            await self._refuse(_("That message was not understood; nothing changed."))
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            await self._refuse(_("That message was not understood; nothing changed."))
            return
        if isinstance(message, dict) and message.get("action") in ("chat", "contribute"):
            if self.user_id is not None and not await db(login_holds)(self.session_key, self.user_id):
                await self._signed_out()
            if message["action"] == "chat":
                await self._chat(message.get("text"))
            else:
                await self._contribute(message.get("commitment"), message.get("value"))
            return
        if not isinstance(message, dict) or message.get("action") != "play":
            await self._refuse(_("Unknown action; nothing changed."))
            return
        # A move: a card or an action word; pages from before ``move`` sent it as ``card``.
        move, seq = message.get("move", message.get("card")), _whole_number(message.get("seq"))
        marked = _cards(message.get("marked", []))
        if not looks_like_action(move) or seq is None or marked is None:
            await self._refuse(_("That move was not understood; nothing changed."))
            return
        if not self.user.is_authenticated:
            await self._refuse(_("Log in and take a seat to play."))
            return
        try:
            session = await db(self._take)(move, seq, marked)
        except _SignedOut:
            await self._signed_out()
            return
        except services.StaleMove as stale:
            await self._send_view(stale.seq, force=True, message=stale.message)  # the message stays on show
            return
        except services.TableError as refused:
            await self._refuse(refused.message)
            return
        drivers.schedule(self.session_id, session.seq, session.due)
        await self._send_view(session.seq)  # the mover need not wait for the broadcast

    def _take(self, move: str, seq: int, marked: list[str]) -> GameSession:
        """The login check and the move in one trip to a database thread: a move is the hot path."""
        if not login_holds(self.session_key, self.user_id):
            raise _SignedOut
        return services.action_take(
            session_id=self.session_id, user=self.user, action=move, seen_seq=seq, marked=marked
        )

    async def _chat(self, text: object) -> None:
        if not isinstance(text, str):
            await self._refuse(_("That message was not understood; nothing changed."))
            return
        try:
            await db(services.chat_post)(session_id=self.session_id, user=self.user, text=text)
        except services.TableError as refused:
            await self._refuse(refused.message)
            return
        await self.send(text_data=message_html(""))  # clears an earlier refusal; the line itself comes by broadcast

    async def _contribute(self, commitment: object, value: object) -> None:
        """A seated player's randomness for the next deal's shuffle; nothing to show unless refused."""
        if not self.user.is_authenticated:
            await self._refuse(_("Log in and take a seat to play."))
            return
        if not isinstance(commitment, str) or not isinstance(value, str):
            await self._refuse(_("That message was not understood; nothing changed."))
            return
        try:
            await db(services.contribution_add)(
                session_id=self.session_id, user=self.user, commitment=commitment, value=value
            )
        except services.TableError as refused:
            await self._refuse(refused.message)

    async def _signed_out(self) -> None:
        """Say so, and close: the page polls on as whoever its cookies now say (a spectator, logged out)."""
        await self.send(
            text_data=message_html(_("You are no longer logged in; nothing changed. Log in again to play."))
        )
        await super()._signed_out()

    async def table_chat(self, event: dict) -> None:
        """A new chat line: shown unless this socket's user muted its author."""
        if self.sent_seq < 0 or not isinstance(event.get("author"), int):
            return
        if self.user.is_authenticated and await db(self._muted)(event["author"]):
            return
        await self.send(text_data=await db(chat_line_html)(event, self.user))

    async def table_chat_box(self, event: dict) -> None:
        """The host turned the chat on or off: this user's chat box again."""
        if self.sent_seq >= 0:
            await self.send(text_data=await db(self._chat_box)())

    def _muted(self, author: int) -> bool:
        return ChatMute.objects.filter(user=self.user, muted_id=author).exists()

    def _chat_box(self) -> str:
        return chat_html(GameSession.objects.get(pk=self.session_id), self.user, oob=True)

    async def table_changed(self, event: dict) -> None:
        seq = event.get("seq")
        if isinstance(seq, int) and seq > self.sent_seq:
            await self._send_view(seq)

    async def table_presence(self, event: dict) -> None:
        online = frozenset(event.get("online") or ())
        snapshots.set_online(self.session_id, online)
        snapshot = snapshots.peek(self.session_id)
        if snapshot is not None and self.sent_seq >= 0:
            await self.send(text_data=presence_html(table_view(snapshot, self.user, online)))
            self.shown = None  # the seats now show presence of their own: the next view is whole

    async def _send_view(self, seq: int, *, force: bool = False, message: str = "", extra: str = ""):
        """Send this user's table at ``seq`` or later, unless this socket has already shown that much.

        The frame also sets the message line: cleared by a new view, or saying why a move was refused.
        """
        snapshot = await snapshots.at_least(self.session_id, seq)
        if snapshot is None or (snapshot.seq <= self.sent_seq and not force):
            return snapshot
        table = table_view(snapshot, self.user, snapshots.online(self.session_id))
        playing = snapshot.session.status == GameSession.Status.PLAYING
        # During play, a page whose regions this socket knows gets only the regions that changed, however
        # many changes behind it is: frames on one socket arrive in order, so ``shown`` is what it shows.
        # (Whole frames for sockets behind were the most bytes just when the server was busiest.)
        partial = playing and not force and self.shown is not None
        frame, shown = table_frame(table, self.shown if partial else None)
        self.shown = shown if playing else None
        self.sent_seq = max(self.sent_seq, snapshot.seq)
        await self.send(text_data=frame + message_html(message) + extra)
        return snapshot

    async def _refuse(self, text: str) -> None:
        await self.send(text_data=message_html(text))

    async def _gone(self) -> None:
        if self.user.is_authenticated:
            sockets.changed(self.session_id)

    def _forget(self) -> None:
        """The presence row goes; a seated player's absence (on their turn) counts from now."""
        super()._forget()
        if self.user.is_authenticated:
            Seat.objects.filter(session_id=self.session_id, user=self.user).update(seen=timezone.now())

    def _open(self, ip: str | None) -> str:
        """Check the table exists and the limits allow another socket now; record the connection."""
        session = GameSession.objects.filter(pk=self.session_id).first()
        if session is None or not may_see(session, self.user, self.scope.get("session")):
            return "missing"  # a private table answers as if it did not exist
        self.opened_at_seq = session.seq  # this process's snapshot may be older: changes made while nobody here watched
        user = self.user if self.user.is_authenticated else None
        return connection_open(user=user, ip=ip, channel_name=self.channel_name, session_id=self.session_id)


class _SignedOut(Exception):
    """This socket's login no longer holds: nothing was done."""


def _too_many() -> str:
    return _("You have too many live connections open; close some tabs. This page still updates every few seconds.")


def _too_often() -> str:
    return _("This page reconnected too often in the last minute. It still updates every few seconds meanwhile.")


def _whole_number(value: object) -> int | None:
    """A sequence number: a non-negative int, or up to nine ASCII digits (htmx sends form values as text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < 10**9 else None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    return None


def _cards(value: object) -> list[str] | None:
    """Cards marked in the hand, as a form sends them (one alone is a string, several a list), or
    None if that is not what they are."""
    cards = [value] if isinstance(value, str) else value
    if not isinstance(cards, list) or len(cards) > MAX_MARKED or not all(card in INDEX for card in cards):
        return None
    return cards
