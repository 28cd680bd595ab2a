"""A table's life: opening it, starting its session, abandoning or expiring it, and playing it again."""

from __future__ import annotations

import random
import secrets
from dataclasses import asdict

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games import rights
from games.engine import GAMES, InvalidDeal, get_game
from games.engine.game import Game
from games.models import PACES, TURN_CLOCKS, GameSession, Seat
from games.selectors import idle_waiting, online_users, waiting_cutoff
from games.stored import players_needed, seat_choices, store_match

from . import duplicate, fair, tournaments
from .errors import TableError
from .locks import locked_session
from .notify import turn_news
from .play import deal_next
from .turns import pace, turn_begin
from .waiting import host_only, previous_locked, previous_tell, table_changed, waiting_table


@transaction.atomic
def table_create(
    *,
    host: User,
    seats: int,
    game: str | None = None,
    options: dict | None = None,
    turn_seconds: int = 0,
    pace_seconds: int = 0,
    unlisted: bool = False,
    beginner_partners: bool = False,
) -> GameSession:
    """A new table in the lobby (of the first game listed unless ``game`` says); the host takes seat 0.
    An ``unlisted`` table is private: only its link or its code finds it. ``pace_seconds`` makes it
    turn-based: each person has that long for a move (the turn clock then does not apply)."""
    game = game or next(iter(GAMES))
    if game not in GAMES or not GAMES[game].on_site:
        raise TableError(_("Unknown game."))
    if turn_seconds not in dict(TURN_CLOCKS):
        raise TableError(_("Unknown turn clock."))
    if pace_seconds not in dict(PACES):
        raise TableError(_("Unknown pace."))
    rules = get_game(game)
    if not isinstance(seats, int) or seats not in seat_choices(rules):
        raise TableError(seats_said(rules))
    try:
        parsed = rules.parse_options(options or {})
    except InvalidDeal as error:
        raise TableError(str(error)) from None
    problem = rules.table_problem(seats, parsed)
    if problem is not None:
        raise TableError(_(problem), code="options")
    _room_for_another(host)
    session = GameSession.objects.create(
        game=game,
        options=asdict(parsed),
        seat_count=seats,
        host=host,
        turn_seconds=0 if pace_seconds else turn_seconds,
        pace_seconds=pace_seconds,
        active=timezone.now(),
        unlisted=unlisted,
        code=_new_code() if unlisted else None,
    )
    Seat.objects.bulk_create(
        Seat(session=session, position=i, user=host if i == 0 else None, beginner_partner=beginner_partners and i == 0)
        for i in range(seats)
    )
    fair.seed_draw(session, 1)
    session.save(update_fields=["next_commitment"])
    return session


def seats_said(rules: Game) -> str:
    """The table sizes a game is played at, as a refusal says them: a range, or a list."""
    choices = seat_choices(rules)
    low, high = choices[0], choices[-1]
    if len(choices) == high - low + 1:
        message = ngettext("A table has %(low)d to %(high)d seat.", "A table has %(low)d to %(high)d seats.", high)
        return message % {"low": low, "high": high}
    return ngettext("This game is played at %(counts)s seat.", "This game is played at %(counts)s seats.", high) % {
        "counts": get_text_list([str(count) for count in choices], _("or"))
    }


@transaction.atomic
def session_start(
    *, session_id: int, user: User, rng: random.Random | None = None, contribution: str = ""
) -> GameSession:
    """Close the empty seats, pick the first dealer at random and deal the first deal (``rng``: a
    seeded deal for tests and tools, not a verifiable one); ``contribution``: the host's own
    randomness for the shuffle, sent with the request."""
    previous = previous_locked(session_id)
    session = waiting_table(session_id)
    seats = list(session.seats.all())
    if not rights.may_start_as(session, seats, user.pk, online_users(session_id)):
        host_only(session, user)  # says why: only the host, unless the host is gone from a full table
    taken = [seat for seat in seats if not seat.is_empty]
    needed = players_needed(session.game)
    if not rights.enough_players(session, seats):
        message = ngettext(
            "At least %(count)d seat must be filled to start.",
            "At least %(count)d seats must be filled to start.",
            needed,
        )
        raise TableError(message % {"count": needed}, code="too_few")
    rules = get_game(session.game)
    if session.same_deals_as_id is not None and len(taken) != session.seat_count:
        raise TableError(_("Every seat must be filled: the same deals go to the same seats."), code="too_few")
    if len(taken) not in seat_choices(rules):  # a game of some table sizes only: empty seats cannot all close
        raise TableError(seats_said(rules), code="seat_count")
    problem = rules.table_problem(len(taken), rules.parse_options(session.options))
    if problem is not None:  # fewer players than the options need (partnerships with an empty seat)
        raise TableError(_(problem), code="options")
    session.seats.filter(pk__in=[seat.pk for seat in seats if seat.is_empty]).delete()
    for position, seat in enumerate(taken):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    if contribution:
        fair.contribution_add(session_id=session.pk, user=user, commitment=session.next_commitment, value=contribution)
    match = None
    if rng is not None:
        match = rules.new_match(players=len(taken), options=rules.parse_options(session.options), rng=rng)
        store_match(session, match)
    session.seat_count = len(taken)
    session.with_computers = any(seat.computer for seat in taken)
    session.status = GameSession.Status.PLAYING
    session.started = timezone.now()
    state = deal_next(session, match, taken, number=1, rng=rng)[1]
    turn_begin(session, taken, state.to_act, **pace(state))
    previous_tell(previous)  # its invitation to this table is over
    table_changed(session)
    turn_news(session, taken)
    return session


