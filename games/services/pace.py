"""Changing a session's pace in play: a live table becomes turn-based (or live again) when every
seated person agrees, as a redeal is agreed. One ask at a time; a "no" ends it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import rights
from games.models import PACES, GameSession

from .errors import TableError
from .turns import _my_seat_in_play, changed


@transaction.atomic
def pace_ask(*, session_id: int, user: User, pace_seconds: int) -> GameSession:
    """Ask the table to play on at ``pace_seconds`` (0: live); the asker agrees at once."""
    session, seats, seat = _my_seat_in_play(session_id, user)
    if session.event_id is not None:
        raise TableError(_("An event's table waits for you anyway: its pace does not change."), code="pace")
    if session.tournament_id is not None:
        raise TableError(_("A tournament's tables keep the tournament's pace."), code="pace")
    if pace_seconds not in dict(PACES) or pace_seconds == session.pace_seconds:
        raise TableError(_("Choose another pace than the table's."), code="pace")
    if not rights.may_ask_pace(session, seat):
        raise TableError(_("A change of pace is already asked; answer it first."), code="pace_asked")
    session.pace_asked = {"pace": pace_seconds, "yes": [user.pk], "by": user.pk}
    _settle(session, seats)
    return session


@transaction.atomic
def pace_answer(*, session_id: int, user: User, agree: bool) -> GameSession:
    """Agree to the pace asked, or refuse it (the ask ends, the pace stays)."""
    session, seats, seat = _my_seat_in_play(session_id, user)
    if not rights.may_answer_pace(session, seat):
        raise TableError(_("There is no change of pace for you to answer."), code="no_pace_asked")
    if agree:
        session.pace_asked = session.pace_asked | {"yes": [*session.pace_asked["yes"], user.pk]}
    else:
        session.pace_asked = {}
    _settle(session, seats)
    return session


def _settle(session: GameSession, seats: list) -> None:
    """Everyone agreed: the new pace holds from this turn on (its deadline starts now)."""
    asked = session.pace_asked
    if asked and rights.pace_voters(seats) <= set(asked["yes"]):
        session.pace_seconds = asked["pace"]
        session.pace_asked = {}
    changed(session, seats, timezone.now())
