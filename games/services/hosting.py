"""The host's powers over a waiting table: remove a person, lock the seats, hand the table over."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import GameSession

from .errors import TableError
from .waiting import host_only, table_changed, waiting_table


@transaction.atomic
def seat_remove(*, session_id: int, user: User, position: int) -> GameSession:
    """The host takes a waiting seat back from a person (told so on the table); a computer is
    removed with ``computer_remove``."""
    session = waiting_table(session_id)
    host_only(session, user)
    seat = session.seats.filter(position=position, user__isnull=False).first()
    if seat is None:
        raise TableError(_("Nobody sits there."), code="no_person")
    if seat.user_id == session.host_id:
        raise TableError(_("The host cannot remove themselves; close the table instead."))
    session.removed = [*dict.fromkeys([*session.removed, seat.user_id])]
    seat.user = None
    seat.save(update_fields=["user"])
    return table_changed(session)


@transaction.atomic
def table_lock(*, session_id: int, user: User, locked: bool) -> GameSession:
    """The host keeps the seats as they are (nobody else may sit down), or opens them again."""
    session = waiting_table(session_id)
    host_only(session, user)
    session.locked = bool(locked)
    return table_changed(session)


@transaction.atomic
def host_hand_over(*, session_id: int, user: User, position: int) -> GameSession:
    """The host makes the person in seat ``position`` the host (then may leave like anyone)."""
    session = waiting_table(session_id)
    host_only(session, user)
    seat = session.seats.filter(position=position, user__isnull=False).exclude(user=user).first()
    if seat is None:
        raise TableError(_("Only a person seated at the table can become its host."), code="no_person")
    session.host = seat.user
    return table_changed(session)
