"""Reads for the duplicate pages: the daily deals, an event's results and standings, the monthly
ladder, a player's streak, and two tables of the same deals side by side (``matchpoints.Field``
scores them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import pairwise
from typing import Any

from django.db.models import F, Q

from .engine import get_game
from .engine.fair import FairShuffle
from .matchpoints import Field
from .models import Board, BoardResult, BoardTally, Deal, DuplicateEvent, GameSession, LadderStanding, Seat
from .services import duplicate
from .stored import deal_start, deal_state

RESULTS_PER_PAGE = 50
LADDER_MIN_DEALS = 5


def fields_of(boards: list[Board]) -> dict[tuple[int, int], Field]:
    counts: dict[tuple[int, int], dict[float, int]] = defaultdict(dict)
    for tally in BoardTally.objects.filter(board__in=boards):
        counts[tally.board_id, tally.seat][tally.value] = tally.count
    return defaultdict(lambda: Field({}), {key: Field(value) for key, value in counts.items()})


@dataclass
class ResultRow:
    rank: int
    name: str
    username: str
    value: float
    percent: float | None
    session_id: int
    mine: bool = False


@dataclass
class Reference:
    value: float | None
    percent: float | None


@dataclass
class BoardPage:
    board: Board
    rows: list[ResultRow]
    size: int
    page: int
    pages: int
    mine: ResultRow | None
    computer: Reference
    par: Reference
    left: int = 0


def board_page(board: Board, user: Any, page: int = 1) -> BoardPage:
    """One board's results from the players' seat, best first, a page at a time, with the viewer's own
    and the two references (the strong computer's result and par) placed in the field."""
    seat = duplicate.PLAYER_SEAT
    played = Field({t.value: t.count for t in BoardTally.objects.filter(board=board, seat=seat)})
    pages = max(1, -(-played.size // RESULTS_PER_PAGE))
    page = min(max(1, page), pages)
    finished = BoardResult.objects.filter(board=board, seat=seat, value__isnull=False)
    chunk = finished.select_related("user").order_by("-value", "pk")[
        (page - 1) * RESULTS_PER_PAGE : page * RESULTS_PER_PAGE
    ]

    def row(result: BoardResult) -> ResultRow:
        return ResultRow(
            played.rank(result.value),
            result.user.name,
            result.user.username,
            result.value,
            played.percent(result.value),
            result.session_id,
            mine=result.user_id == getattr(user, "pk", None),
        )

    rows = [row(result) for result in chunk]
    own = next((r for r in rows if r.mine), None)
    if own is None and getattr(user, "is_authenticated", False):
        result = finished.select_related("user").filter(user=user).first()
        own = row(result) if result is not None else None

    def reference(value: float | None) -> Reference:
        return Reference(value, played.percent(value, member=False) if value is not None else None)

    return BoardPage(
        board,
        rows,
        played.size,
        page,
        pages,
        own,
        reference(board.computer.get(str(seat))),
        reference(board.par.get(str(seat))),
    )


@dataclass
class Standing:
    name: str
    username: str
    matchpoints: float = 0.0
    most: float = 0.0  # the matchpoints the deals played could have given
    deals: int = 0
    playing: bool = False
    mine: bool = False

    @property
    def percent(self) -> float | None:
        return round(100 * self.matchpoints / self.most, 1) if self.most else None


def event_standings(event: DuplicateEvent, user: Any) -> list[Standing]:
    """Each player's matchpoints over the deals they have finished, most first (live: a result
    that arrives counts at once)."""
    boards = list(event.boards.all())
    fields = fields_of(boards)
    by_user: dict[int, Standing] = {}
    results = BoardResult.objects.filter(board__event=event).select_related("user", "session")
    for result in results:
        standing = by_user.setdefault(
            result.user_id,
            Standing(result.user.name, result.user.username, mine=result.user_id == getattr(user, "pk", None)),
        )
        standing.playing = standing.playing or result.session.status == GameSession.Status.PLAYING
        if result.value is None:
            continue
        played = fields[result.board_id, result.seat]
        standing.matchpoints += played.matchpoints(result.value)
        standing.most += max(played.size - 1, 0)
        standing.deals += 1
    return sorted(by_user.values(), key=lambda s: (-s.matchpoints, -(s.percent or 0), s.name))


@dataclass
class DailyRow:
    event: DuplicateEvent
    mine: GameSession | None
    played: bool
    tomorrow: str  # tomorrow's commitment, on show today


def daily_rows(user: Any, day: date) -> list[DailyRow]:
    events = duplicate.dailies(day)
    tomorrow = {event.game: event for event in duplicate.dailies(day + timedelta(days=1))}
    commitments = {
        board.event_id: board.commitment for board in Board.objects.filter(event__in=list(tomorrow.values()))
    }
    mine: dict[int, GameSession] = {}
    if getattr(user, "is_authenticated", False):
        for session in GameSession.objects.filter(event__in=events, seats__user=user):
            mine[session.event_id] = session
    rows = []
    for event in events:
        session = mine.get(event.pk)
        played = session is not None and session.status != GameSession.Status.PLAYING
        rows.append(DailyRow(event, session, played, commitments.get(tomorrow[event.game].pk, "")))
    return rows


def revealed_dailies(day: date) -> list[tuple[DuplicateEvent, Board]]:
    """A closed day's deals with their seeds (only once revealed)."""
    rows = []
    for event in DuplicateEvent.objects.filter(day=day).order_by("game"):
        if duplicate.revealed(event):
            rows.extend((event, board) for board in event.boards.all())
    return rows


def event_export(event: DuplicateEvent) -> list[dict]:
    """Each board as strong computers played it at every seat, with everything to verify it:
    a list of deals ``python -m games.engine verify`` checks (only once the event reveals)."""
    rules = get_game(event.game)
    records = []
    for board in event.boards.all():
        first = duplicate.board_start(board)
        state = first
        for seat, action in board.computer_actions:
            state = state.apply(action, seat=seat)
        if not state.is_over:
            continue  # its references are still being computed
        match = rules.new_match(
            players=event.players,
            options=rules.parse_options(event.options),
            rng=FairShuffle(bytes.fromhex(board.seed), [""] * event.players),
        )
        record = state.public_record() | rules.record_context(match)
        record["fair"] = {
            "stream": "fair-shuffle-v1",
            "identity": duplicate.board_identity(event, board.number),
            "commitment": board.commitment,
            "seed": board.seed,
            "contributions": [""] * event.players,
            "players": event.players,
            "options": event.options,
            "match": match.to_record(),
            "first": True,
        }
        records.append(record)
    return records


@dataclass
class LadderRow:
    name: str
    username: str
    deals: int
    percent: float


def ladder(game: str, month: date, least: int = LADDER_MIN_DEALS) -> list[LadderRow]:
    """The month's daily deals of ``game`` by average percentage, for who played at least ``least``
    (percentages are fixed when each day reveals)."""
    rows = (
        LadderStanding.objects.filter(game=game, month=month.replace(day=1), deals__gte=least)
        .annotate(average=F("percent_sum") / F("deals"))
        .values("user__username", "user__display_name", "deals", "average")
        .order_by("-average", "-deals")[:100]
    )
    return [
        LadderRow(
            row["user__display_name"] or row["user__username"],
            row["user__username"],
            row["deals"],
            round(row["average"], 1),
        )
        for row in rows
    ]


def streak(user: Any, today: date) -> tuple[int, int]:
    """Days in a row with a daily deal played, and the longest run, counting revealed days only (who
    has played today's deal is nobody's business until it reveals): a run is current when its last
    day is one of the last two."""
    days = sorted(
        set(
            BoardResult.objects.filter(
                user=user, board__event__day__isnull=False, board__event__reveals__lte=duplicate.duplicate_now()
            )
            .filter(Q(value__isnull=False) | Q(left=True))
            .values_list("board__event__day", flat=True)
        ),
        reverse=True,
    )
    longest = run = 0
    current = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and previous - day == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    if days and today - days[0] <= timedelta(days=2):
        current = 1
        for newer, older in pairwise(days):
            if newer - older != timedelta(days=1):
                break
            current += 1
    return current, longest


# -- two tables of the same deals -------------------------------------------------------------------


@dataclass
class SeatCompared:
    seat: int
    names: tuple[str, str]
    values: tuple[float, float]
    matchpoints: tuple[float, float]


@dataclass
class DealCompared:
    number: int
    deals: tuple[Deal, Deal]
    same_cards: bool
    seats: list[SeatCompared] = field(default_factory=list)


@dataclass
class Comparison:
    tables: tuple[GameSession, GameSession]
    deals: list[DealCompared]
    totals: list[tuple[int, float, float]]  # each seat's matchpoints at the first table and at the second


def comparison(again: GameSession) -> Comparison:
    """The first table and the table that dealt its cards again, deal by deal and seat by seat: 1
    matchpoint to the seat that did better with the same cards, ½ each for a tie."""
    first = again.same_deals_as
    tables = (first, again)
    seats = [{seat.position: seat for seat in Seat.objects.filter(session=t).select_related("user")} for t in tables]
    deals = [{deal.number: deal for deal in t.deals.filter(finished__isnull=False)} for t in tables]
    rows, totals = [], defaultdict(float)
    for number in sorted(set(deals[0]) & set(deals[1])):
        pair = (deals[0][number], deals[1][number])
        starts = [deal_start(deal) for deal in pair]
        players = starts[0].view(None).players
        same = all(starts[0].view(seat).hand == starts[1].view(seat).hand for seat in range(players))
        row = DealCompared(number, pair, same)
        ends = [deal_state(deal) for deal in pair]
        if same and all(end.is_over and not end.outcome().again for end in ends):
            for seat in range(players):
                values = (ends[0].outcome().values[seat], ends[1].outcome().values[seat])
                points = (1.0, 0.0) if values[0] > values[1] else (0.0, 1.0) if values[1] > values[0] else (0.5, 0.5)
                names = tuple(seats[i][seat].short_name if seat in seats[i] else "" for i in (0, 1))
                row.seats.append(SeatCompared(seat, names, values, points))
                totals[0, seat] += points[0]
                totals[1, seat] += points[1]
        rows.append(row)
    players = max((len(row.seats) for row in rows), default=0)
    return Comparison(tables, rows, [(seat, totals[0, seat], totals[1, seat]) for seat in range(players)])


@dataclass
class PlayedEvent:
    event: DuplicateEvent
    place: int | None  # None: left before the end, nothing scored
    field: int
    percent: float | None


def events_played(player: Any, viewer: Any, count: int = 5) -> list[PlayedEvent]:
    """The player's last daily deals and events, with their place and percentage: only those the
    viewer may see (a place says how many played, which nobody learns before playing)."""
    sessions = (
        GameSession.objects.filter(event__isnull=False, seats__user=player)
        .exclude(status__in=duplicate.OPEN)
        .select_related("event")
        .order_by("-created")[:count]
    )
    rows = []
    for session in sessions:
        event = session.event
        own = getattr(viewer, "pk", None) == player.pk or getattr(viewer, "is_staff", False)
        if not own and (event.unlisted or not duplicate.may_see_event(event, viewer)):
            continue  # a private event stays private; an open one, until the viewer may see its results
        if event.deal_count == 1:
            result = BoardResult.objects.filter(board__event=event, user=player).first()
            tally = BoardTally.objects.filter(board__event=event, seat=duplicate.PLAYER_SEAT)
            played = Field({t.value: t.count for t in tally})
            if result is None or result.value is None:
                rows.append(PlayedEvent(event, None, played.size, None))
            else:
                rows.append(PlayedEvent(event, played.rank(result.value), played.size, played.percent(result.value)))
            continue
        standings = event_standings(event, viewer)
        place = next((i for i, s in enumerate(standings, 1) if s.username == player.username), None)
        percent = standings[place - 1].percent if place else None
        rows.append(PlayedEvent(event, place, len(standings), percent))
    return rows
