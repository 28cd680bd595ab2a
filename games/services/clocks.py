"""When a person's time is up: a live table's turn clock or absence check, a turn-based table's
deadline. A live table's computer takes the seat at once; a turn-based table's makes that one
move, and takes the seat only after ``FEMKORT_MISSED_DEADLINES`` deadlines missed in a row.

Every deadline lives on the session row (``due``, ``deadline``), so any server process can
enforce it: the live drivers call ``turn_check`` when a person's turn is due to be looked at,
and the row lock plus the sequence number make sure only one process acts on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.models import PRESENCE_TIMEOUT, Connection, GameSession, Seat

from .locks import locked_session
from .play import move_for
from .turns import (
    abandon_due,
    away_limit,
    changed,
    restore_turn,
    session_end_abandoned,
    stand_in_level,
)


@transaction.atomic
def turn_check(*, session_id: int, seen_seq: int) -> GameSession | None:
    """A person's turn is due to be looked at: if their clock ran out, or they have been gone
    ``FEMKORT_AWAY_SECONDS`` on their turn, a computer takes the seat; else look again later.
    At a turn-based table only the deadline counts (see ``deadline_pass``).
    When no seat is played by its own person, computers wait too (nobody is watching) and
    the session ends as abandoned after a grace period unless someone comes back.

    Returns the session (with its next ``due``), or ``None`` if the table moved on meanwhile.
    """
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING or session.seq != seen_seq:
        return None
    if session.to_act is None:  # started before turns were recorded: give it its turn now
        restore_turn(session)
        return session
    now = timezone.now()
    if session.due is None or session.due > now:
        return session
    if abandon_due(session):
        session_end_abandoned(session)
        return session
    if session.unattended_since is not None:
        return session
    seats = list(session.seats.select_related("user"))
    seat = seats[session.to_act]
    if seat.played_by:
        return session  # a computer's turn: the drivers play it
    expired = session.deadline is not None and now >= session.deadline
    if session.turn_based:
        if expired:
            deadline_pass(session, seats, seat, now)
        return session
    back_by = _absent_until(session, seat, now)
    if expired or (back_by is not None and now >= back_by):
        _stand_in(session, seats, seat, now)
        return session
    look = back_by or now + away_limit()
    session.due = min(look, session.deadline) if session.deadline else look
    GameSession.objects.filter(pk=session.pk).update(due=session.due)
    return session


def deadline_pass(session: GameSession, seats: Sequence[Seat], seat: Seat, now: datetime) -> None:
    """A turn-based deadline passed: a computer moves for the person this once, as the table's
    rule says; missing ``FEMKORT_MISSED_DEADLINES`` in a row, the computer keeps the seat until
    they take it back (as a live table's clock does)."""
    seat.missed += 1
    if seat.missed >= settings.FEMKORT_MISSED_DEADLINES:
        seat.stand_in = stand_in_level(seats)
        seat.save(update_fields=["missed", "stand_in"])
        changed(session, seats, now)
        return
    seat.save(update_fields=["missed"])
    move_for(session, seats, seat, stand_in_level(seats))


def _absent_until(session: GameSession, seat: Seat, now: datetime) -> datetime | None:
    """When a person with no live connection counts as gone (``None`` while they are connected).

    Their absence runs from their last sign of life (a socket's last beat, a page poll, the
    moment their socket closed) or from the start of the turn, whichever is later.
    """
    rows = Connection.objects.filter(session_id=session.pk, user_id=seat.user_id)
    if rows.filter(seen__gte=now - timedelta(seconds=PRESENCE_TIMEOUT)).exists():
        return None
    signs = [seat.seen, session.turn_since, rows.aggregate(last=Max("seen"))["last"]]
    return max(sign for sign in signs if sign is not None) + away_limit()


def _stand_in(session: GameSession, seats: Sequence[Seat], seat: Seat, now: datetime) -> None:
    seat.stand_in = stand_in_level(seats)
    seat.save(update_fields=["stand_in"])
    changed(session, seats, now)
