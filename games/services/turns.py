"""Tables that never stall: whose turn it is and since when, turn clocks, absent players,
a computer taking over a seat, leaving a running session, and clocks across restarts.

Every deadline lives on the session row (``due``, ``deadline``), so any server process can
enforce it: the live drivers call ``turn_check`` when a person's turn is due to be looked
at, and the row lock plus the sequence number make sure only one process acts on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import rights
from games.announcements import announce
from games.bots import LEVELS  # weakest first
from games.engine.game import State
from games.models import GameSession, Seat, ServerBeat
from games.stored import deal_state

from . import duplicate, fair, tournaments
from .errors import NotSeated, TableError
from .locks import locked_session
from .notify import turn_news


def stand_in_level(seats: Sequence[Seat]) -> str:
    """A computer standing in for a person plays as the table's strongest computer, or strong at a
    table of people only: nobody's partner or opponents should get a weaker player than they chose."""
    return max((seat.computer for seat in seats if seat.computer in LEVELS), key=LEVELS.index, default=LEVELS[-1])


SEEN_EVERY = timedelta(seconds=10)  # a polling page refreshes its player's sign of life at most this often


def away_limit() -> timedelta:
    return timedelta(seconds=settings.FEMKORT_AWAY_SECONDS)


def pace_time(session: GameSession) -> timedelta:
    """A turn-based table's time per move (``FEMKORT_PACE_FACTOR`` shortens it for tests and trials)."""
    return timedelta(seconds=session.pace_seconds * settings.FEMKORT_PACE_FACTOR)


def abandon_after(session: GameSession) -> timedelta:
    """How long a session may go with no seat played by its own person: at a turn-based table, at least
    one move's time, since nobody is expected to be there at once."""
    wait = timedelta(seconds=settings.FEMKORT_ABANDON_SECONDS)
    return max(wait, pace_time(session)) if session.turn_based else wait


def ask_window(state: State | None) -> bool:
    """People other than the seat to act may still act (before a deal's first card on a table
    with redeal by agreement, ask for new cards): a computer does not act at once."""
    return state is not None and state.view(None).others_may_act


def pace(state: State | None) -> dict[str, bool]:
    """How the next turn begins, from one public view of the deal: ``asking`` (see ``ask_window``),
    and ``leading``: something was just settled that people should see (a trick taken, a deal
    begun), so a computer acts after a pause."""
    if state is None:
        return {"asking": False, "leading": False}
    seen = state.view(None)
    return {"asking": seen.others_may_act, "leading": seen.just_settled}


def turn_begin(
    session: GameSession, seats: Sequence[Seat], to_act: int | None, *, asking: bool = False, leading: bool = False
) -> None:
    """Set who acts next, since when, and when the server must look at the table (unsaved).

    A computer (or a computer playing for someone) acts after a short pause; a person's
    turn is looked at when their clock runs out, or after ``FEMKORT_AWAY_SECONDS`` to see
    whether they are still there.
    """
    now = timezone.now()
    to_act = to_act if session.status == GameSession.Status.PLAYING else None
    session.to_act = to_act
    session.turn_since = now if to_act is not None else None
    session.deadline = None
    session.due = None
    if to_act is None:
        return
    if session.unattended_since is not None:  # nobody plays their own seat: wait for someone, then abandon
        session.due = session.unattended_since + abandon_after(session)
        return
    if seats[to_act].played_by:
        pause = settings.COMPUTER_PAUSE_SECONDS
        if leading:  # the trick just taken stays on show a moment before the computer leads
            pause = max(pause, settings.FEMKORT_TRICK_PAUSE_SECONDS)
        session.due = now + timedelta(seconds=max(pause, settings.FEMKORT_REDEAL_WINDOW_SECONDS) if asking else pause)
        return
    if session.event_id is not None and session.tournament_id is None:  # one person's try: it waits for the close
        return
    if session.turn_based:  # nobody is expected to be there: the deadline is all that is looked at
        session.deadline = session.due = now + pace_time(session)
        return
    if session.turn_seconds:
        session.deadline = now + timedelta(seconds=session.turn_seconds)
    look = now + away_limit()
    session.due = min(look, session.deadline) if session.deadline else look


def changed(session: GameSession, seats: Sequence[Seat], now: datetime, *, new_turn: bool = True) -> None:
    """Someone's seat changed hands: a change like a move (every view refreshes, the turn starts again)."""
    if _attendance(session, seats, now) or new_turn:  # who must act, or whether anyone waits, changed
        turn_begin(session, seats, session.to_act)
    session.seq += 1
    session.save()
    turn_news(session, seats)
    announce(session.pk, session.seq)


def _attendance(session: GameSession, seats: Sequence[Seat], now: datetime) -> bool:
    """Note since when no person plays their own seat (the session is abandoned after a grace period);
    says whether that changed."""
    attended = any(seat.user_id and not seat.stand_in for seat in seats)
    since = None if attended else session.unattended_since or now
    changed = since != session.unattended_since
    session.unattended_since = since
    return changed


def session_end_abandoned(session: GameSession) -> None:
    """End a session unfinished (the caller holds its row lock): no ratings change."""
    session.status = GameSession.Status.ABANDONED
    session.finished = timezone.now()
    session.to_act = session.turn_since = session.deadline = session.due = None
    fair.seed_drop(session)
    duplicate.tries_end(session)  # an event's deal left unfinished counts as played
    tournaments.table_abandoned(session)
    session.seq += 1
    session.save()
    announce(session.pk, session.seq)


