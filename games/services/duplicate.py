"""Duplicate play: deals everyone plays from the same seat, each at a table of their own with strong
computer players, scored against everyone else who held the same cards.

A ``DuplicateEvent`` is the daily deal of a game (one deal, one UTC day; made on demand, with the next
day's, so each day's commitment is on show the day before) or an event someone opened (a few deals,
a window of time). Each of its ``Board``s is dealt from a seed of its own, committed to when the
event is made and shown once the event reveals, exactly as the first deal of a table: the first
dealer and the cards come from the same stream, so every board verifies like any other deal.

Nothing of an event reaches anyone before they have played it: its tables are private, and
their deals, replays, reviews and results open to a person only once their own table at the event
is over (leaving counts), or to everyone once the event reveals.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import asdict
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import tasks
from games.engine import GAMES, get_game
from games.engine.fair import FairShuffle, commitment, new_seed
from games.engine.game import State
from games.matchpoints import Field
from games.models import Board, BoardResult, BoardTally, Deal, DuplicateEvent, GameSession, LadderStanding, Seat
from games.stored import usual_seats

from .errors import TableError
from .fair import Shuffle

OPEN = (GameSession.Status.WAITING, GameSession.Status.PLAYING)  # a table whose try is not over yet
PLAYER_SEAT = 0  # everyone plays an event's deals from the same seat
COMPUTER_LEVEL = "strong"
DAILY_GRACE = timedelta(hours=1)  # a daily deal started just before midnight may still be finished
EVENT_DEALS = range(1, 13)
EVENT_WINDOWS = (3600, 3 * 3600, 24 * 3600)  # seconds an event stays open for new tables
OPEN_EVENTS_PER_CREATOR = 3


def duplicate_now() -> datetime:
    """The events' clock: ``FEMKORT_CLOCK_SHIFT_SECONDS`` moves it (tests and rehearsals of a day's close)."""
    return timezone.now() + timedelta(seconds=settings.FEMKORT_CLOCK_SHIFT_SECONDS)


def today() -> date:
    return duplicate_now().astimezone(UTC).date()


def round_deals(*, game: str, options: dict, players: int, deal_count: int, name: str) -> DuplicateEvent:
    """The deals every table of a duplicate tournament's round plays: an event of their own, private,
    revealed (by its tournament) once the round's last table ends."""
    now = duplicate_now()
    far = now + timedelta(days=366)
    event = DuplicateEvent.objects.create(
        game=game,
        options=options,
        players=players,
        deal_count=deal_count,
        name=name[:60],
        unlisted=True,
        opens=now,
        closes=far,
        reveals=far,
    )
    _boards_make(event, reveal_queued=False)
    return event


def round_reveal(event: DuplicateEvent) -> None:
    """A duplicate round is over: its deals and results open to everyone, its percentages fixed (its
    reveal's task, queued here, in the caller's transaction)."""
    event.closes = event.reveals = duplicate_now()
    event.save(update_fields=["closes", "reveals"])
    tasks.event_reveal.enqueue(event.pk)


def percents_of(event: DuplicateEvent) -> dict[int, list[float]]:
    """Each player's matchpoint percentages at the event's deals so far (a deal left unfinished: 0;
    alone at a seat: 50), read from the tallies."""
    fields: dict[tuple[int, int], Field] = {}
    counts: dict[tuple[int, int], dict[float, int]] = {}
    for tally in BoardTally.objects.filter(board__event=event):
        counts.setdefault((tally.board_id, tally.seat), {})[tally.value] = tally.count
    fields = {key: Field(values) for key, values in counts.items()}
    found: dict[int, list[float]] = {}
    for result in BoardResult.objects.filter(board__event=event):
        if result.value is None:
            percent = 0.0
        else:
            percent = fields[(result.board_id, result.seat)].percent(result.value)
            percent = 50.0 if percent is None else percent
        found.setdefault(result.user_id, []).append(percent)
    return found


def board_identity(event: DuplicateEvent, number: int) -> str:
    """What a board's commitment names besides its seed."""
    if event.day is not None:
        return f"daily {event.day.isoformat()} {event.game}"
    return f"event {event.pk} deal {number}"