@transaction.atomic
def session_abandon(*, session_id: int, user: User | None = None) -> GameSession:
    """End a session unplayed or unfinished: by an admin (no ``user``), or by the host before it starts."""
    previous = previous_locked(session_id)
    session = locked_session(session_id)
    if session.status in (GameSession.Status.FINISHED, GameSession.Status.ABANDONED, GameSession.Status.CLOSED):
        raise TableError(_("This session is already over."))
    if user is not None:
        host_only(session, user)
        if session.status != GameSession.Status.WAITING:
            raise TableError(_("A session in play cannot be closed by the host."), code="not_waiting")
    started = session.status != GameSession.Status.WAITING
    session.status = GameSession.Status.ABANDONED if started else GameSession.Status.CLOSED
    session.finished = timezone.now()
    fair.seed_drop(session)
    duplicate.tries_end(session)
    if started:
        tournaments.table_abandoned(session)
    session.to_act = session.turn_since = session.deadline = session.due = None
    previous_tell(previous)
    return table_changed(session)


CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # none that are read as another (0/O, 1/I)
CODE_LENGTH = 6


def _new_code() -> str:
    """A private table's code: short enough to say aloud, too many to guess (32**6, about a billion)."""
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not GameSession.objects.filter(code=code).exists():
            return code


def _room_for_another(host: User) -> None:
    """One host keeps at most ``FEMKORT_WAITING_TABLES_PER_HOST`` tables waiting, so nobody can
    fill the lobby; the host's row is locked, so tables opened at once are counted one by one."""
    User.objects.select_for_update().filter(pk=host.pk).first()
    limit = settings.FEMKORT_WAITING_TABLES_PER_HOST
    open_tables = GameSession.objects.filter(host=host, status=GameSession.Status.WAITING).exclude(
        pk__in=idle_waiting(waiting_cutoff()).values("pk")
    )
    if open_tables.count() >= limit:
        message = ngettext(
            "You already have %(count)d table waiting for players: start it or close it first.",
            "You already have %(count)d tables waiting for players: start or close one of them first.",
            limit,
        )
        raise TableError(message % {"count": limit}, code="too_many_tables")


@transaction.atomic
def tables_expire() -> list[int]:
    """Close the waiting tables left idle for ``FEMKORT_WAITING_EXPIRE_SECONDS`` (no change, none
    of their people around); called by every process's sweep. Returns the tables closed."""
    idle = list(idle_waiting(waiting_cutoff()).select_for_update(skip_locked=True).values_list("pk", flat=True))
    closed = []
    for session in GameSession.objects.filter(pk__in=idle, status=GameSession.Status.WAITING):
        session.status = GameSession.Status.CLOSED
        session.finished = timezone.now()
        fair.seed_drop(session)  # no deal will come: no commitment stays on show
        table_changed(session)
        closed.append(session.pk)
    return closed


@transaction.atomic
def session_rematch(*, session_id: int, user: User) -> GameSession:
    """Play again: a new table with the same game, options, clock and seats, computers included.

    The other people's seats are kept for them (they see an invitation on the finished
    table) for ``FEMKORT_REMATCH_HOLD_SECONDS``, or until they decline; then anyone may sit.
    Asking twice gives the same new table.
    """
    session = locked_session(session_id)
    if session.status != GameSession.Status.FINISHED:
        raise TableError(_("Only a finished session can be played again."), code="not_finished")
    if session.event_id is not None:
        raise TableError(_("An event's deals are played once by each player."), code="event")
    if not rights.may_rematch(session, user.pk):
        host_only(session, user)
    if session.rematch_id is not None:
        return session.rematch
    again = table_like(session, user)
    fair.seed_draw(again, 1)
    again.save(update_fields=["next_commitment"])
    session.rematch = again
    table_changed(session)
    return again


def table_like(session: GameSession, user: User, *, rotated: bool = False, **fields: object) -> GameSession:
    """A new table like ``session`` (game, options, clock, pace, privacy, computers), opened by ``user``
    (who takes their seat) with each other person's seat kept for them; ``rotated``: everyone one
    seat on. Counted against the host's waiting tables."""
    _room_for_another(user)
    again = GameSession.objects.create(
        game=session.game,
        options=session.options,
        seat_count=session.seat_count,
        host=user,
        turn_seconds=session.turn_seconds,
        pace_seconds=session.pace_seconds,
        active=timezone.now(),
        unlisted=session.unlisted,
        code=_new_code() if session.unlisted else None,
        **fields,
    )
    seats = list(session.seats.all())
    Seat.objects.bulk_create(
        Seat(
            session=again,
            position=(seat.position + 1) % len(seats) if rotated else seat.position,
            user=user if seat.user_id == user.pk else None,
            beginner_partner=seat.beginner_partner and seat.user_id == user.pk,
            computer=seat.computer,
            invited_id=seat.user_id if seat.user_id not in (None, user.pk) else None,
        )
        for seat in seats
    )
    return again


@transaction.atomic
def rematch_decline(*, session_id: int, user: User) -> GameSession:
    """Say no to playing again: the seat kept for you at the new table opens to anyone."""
    session = locked_session(session_id)
    if session.rematch_id is None:
        raise TableError(_("Nobody has asked to play this session again."), code="no_rematch")
    again = locked_session(session.rematch_id)
    if not again.seats.filter(invited=user).update(invited=None):
        raise TableError(_("No seat is kept for you at the new table."), code="not_invited")
    table_changed(again)
    return table_changed(session)
