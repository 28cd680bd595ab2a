"""Opening a table, taking and leaving seats, computer players, starting and abandoning a session."""

from __future__ import annotations

import secrets
from dataclasses import asdict

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.bots import LEVELS
from games.engine import InvalidDeal, get_game
from games.live.broadcast import announce
from games.models import GameSession, Seat
from games.records import store_match

from .errors import NotSeated, TableError
from .locks import locked_session
from .play import computer_due, deal_next

MIN_SEATS, MAX_SEATS = 3, 10


@transaction.atomic
def table_create(
    *,
    host: User,
    seats: int,
    game: str = GameSession.Game.FEMKORT,
    options: dict | None = None,
) -> GameSession:
    """A new table in the lobby; the host takes seat 0."""
    if game not in GameSession.Game.values:
        raise TableError(_("Unknown game."))
    rules = get_game(game)
    low, high = max(MIN_SEATS, rules.min_players), min(MAX_SEATS, rules.max_players)
    if not isinstance(seats, int) or not low <= seats <= high:
        raise TableError(_("A table has %(low)d to %(high)d seats.") % {"low": low, "high": high})
    try:
        parsed = rules.parse_options(options or {})
    except InvalidDeal as error:
        raise TableError(str(error)) from None
    session = GameSession.objects.create(game=game, options=asdict(parsed), seat_count=seats, host=host)
    Seat.objects.bulk_create(Seat(session=session, position=i, user=host if i == 0 else None) for i in range(seats))
    return session


@transaction.atomic
def seat_take(*, session_id: int, user: User, position: int | None = None) -> GameSession:
    session = _waiting(session_id)
    if session.seats.filter(user=user).exists():
        raise TableError(_("You already have a seat at this table."), code="already_seated")
    seat = _empty_seat(session, position)
    seat.user = user
    try:
        with transaction.atomic():
            seat.save(update_fields=["user"])
    except IntegrityError:
        raise TableError(_("That seat was just taken."), code="seat_taken") from None
    return _changed(session)


@transaction.atomic
def seat_leave(*, session_id: int, user: User) -> GameSession:
    session = _waiting(session_id)
    seat = session.seats.filter(user=user).first()
    if seat is None:
        raise NotSeated(_("You have no seat at this table."))
    if user.pk == session.host_id:
        raise TableError(_("The host cannot leave; close the table instead."))
    seat.user = None
    seat.save(update_fields=["user"])
    return _changed(session)


@transaction.atomic
def computer_add(*, session_id: int, user: User, level: str = "medium", position: int | None = None) -> GameSession:
    session = _waiting(session_id)
    _host_only(session, user)
    if level not in LEVELS:
        raise TableError(_("Unknown computer player level."))
    seat = _empty_seat(session, position)
    seat.computer = level
    seat.save(update_fields=["computer"])
    return _changed(session)


@transaction.atomic
def computer_remove(*, session_id: int, user: User, position: int) -> GameSession:
    session = _waiting(session_id)
    _host_only(session, user)
    seat = session.seats.filter(position=position).exclude(computer="").first()
    if seat is None:
        raise TableError(_("There is no computer player in that seat."))
    seat.computer = ""
    seat.save(update_fields=["computer"])
    return _changed(session)


@transaction.atomic
def session_start(*, session_id: int, user: User, rng: secrets.SystemRandom | None = None) -> GameSession:
    """Close the empty seats, pick the first dealer at random and deal the first deal."""
    session = _waiting(session_id)
    _host_only(session, user)
    seats = list(session.seats.all())
    taken = [seat for seat in seats if not seat.is_empty]
    if len(taken) < MIN_SEATS:
        raise TableError(_("At least three seats must be filled to start."), code="too_few")
    session.seats.filter(pk__in=[seat.pk for seat in seats if seat.is_empty]).delete()
    for position, seat in enumerate(taken):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    rng = rng or secrets.SystemRandom()
    rules = get_game(session.game)
    match = rules.new_match(players=len(taken), options=rules.parse_options(session.options), rng=rng)
    store_match(session, taken, match)
    session.seat_count = len(taken)
    session.with_computers = any(seat.computer for seat in taken)
    session.status = GameSession.Status.PLAYING
    session.started = timezone.now()
    state = deal_next(session, match, number=1, rng=rng)[1]
    session.due = computer_due(taken, state)
    return _changed(session)


@transaction.atomic
def session_abandon(*, session_id: int, user: User | None = None) -> GameSession:
    """End a session unplayed or unfinished: by an admin (no ``user``), or by the host before it starts."""
    session = locked_session(session_id)
    if session.status in (GameSession.Status.FINISHED, GameSession.Status.ABANDONED):
        raise TableError(_("This session is already over."))
    if user is not None:
        _host_only(session, user)
        if session.status != GameSession.Status.WAITING:
            raise TableError(_("A session in play cannot be closed by the host."), code="not_waiting")
    session.status = GameSession.Status.ABANDONED
    session.finished = timezone.now()
    session.due = None
    return _changed(session)


@transaction.atomic
def session_touch(*, session_id: int) -> GameSession:
    """An admin edited the session or its seats: a change like any other, so every view refreshes."""
    return _changed(locked_session(session_id))


def _waiting(session_id: int) -> GameSession:
    session = locked_session(session_id)
    if session.status != GameSession.Status.WAITING:
        raise TableError(_("This table has already started."), code="not_waiting")
    return session


def _host_only(session: GameSession, user: User) -> None:
    if user.pk != session.host_id:
        raise TableError(_("Only the host can do that."), code="not_host")


def _empty_seat(session: GameSession, position: int | None) -> Seat:
    empty = session.seats.filter(user__isnull=True, computer="")
    seat = empty.filter(position=position).first() if position is not None else empty.first()
    if seat is None:
        raise TableError(_("That seat is taken.") if position is not None else _("The table is full."), code="full")
    return seat


def _changed(session: GameSession) -> GameSession:
    session.seq += 1
    session.save()
    announce(session.pk, session.seq)
    return session