def _boards_make(event: DuplicateEvent, *, reveal_queued: bool = True) -> None:
    """Draw each board's seed and commit to it, and queue the event's reveal for its time in this
    transaction. A board's references (the computer's result, par) are queued when someone first
    plays it (``event_shuffle``): a day's boards nobody plays cost no search."""
    if reveal_queued:  # else its owner queues it (a tournament's round reveals when its last table ends)
        shift = timedelta(seconds=settings.FEMKORT_CLOCK_SHIFT_SECONDS)
        tasks.event_reveal.using(run_after=event.reveals - shift).enqueue(event.pk)
    for number in range(1, event.deal_count + 1):
        seed = new_seed()
        Board.objects.create(
            event=event, number=number, seed=seed.hex(), commitment=commitment(seed, board_identity(event, number))
        )


def daily_event(game: str, day: date) -> DuplicateEvent:
    """The daily deal of ``game`` on ``day``, made the first time anyone asks (one per day and game)."""
    event = DuplicateEvent.objects.filter(day=day, game=game).first()
    if event is not None:
        return event
    rules = get_game(game)
    opens = datetime.combine(day, time(0), tzinfo=UTC)
    try:
        with transaction.atomic():
            event = DuplicateEvent.objects.create(
                game=game,
                options=asdict(rules.parse_options({})),
                players=usual_seats(rules),
                day=day,
                opens=opens,
                closes=opens + timedelta(days=1),
                reveals=opens + timedelta(days=1) + DAILY_GRACE,
            )
            _boards_make(event)
    except IntegrityError:  # made by another request at the same moment
        return DuplicateEvent.objects.get(day=day, game=game)
    return event


def dailies(day: date) -> list[DuplicateEvent]:
    """Every game's daily deal on ``day``, in the games' order (made where missing)."""
    games = [name for name, rules in GAMES.items() if rules.on_site]
    found = {event.game: event for event in DuplicateEvent.objects.filter(day=day, game__in=games)}
    return [found.get(game) or daily_event(game, day) for game in games]


@transaction.atomic
def event_create(
    *, user: User, game: str, deal_count: int, window_seconds: int, name: str = "", unlisted: bool = False
) -> DuplicateEvent:
    """A duplicate event of ``deal_count`` deals, open for new tables for ``window_seconds`` from now.
    A creator has at most ``OPEN_EVENTS_PER_CREATOR`` open at once (counted under their row lock)."""
    rules = GAMES.get(game)
    if rules is None or not rules.on_site:
        raise TableError(_("Unknown game."))
    if deal_count not in EVENT_DEALS:
        raise TableError(
            _("An event has %(low)d to %(high)d deals.") % {"low": EVENT_DEALS[0], "high": EVENT_DEALS[-1]},
            code="deals",
        )
    if window_seconds not in EVENT_WINDOWS:
        raise TableError(_("Unknown length for an event."), code="window")
    User.objects.select_for_update().filter(pk=user.pk).first()
    now = duplicate_now()
    if DuplicateEvent.objects.filter(creator=user, closes__gt=now).count() >= OPEN_EVENTS_PER_CREATOR:
        raise TableError(
            _("You already have %(count)d events open; wait until one closes.") % {"count": OPEN_EVENTS_PER_CREATOR},
            code="too_many_events",
        )
    window = timedelta(seconds=window_seconds)
    event = DuplicateEvent.objects.create(
        game=game,
        options=asdict(rules.parse_options({})),
        players=usual_seats(rules),
        deal_count=deal_count,
        name=name.strip()[:60],
        creator=user,
        unlisted=unlisted,
        code=_event_code() if unlisted else None,
        opens=now,
        closes=now + window,
        reveals=now + window + min(window, DAILY_GRACE),
    )
    _boards_make(event)
    return event


def _event_code() -> str:
    from .tables import CODE_LENGTH, CODE_LETTERS

    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not DuplicateEvent.objects.filter(code=code).exists():
            return code


