"""What every change to a waiting table starts and ends with: the table under its row lock, the
host's right, a free seat, and the new sequence number its viewers are told of."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.announcements import announce
from games.models import GameSession, Seat

from .errors import TableError
from .locks import locked_session


def waiting_table(session_id: int) -> GameSession:
    session = locked_session(session_id)
    if session.status == GameSession.Status.CLOSED:
        raise TableError(_("This table was closed."), code="not_waiting")
    if session.status != GameSession.Status.WAITING:
        raise TableError(_("This table has already started."), code="not_waiting")
    return session


def host_only(session: GameSession, user: User) -> None:
    if user.pk != session.host_id:
        raise TableError(_("Only the host can do that."), code="not_host")


def empty_seat(session: GameSession, position: int | None, user: User | None = None) -> Seat:
    """A free seat (``position``'s, or any); seats kept for someone's "play again" stay theirs for a while."""
    empty = session.seats.filter(user__isnull=True, computer="")
    hold = timedelta(seconds=settings.FEMKORT_REMATCH_HOLD_SECONDS)
    if timezone.now() < session.created + hold:
        empty = empty.filter(Q(invited__isnull=True) | Q(invited=user))
    seat = empty.filter(position=position).first() if position is not None else empty.first()
    if seat is None:
        raise TableError(_("That seat is taken.") if position is not None else _("The table is full."), code="full")
    return seat


def previous_locked(session_id: int) -> GameSession | None:
    """The finished table this one plays again, locked first: every path locks the older table
    before the newer (``rematch_decline`` does too), so two of them never wait on each other."""
    return GameSession.objects.select_for_update().filter(rematch_id=session_id).first()


def previous_tell(previous: GameSession | None) -> None:
    """The finished table shows the invitation to this one: it changes when this one does."""
    if previous is not None:
        table_changed(previous)


def table_changed(session: GameSession) -> GameSession:
    session.seq += 1
    session.active = timezone.now()
    session.save()
    announce(session.pk, session.seq)
    return session
