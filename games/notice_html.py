"""A player's news on any open page, as swaps for its socket: a new invitation's toast and the
header's count. Read from the database for this player alone, so it says only what they may see."""

from __future__ import annotations

from django.template.loader import render_to_string

from accounts.models import User
from games.models import GameSession

from .my_tables import waiting_count
from .services import invitations_open


def invitation_notice(user: User, invitation_id: int) -> str:
    """The toast of invitation ``invitation_id`` and the header's count; nothing once it is answered,
    its table no longer waits, or it is not ``user``'s."""
    waiting = invitations_open(user)
    invitation = waiting.filter(pk=invitation_id).first()
    if invitation is None:
        return ""
    context = {"invitation": invitation, "invitations_waiting": waiting.count()}
    return render_to_string("games/_invitation_notice.html", context)


def my_tables_link(user_id: int) -> str:
    """The header's link to My tables with its count of turn-based tables waiting on the player, to swap in."""
    return render_to_string("games/_my_tables_link.html", {"tables_waiting": waiting_count(user_id), "oob": True})


def table_ready_notice(user_id: int, session_id: int) -> str:
    """The toast "your table is ready" with its link; nothing unless ``user_id`` is seated there and it is in play."""
    session = (
        GameSession.objects.filter(pk=session_id, tournament__isnull=False, seats__user_id=user_id, seats__left=False)
        .select_related("tournament")
        .first()
    )
    if session is None or session.status != GameSession.Status.PLAYING:
        return ""
    return render_to_string("games/_table_ready_notice.html", {"session": session})