@transaction.atomic
def event_play(*, user: User, event_id: int) -> GameSession:
    """``user``'s table at the event: the one in play, else a new one (their one try), started at once
    with strong computers in the other seats. Under the player's row lock, so clicks at once find the
    table the first one made; each board's one try per person is a constraint besides."""
    from .tables import session_start

    event = DuplicateEvent.objects.filter(pk=event_id).first()
    if event is None:
        raise TableError(_("No such event."), code="not_found")
    User.objects.select_for_update().filter(pk=user.pk).first()
    mine = GameSession.objects.filter(event=event, seats__user=user).first()
    if mine is not None:
        if mine.status == GameSession.Status.PLAYING:
            return mine
        raise TableError(_("You have played this already: one try each."), code="played")
    now = duplicate_now()
    if now < event.opens:
        raise TableError(_("This event has not opened yet."), code="not_open")
    if now >= event.closes:
        raise TableError(_("This event is closed: no new tables."), code="closed")
    session = GameSession.objects.create(
        game=event.game,
        options=event.options,
        seat_count=event.players,
        host=user,
        unlisted=True,
        event=event,
        chat_on=False,  # one person's table: nobody to talk to, and nothing to tell who has not played
        active=timezone.now(),
    )
    Seat.objects.bulk_create(
        Seat(
            session=session,
            position=position,
            user=user if position == PLAYER_SEAT else None,
            computer="" if position == PLAYER_SEAT else COMPUTER_LEVEL,
        )
        for position in range(event.players)
    )
    return session_start(session_id=session.pk, user=user)


# -- a table of the event: its deals, its computers, its results -----------------------------------


def _board_now(session: GameSession) -> Board:
    """The board the table deals next: the one still unfinished (dealt again by agreement: the same
    cards again), else the next."""
    unfinished = (
        BoardResult.objects.filter(session=session, value__isnull=True, left=False).select_related("board").first()
    )
    if unfinished is not None:
        return unfinished.board
    done = BoardResult.objects.filter(session=session).values("board").distinct().count()
    return Board.objects.get(event_id=session.event_id, number=done + 1)


def event_shuffle(session: GameSession, seats: list[Seat]) -> Shuffle:
    """The next board's stream (no contributions: the same for every table) and its record; the
    table's people each get their one try at it here (``board_try_once``)."""
    board = _board_now(session)
    for seat in seats:
        if seat.user_id and not seat.computer:
            try:
                with transaction.atomic():
                    tried, _made = BoardResult.objects.get_or_create(
                        board=board, user_id=seat.user_id, defaults={"seat": seat.position, "session": session}
                    )
            except IntegrityError:
                tried = None
            if tried is None or tried.session_id != session.pk or tried.left:  # a try had at another table
                raise TableError(_("You have played this already: one try each."), code="played")
            if (
                _made
                and not board.references
                and not BoardResult.objects.filter(board=board).exclude(pk=tried.pk).exists()
            ):
                tasks.board_references.enqueue(board.pk)  # its first player: the references are wanted now
    contributions = [""] * len(seats)
    fair = {
        "stream": "fair-shuffle-v1",
        "identity": board_identity(session.event, board.number),
        "commitment": board.commitment,
        "seed": board.seed,
        "contributions": contributions,
        "board": board.pk,
    }
    return Shuffle(FairShuffle(bytes.fromhex(board.seed), contributions), fair)


def next_commitment(session: GameSession, number: int) -> str:
    """The commitment on show for the table's next deal (none after its last)."""
    board = Board.objects.filter(event_id=session.event_id, number=number).only("commitment").first()
    return board.commitment if board is not None else ""


def last_deal(session: GameSession) -> bool:
    """Every board of the event has been played at this table."""
    return (
        not BoardResult.objects.filter(session=session, value__isnull=True, left=False).exists()
        and BoardResult.objects.filter(session=session).values("board").distinct().count() >= session.event.deal_count
    )


def computer_rng(deal: Deal, position: int, state: State) -> random.Random:
    """The same decision at every table of the board: the computer's randomness follows from the
    board's seed, the seat and how far the deal has come, and what it sees does the rest."""
    return _board_rng(deal.fair.get("seed", ""), position, state)


def _board_rng(seed: str, position: int, state: State) -> random.Random:
    return random.Random(hashlib.sha256(f"{seed}:{position}:{state.action_count}".encode()).digest())


