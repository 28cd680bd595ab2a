"""The table's chat box as one viewer sees it: the last messages (less the authors this viewer
muted), the writing form, and the host's switch."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime

from accounts.models import User

from .models import ChatMessage, ChatMute, GameSession

SHOWN = 50


@dataclass(frozen=True)
class ChatLine:
    id: int
    author: int
    name: str
    text: str
    created: datetime | None
    mine: bool = False


@dataclass(frozen=True)
class ChatBox:
    session: GameSession
    on: bool
    lines: list[ChatLine]
    can_write: bool
    can_mute: bool
    is_host: bool
    muted: list[tuple[int, str]]  # (user, name) this viewer muted, with a way to undo it

    @property
    def last_id(self) -> int:
        """The newest line shown: a polling page names it, and is sent only what came after."""
        return self.lines[-1].id if self.lines else 0


def chat_box(session: GameSession, user: User | None) -> ChatBox:
    signed_in = bool(user and user.is_authenticated)
    mutes = ChatMute.objects.filter(user=user).select_related("muted") if signed_in else ChatMute.objects.none()
    muted = {mute.muted_id: mute.muted.name for mute in mutes}
    recent = ChatMessage.objects.filter(session=session).exclude(author_id__in=muted).select_related("author")
    rows = list(recent.order_by("-created", "-pk")[:SHOWN])[::-1] if session.chat_on else []
    lines = [
        ChatLine(row.pk, row.author_id, row.author.name, row.text, row.created, signed_in and row.author_id == user.pk)
        for row in rows
    ]
    return ChatBox(
        session=session,
        on=session.chat_on,
        lines=lines,
        can_write=signed_in and session.chat_on,
        can_mute=signed_in,
        is_host=signed_in and session.host_id == user.pk,
        muted=sorted(muted.items(), key=lambda item: item[1].lower()),
    )


def chat_html(
    session: GameSession, user: User | None, *, request=None, oob: bool = False, draft: str = "", note: str = ""
) -> str:
    """The chat box; ``draft`` stays in the writing box (a line that was refused), ``note`` is said
    beside it (why it was refused, or what a mute does)."""
    context = {"chat": chat_box(session, user), "oob": oob, "draft": draft, "note": note}
    return render_to_string("games/_chat.html", context, request)


def chat_news_html(session: GameSession, user: User | None, seen: str | None) -> str:
    """The lines written after ``seen`` that this viewer has not muted, to append to a polling
    page's chat log (chat does not move the table's sequence number, so a poll must ask)."""
    if seen is None or not seen.isascii() or not seen.isdigit() or len(seen) > 18 or not session.chat_on:
        return ""
    signed_in = bool(user and user.is_authenticated)
    news = ChatMessage.objects.filter(session=session, pk__gt=int(seen)).select_related("author")
    if signed_in:
        news = news.exclude(author_id__in=ChatMute.objects.filter(user=user).values("muted_id"))
    return "".join(
        chat_line_html(
            {"id": row.pk, "author": row.author_id, "name": row.author.name, "text": row.text, "session": session.pk}
            | {"created": row.created.isoformat()},
            user,
        )
        for row in news.order_by("pk")[:SHOWN]
    )


def chat_line_html(event: dict, user: User | None) -> str:
    """One pushed message, appended to the viewer's chat log."""
    signed_in = bool(user and user.is_authenticated)
    line = ChatLine(
        event["id"],
        event["author"],
        event["name"],
        event["text"],
        parse_datetime(event.get("created") or ""),
        signed_in and event["author"] == user.pk,
    )
    context = {"line": line, "can_mute": signed_in, "session_id": event["session"]}
    return render_to_string("games/_chat_push.html", context)
