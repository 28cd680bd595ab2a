"""Taking, moving and leaving seats at a waiting table, the host's computer players in them, and how
those computers play with a person they partner."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import rights
from games.bots import LEVELS
from games.models import GameSession, Seat

from .errors import NotSeated, TableError
from .locks import locked_session
from .waiting import empty_seat, host_only, previous_locked, previous_tell, table_changed, waiting_table


@transaction.atomic
def seat_take(*, session_id: int, user: User, position: int | None = None) -> GameSession:
    """Sit down at a waiting table (``position``, or the seat kept for you, or any free one); someone
    already seated moves to the free seat ``position`` instead, in one step."""
    previous = previous_locked(session_id)
    session = waiting_table(session_id)
    mine = session.seats.filter(user=user).first()
    if mine is not None:
        if position is None or position == mine.position:
            raise TableError(_("You already have a seat at this table."), code="already_seated")
        return _seat_move(session, mine, empty_seat(session, position, user))
    if not rights.may_join(session, list(session.seats.all()), user.pk):
        if session.locked:
            raise TableError(_("The host has locked this table: no seat can be taken."), code="locked")
        raise TableError(_("The table is full."), code="full")
    invited = session.seats.filter(invited=user, user__isnull=True, computer="").first()
    seat = (
        invited if invited is not None and position in (None, invited.position) else empty_seat(session, position, user)
    )
    seat.user, seat.invited = user, None
    try:
        with transaction.atomic():
            seat.save(update_fields=["user", "invited"])
    except IntegrityError:
        raise TableError(_("That seat was just taken."), code="seat_taken") from None
    if user.pk in session.removed:  # sitting down again: the notice of being removed is over
        session.removed = [pk for pk in session.removed if pk != user.pk]
    previous_tell(previous)
    return table_changed(session)


def _seat_move(session: GameSession, mine: Seat, seat: Seat) -> GameSession:
    """A seated person changes seats (to sit beside, or facing, a partner): the old one is free at once."""
    user = mine.user
    mine.user, beginner_partner, mine.beginner_partner = None, mine.beginner_partner, False
    mine.save(update_fields=["user", "beginner_partner"])  # first: a person holds one seat per table (a constraint)
    seat.user, seat.invited, seat.beginner_partner = user, None, beginner_partner
    seat.save(update_fields=["user", "invited", "beginner_partner"])
    return table_changed(session)


@transaction.atomic
def seat_leave(*, session_id: int, user: User) -> GameSession:
    session = waiting_table(session_id)
    seat = session.seats.filter(user=user).first()
    if seat is None:
        raise NotSeated(_("You have no seat at this table."))
    if user.pk == session.host_id:
        raise TableError(_("The host cannot leave; close the table instead."))
    seat.user, seat.beginner_partner = None, False
    seat.save(update_fields=["user", "beginner_partner"])
    return table_changed(session)


@transaction.atomic
def computer_add(*, session_id: int, user: User, level: str = "medium", position: int | None = None) -> GameSession:
    session = waiting_table(session_id)
    host_only(session, user)
    if level not in LEVELS:
        raise TableError(_("Unknown computer player level."))
    seat = empty_seat(session, position)
    seat.computer, seat.invited = level, None
    seat.save(update_fields=["computer", "invited"])
    return table_changed(session)


@transaction.atomic
def computer_remove(*, session_id: int, user: User, position: int) -> GameSession:
    session = waiting_table(session_id)
    host_only(session, user)
    seat = session.seats.filter(position=position).exclude(computer="").first()
    if seat is None:
        raise TableError(_("There is no computer player in that seat."))
    seat.computer = ""
    seat.save(update_fields=["computer"])
    return table_changed(session)


@transaction.atomic
def beginner_partners_set(*, session_id: int, user: User, on: bool) -> GameSession:
    """Ask your computer partner at this table to play as partner to a beginner (or as usual again),
    before or during play; it changes nobody else's partner."""
    session = locked_session(session_id)
    seats = list(session.seats.order_by("position"))
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if not rights.may_set_beginner_partners(session, seats, mine):
        raise TableError(_("Only a player partnered by a computer at this table can choose that."), code="partners")
    if mine.beginner_partner != on:
        mine.beginner_partner = on
        mine.save(update_fields=["beginner_partner"])
        table_changed(session)  # every view refreshes; nobody's turn starts again
    return session