def deal_scored(session: GameSession, seats: list[Seat], state: State) -> None:
    """A board's deal ended: each person who played their own seat to the end gets its value, counted
    in the board's tally (one row updated: the field is never read again); one who left gets none."""
    outcome = state.outcome()
    now = timezone.now()
    for result in BoardResult.objects.filter(session=session, value__isnull=True, left=False):
        seat = next(seat for seat in seats if seat.position == result.seat)
        if seat.left or seat.user_id != result.user_id:
            result.left, result.finished = True, now
            result.save(update_fields=["left", "finished"])
            continue
        result.value, result.finished = float(outcome.values[result.seat]), now
        result.save(update_fields=["value", "finished"])
        tally_add(result.board_id, result.seat, result.value)


def tally_add(board_id: int, seat: int, value: float) -> None:
    counted = BoardTally.objects.filter(board_id=board_id, seat=seat, value=value).update(count=F("count") + 1)
    if counted:
        return
    try:
        with transaction.atomic():
            BoardTally.objects.create(board_id=board_id, seat=seat, value=value, count=1)
    except IntegrityError:  # another result made the row first
        BoardTally.objects.filter(board_id=board_id, seat=seat, value=value).update(count=F("count") + 1)


def tries_end(session: GameSession, user_id: int | None = None) -> int:
    """The table ended unfinished, or ``user_id`` left it: their open tries count as played."""
    tries = BoardResult.objects.filter(session=session, value__isnull=True, left=False)
    if user_id is not None:
        tries = tries.filter(user_id=user_id)
    return tries.update(left=True, finished=timezone.now())


def fair_shown(session: GameSession, fair: dict[str, Any]) -> dict[str, Any]:
    """A deal's shuffle as its pages may show it: an event's seed stays secret until it reveals."""
    if session.event_id is None or not fair or revealed(session.event):
        return fair
    return {key: value for key, value in fair.items() if key != "seed"}


# -- who may see what -----------------------------------------------------------------------------


def revealed(event: DuplicateEvent) -> bool:
    """Everything of the event is public: its time to reveal has come and no table of it is in play
    (the reveal's task ends those first, so nobody learns the seed of a deal in front of them). Only
    reads: a page never ends anyone's table."""
    if event.settled:
        return True
    if duplicate_now() < event.reveals:
        return False
    return not GameSession.objects.filter(event=event, status=GameSession.Status.PLAYING).exists()


@transaction.atomic
def percents_fix(event: DuplicateEvent) -> None:
    """Once the event reveals its field is final: each result's percentage is written, once, for the
    monthly ladder (one update per seat and value)."""
    locked = DuplicateEvent.objects.select_for_update().get(pk=event.pk)
    if locked.settled:
        return
    counts: dict[tuple[int, int], dict[float, int]] = {}
    for tally in BoardTally.objects.filter(board__event=event):
        counts.setdefault((tally.board_id, tally.seat), {})[tally.value] = tally.count
    for (board_id, seat), values in counts.items():
        field = Field(values)
        for value in values:
            BoardResult.objects.filter(board_id=board_id, seat=seat, value=value).update(percent=field.percent(value))
    if event.day is not None:  # a daily deal counts on its month's ladder
        month = event.day.replace(day=1)
        for user_id, percent in BoardResult.objects.filter(board__event=event, percent__isnull=False).values_list(
            "user_id", "percent"
        ):
            _ladder_add(event.game, month, user_id, percent)
    locked.settled = event.settled = True
    locked.save(update_fields=["settled"])


def _ladder_add(game: str, month: date, user_id: int, percent: float) -> None:
    """One more deal on a player's month (the event's row lock keeps each reveal to one pass)."""
    row, _made = LadderStanding.objects.get_or_create(game=game, month=month, user_id=user_id)
    LadderStanding.objects.filter(pk=row.pk).update(deals=F("deals") + 1, percent_sum=F("percent_sum") + percent)


@transaction.atomic
def tables_end(event: DuplicateEvent) -> int:
    """End the event's tables still in play once it reveals: their open tries count as played."""
    from .locks import locked_session
    from .turns import session_end_abandoned

    ended = 0
    for session_id in GameSession.objects.filter(event=event, status=GameSession.Status.PLAYING).values_list(
        "pk", flat=True
    ):
        session = locked_session(session_id)
        if session.status == GameSession.Status.PLAYING:
            session_end_abandoned(session)
            ended += 1
    return ended


