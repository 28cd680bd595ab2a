"""What a person may do at a table, decided once: the services refuse by these rules and the table
view offers a button by the same ones, so a button shown is an action allowed.

Each rule reads only the session, its seats and who is online; the services call them under the
session's row lock, the selectors on a snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.utils import timezone

from games.models import GameSession, Seat
from games.stored import players_needed, sides_of


def host_gone(session: GameSession, seats: Sequence[Seat], online: frozenset[int]) -> bool:
    """A full waiting table whose host has shown no sign of life for a while (no socket, no page
    or poll): anyone seated may start it, so a table everyone joined never waits for ever."""
    if session.status != GameSession.Status.WAITING or any(seat.is_empty for seat in seats):
        return False
    if session.host_id in online:
        return False
    host_seat = next((seat for seat in seats if seat.user_id == session.host_id), None)
    last = max(filter(None, (session.created, host_seat.seen if host_seat else None)))
    return (timezone.now() - last).total_seconds() >= settings.FEMKORT_HOST_GONE_SECONDS


def may_start_as(session: GameSession, seats: Sequence[Seat], user_id: int | None, online: frozenset[int]) -> bool:
    """The host starts a table; anyone seated may, once the host is gone from a full one."""
    if user_id is None:
        return False
    if user_id == session.host_id:
        return True
    return any(seat.user_id == user_id for seat in seats) and host_gone(session, seats, online)


def enough_players(session: GameSession, seats: Sequence[Seat]) -> bool:
    return sum(not seat.is_empty for seat in seats) >= players_needed(session.game)


def may_start(session: GameSession, seats: Sequence[Seat], user_id: int | None, online: frozenset[int]) -> bool:
    return (
        session.status == GameSession.Status.WAITING
        and may_start_as(session, seats, user_id, online)
        and enough_players(session, seats)
    )


def may_join(session: GameSession, seats: Sequence[Seat], user_id: int | None) -> bool:
    """A free seat at an unlocked waiting table, for someone signed in and not seated there yet."""
    return (
        session.status == GameSession.Status.WAITING
        and user_id is not None
        and not session.locked
        and not any(seat.user_id == user_id for seat in seats)
        and any(seat.is_empty for seat in seats)
    )


def may_rematch(session: GameSession, user_id: int | None) -> bool:
    """The host of a finished session asks to play it again (once: asking again finds the same table)."""
    return session.status == GameSession.Status.FINISHED and user_id == session.host_id and session.event_id is None


def may_leave(session: GameSession, seat: Seat | None) -> bool:
    """A seated person leaves a session in play for good; a computer plays the seat on."""
    return session.status == GameSession.Status.PLAYING and seat is not None and not seat.left


def may_reclaim(session: GameSession, seat: Seat | None) -> bool:
    """A person whose seat a computer stands in for takes it back (unless they left it)."""
    return may_leave(session, seat) and bool(seat and seat.stand_in)


def pace_voters(seats: Sequence[Seat]) -> set[int]:
    """The people who must all agree to a change of pace: everyone seated who has not left."""
    return {seat.user_id for seat in seats if seat.user_id and not seat.left}


def may_ask_pace(session: GameSession, seat: Seat | None) -> bool:
    """A seated person asks to make a session in play turn-based, or live again (one ask at a time)."""
    return may_leave(session, seat) and not session.pace_asked


def may_answer_pace(session: GameSession, seat: Seat | None) -> bool:
    asked = session.pace_asked
    return may_leave(session, seat) and bool(asked) and seat.user_id not in asked.get("yes", ())


def partners_of(session: GameSession, seats: Sequence[Seat], seat: Seat) -> list[Seat]:
    """The other seats on ``seat``'s side (none where everyone plays for themselves)."""
    side = next((side for side in sides_of(session, len(seats)) if seat.position in side), ())
    return [seats[position] for position in side if position != seat.position]


def partners_a_beginner(session: GameSession, seats: Sequence[Seat], seat: Seat) -> bool:
    """A computer at this seat plays as partner to a beginner: a person it partners asked it to (never at
    an event's or a tournament's table, whose computers play alike everywhere)."""
    if not seat.computer or session.event_id is not None or session.tournament_id is not None:
        return False
    return any(
        partner.user_id and not partner.computer and not partner.left and partner.beginner_partner
        for partner in partners_of(session, seats, seat)
    )


def may_set_beginner_partners(session: GameSession, seats: Sequence[Seat], seat: Seat | None) -> bool:
    """A seated person whose partner is a computer chooses how it plays with them, before or in play
    (not at an event's or a tournament's table: everyone there meets the same computers)."""
    if seat is None or not seat.user_id or seat.left:
        return False
    if session.event_id is not None or session.tournament_id is not None:
        return False
    if session.status not in (GameSession.Status.WAITING, GameSession.Status.PLAYING):
        return False
    return any(partner.computer and not partner.user_id for partner in partners_of(session, seats, seat))