def abandon_due(session: GameSession) -> bool:
    """Nobody has played their own seat for the grace period: the session ends as abandoned."""
    since = session.unattended_since
    return since is not None and timezone.now() >= since + abandon_after(session)


def _my_seat_in_play(session_id: int, user: User) -> tuple[GameSession, list[Seat], Seat]:
    """The session in play (locked), its seats, and ``user``'s seat there, or why not."""
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING:
        raise TableError(_("This session is not in play."), code="not_playing")
    seats = list(session.seats.select_related("user"))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotSeated(_("You have no seat at this table."))
    return session, seats, seat


@transaction.atomic
def session_leave(*, session_id: int, user: User) -> GameSession:
    """Leave a running session for good: a computer plays the seat to the end, and it counts as lost."""
    session, seats, seat = _my_seat_in_play(session_id, user)
    if not rights.may_leave(session, seat):
        raise TableError(_("You have already left this session."), code="left")
    seat.left = True
    seat.stand_in = seat.stand_in or stand_in_level(seats)
    seat.save(update_fields=["left", "stand_in"])
    if session.event_id is not None and session.tournament_id is None:  # one person's try: it ends, counted played
        session_end_abandoned(session)
        return session
    changed(session, seats, timezone.now(), new_turn=session.to_act == seat.position)
    return session


@transaction.atomic
def seat_reclaim(*, session_id: int, user: User) -> GameSession:
    """Take your seat back from the computer playing for you, from your next turn on."""
    session, seats, seat = _my_seat_in_play(session_id, user)
    if not rights.may_reclaim(session, seat):
        if seat.left:
            raise TableError(_("You left this session; a computer plays your seat to the end."), code="left")
        raise TableError(_("You are already playing your seat."), code="not_stood_in")
    own_turn = session.to_act == seat.position
    if own_turn and session.unattended_since is None:  # from your next turn: a clock that ran out is not reset
        raise TableError(
            _("The computer is playing this card for you; you can take your seat back in a moment."),
            code="mid_turn",
        )
    now = timezone.now()
    seat.stand_in = ""
    seat.seen = now
    seat.missed = 0
    seat.save(update_fields=["stand_in", "seen", "missed"])
    changed(session, seats, now, new_turn=own_turn)  # on your turn only if the computers were waiting for you
    return session


@transaction.atomic
def turn_restore(*, session_id: int) -> bool:
    """Give a session in play that does not say whose turn it is (started before turns were
    recorded) its turn, so its clock and absence checks run; ``True`` if it needed one."""
    session = locked_session(session_id)
    if session.status != GameSession.Status.PLAYING or session.to_act is not None:
        return False
    return restore_turn(session)


def restore_turn(session: GameSession) -> bool:
    deal = session.deals.order_by("-number").first()
    if deal is None:
        return False
    seats = list(session.seats.all())
    turn_begin(session, seats, deal_state(deal).to_act)
    session.seq += 1
    session.save()
    turn_news(session, seats)
    announce(session.pk, session.seq)
    return True


def seat_seen(*, session_id: int, user: User) -> None:
    """A seated person showed a sign of life (a page or poll); written at most every few seconds."""
    now = timezone.now()
    Seat.objects.filter(session_id=session_id, user=user).exclude(seen__gte=now - SEEN_EVERY).update(seen=now)


def beat_threshold() -> timedelta:
    """A gap in the server's beat longer than this means no process was serving."""
    return timedelta(seconds=max(15.0, 3 * settings.FEMKORT_SWEEP_SECONDS))


@transaction.atomic
def clocks_keep() -> timedelta | None:
    """Note that a server process is running; after a time with none (a restart), push every
    person's running turn back by that time, as if the clocks had stopped with the server.

    Called by every process's sweep; the beat row's lock makes the push happen once however
    many processes start together. Returns the downtime that was given back, if any.
    """
    now = timezone.now()
    beat = ServerBeat.objects.select_for_update().filter(pk=1).first()
    if beat is None:
        try:
            with transaction.atomic():
                ServerBeat.objects.create(pk=1, at=now)
        except IntegrityError:  # another process created it first
            ServerBeat.objects.select_for_update().filter(pk=1).update(at=now)
        return None
    gap = now - beat.at
    beat.at = now
    beat.save(update_fields=["at"])
    if gap <= beat_threshold():
        return None
    person_to_act = Seat.objects.filter(
        session=OuterRef("pk"), position=OuterRef("to_act"), user__isnull=False, stand_in=""
    )
    waiting = GameSession.objects.filter(Exists(person_to_act), status=GameSession.Status.PLAYING)
    ids = list(waiting.select_for_update().values_list("pk", flat=True))  # no move slips in between
    GameSession.objects.filter(pk__in=ids).update(
        seq=F("seq") + 1,
        turn_since=F("turn_since") + gap,
        deadline=F("deadline") + gap,
        due=F("due") + gap,
    )
    for session_id, seq in GameSession.objects.filter(pk__in=ids).values_list("pk", "seq"):
        announce(session_id, seq)
    return gap