def played_by(event: DuplicateEvent, user: Any) -> bool:
    """``user``'s own table at the event is over (finished, or left): its results are theirs to see."""
    if user is None or not user.is_authenticated:
        return False
    return GameSession.objects.filter(event=event, seats__user=user).exclude(status__in=OPEN).exists()


def may_see_table(session: GameSession, user: Any) -> bool:
    """Someone else's table at the event: staff, everyone once it reveals, and whoever has tried every
    one of its deals (left ones count): one who left at the first deal sees no other table's later deals."""
    event = session.event
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    if revealed(event):
        return True
    if user is None or not user.is_authenticated or not played_by(event, user):
        return False
    return BoardResult.objects.filter(board__event=event, user=user).count() >= event.deal_count


def boards_tried(event: DuplicateEvent, user: Any) -> set[int]:
    """The numbers of the event's deals ``user`` has had their try at."""
    if user is None or not user.is_authenticated:
        return set()
    return set(BoardResult.objects.filter(board__event=event, user=user).values_list("board__number", flat=True))


def may_see_event(event: DuplicateEvent, user: Any, mine: GameSession | None = None) -> bool:
    """The event's results, tables, replays and reviews: for who played it, staff, and, once it
    reveals, everyone. ``mine``: the person's own table at the event, where the caller has it."""
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    done = mine.status not in OPEN if mine is not None else played_by(event, user)
    return done or revealed(event)


def reveal(event_id: int) -> str:
    """The event's time to reveal has come (its task): end its tables still in play, compute any
    reference still missing, fix its percentages. Run too early (the clock moved), it queues itself
    again for the time."""
    event = DuplicateEvent.objects.get(pk=event_id)
    if event.settled:
        return "revealed already"
    if duplicate_now() < event.reveals:
        shift = timedelta(seconds=settings.FEMKORT_CLOCK_SHIFT_SECONDS)
        tasks.event_reveal.using(run_after=event.reveals - shift).enqueue(event.pk)
        return "not yet"
    tables_end(event)
    for board_id in event.boards.filter(references=False).values_list("pk", flat=True):
        references_compute(board_id)  # its own task failed or has not run: the export needs its play
    percents_fix(event)
    return "revealed"


# -- the references beside the field -------------------------------------------------------------

PAR_NODES = 400_000  # the open-hand search's budget for a whole deal; a larger deal has no par


def board_start(board: Board) -> State:
    """The board as dealt: the first deal of a new session from its seed, as at every table."""
    event = board.event
    rules = get_game(event.game)
    stream = FairShuffle(bytes.fromhex(board.seed), [""] * event.players)
    match = rules.new_match(players=event.players, options=rules.parse_options(event.options), rng=stream)
    return rules.start(rules.setup(match, stream))


def references_compute(board_id: int) -> str:
    """What strong computers make of the board at every seat (the same decisions as at the tables),
    and the player's seat's par: its best with every card visible against any defence. Once."""
    from games.bots import decide
    from games.bots.deal_analysis import Search, TooLarge

    board = Board.objects.select_related("event").get(pk=board_id)
    if board.references:
        return "done already"
    event = board.event
    rules = get_game(event.game)
    state = board_start(board)
    first = state
    actions = []
    while not state.is_over:
        seat = state.to_act
        action = decide(COMPUTER_LEVEL, state.view(seat), _board_rng(board.seed, seat, state))
        actions.append([seat, action])
        state = state.apply(action, seat=seat)
    values = state.outcome().values
    side = frozenset(rules.partners(PLAYER_SEAT, event.players, rules.parse_options(event.options)))
    try:
        par: float | None = Search(PLAYER_SEAT, side, PAR_NODES).value(first)
    except TooLarge:
        par = None
    Board.objects.filter(pk=board.pk, references=False).update(
        computer={str(seat): float(value) for seat, value in enumerate(values)},
        computer_actions=actions,
        par={str(PLAYER_SEAT): par},
        references=True,
    )
    return f"computer {values[PLAYER_SEAT]}, par {par}"
