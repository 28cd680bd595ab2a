"""A table's chat: writing, the host's switch, and each player's own mutes.

Messages are stored before they are shown, so a reloaded page or a restarted server shows
the same chat. A broadcast carries the stored message's public fields only; each socket
leaves out what its own user muted.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.text import drop_invisible, is_blank
from games.announcements import send_sync
from games.models import ChatMessage, ChatMute, GameSession

from .errors import TableError


class ChatTooFast(TableError):
    code = "chat_too_fast"


def chat_post(*, session_id: int, user: User, text: str) -> ChatMessage:
    """Store a message from a signed-in player or spectator; refused (nothing stored) when the
    table's chat is off, the text is empty or too long, or the author writes too fast."""
    if not user.is_authenticated:
        raise TableError(_("Log in to chat."), code="chat_login")
    if GameSession.objects.filter(pk=session_id, event__isnull=False).exists():
        raise TableError(_("An event's table has no chat."), code="chat_off")
    text = _clean(text)
    if not text:
        raise TableError(_("Write something first."), code="chat_empty")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise TableError(
            ngettext(
                "Messages are at most %(count)d character; yours has %(length)d.",
                "Messages are at most %(count)d characters; yours has %(length)d.",
                ChatMessage.MAX_LENGTH,
            )
            % {"count": ChatMessage.MAX_LENGTH, "length": len(text)},
            code="chat_too_long",
        )
    limit, seconds = settings.FEMKORT_CHAT_RATE
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one author's messages one at a time
        session = GameSession.objects.filter(pk=session_id).first()
        if session is None:
            raise TableError(_("This table does not exist."), code="missing")
        if not session.chat_on:
            raise TableError(_("The host has turned chat off at this table."), code="chat_off")
        since = timezone.now() - timedelta(seconds=seconds)
        if ChatMessage.objects.filter(author=user, created__gte=since).count() >= limit:
            raise ChatTooFast(
                ngettext(
                    "You are writing too fast: at most %(limit)d message in %(duration)s. Wait a moment.",
                    "You are writing too fast: at most %(limit)d messages in %(duration)s. Wait a moment.",
                    limit,
                )
                % {
                    "limit": limit,
                    "duration": ngettext("%(seconds)d second", "%(seconds)d seconds", seconds) % {"seconds": seconds},
                }
            )
        message = ChatMessage.objects.create(session=session, author=user, text=text)
        transaction.on_commit(lambda: _tell_message(message, user))
    return message


def chat_switch(*, session_id: int, user: User, on: bool) -> GameSession:
    """The host turns the table's chat on or off; everyone's chat box follows."""
    with transaction.atomic():
        session = GameSession.objects.select_for_update().filter(pk=session_id).first()
        if session is None:
            raise TableError(_("This table does not exist."), code="missing")
        if not user.is_authenticated or session.host_id != user.pk:
            raise TableError(_("Only the host can turn the chat on or off."), code="not_host")
        if session.event_id is not None:
            raise TableError(_("An event's table has no chat."), code="chat_off")
        if session.chat_on != on:
            session.chat_on = on
            session.save(update_fields=["chat_on"])
            transaction.on_commit(lambda: send_sync(session_id, {"type": "table.chat_box", "session": session_id}))
    return session


def chat_mute(*, user: User, other_id: int, mute: bool) -> None:
    """Hide (or show again) another player's messages, for ``user`` only."""
    if not user.is_authenticated:
        raise TableError(_("Log in to mute players."), code="chat_login")
    if other_id == user.pk:
        raise TableError(_("You cannot mute yourself."), code="chat_self")
    if not User.objects.filter(pk=other_id).exists():
        raise TableError(_("No such player."), code="missing")
    if mute:
        ChatMute.objects.get_or_create(user=user, muted_id=other_id)
    else:
        ChatMute.objects.filter(user=user, muted_id=other_id).delete()


def _clean(text: str) -> str:
    """One line of text: control characters (newlines included) become spaces; invisible ones (format
    characters such as bidi controls and zero-width spaces, lone surrogates, private-use and unassigned
    code points) are dropped, emoji joiners kept (``accounts.text``); a line with nothing to see is empty."""
    text = "".join(" " if unicodedata.category(char) == "Cc" else char for char in str(text))
    text = " ".join(drop_invisible(text).split())
    return "" if is_blank(text) else text


def _tell_message(message: ChatMessage, author: User) -> None:
    send_sync(
        message.session_id,
        {
            "type": "table.chat",
            "session": message.session_id,
            "id": message.pk,
            "author": author.pk,
            "name": author.name,
            "text": message.text,
            "created": message.created.isoformat(),
        },
    )
