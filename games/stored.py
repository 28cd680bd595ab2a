"""Between stored rows and engine objects: a deal's state is its hands replayed with its plays."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Match, get_game
from games.engine.game import Game, State

from .models import Deal, GameSession, Seat

MIN_SEATS, MAX_SEATS = 2, 10  # a table's seats, within its game's own table sizes


def seat_choices(rules: Game) -> tuple[int, ...]:
    """The table sizes a table of this game may have, smallest first."""
    return tuple(sorted(count for count in rules.seat_counts if MIN_SEATS <= count <= MAX_SEATS))


def seat_limits(rules: Game) -> tuple[int, int]:
    """The fewest and most seats a table of this game may have."""
    choices = seat_choices(rules)
    return choices[0], choices[-1]


USUAL_SEATS = 4  # a game played at four is offered at four, else at its smallest table


def usual_seats(rules: Game) -> int:
    """The table size Play now and the daily deal use."""
    return USUAL_SEATS if USUAL_SEATS in rules.seat_counts else min(rules.seat_counts)


def players_needed(game: str) -> int:
    """Seats that must be filled before a session of ``game`` starts."""
    return seat_limits(get_game(game))[0]


def deal_start(deal: Deal) -> State:
    """The deal as dealt, before its first action."""
    return get_game(deal.session.game).start(deal.setup)


def deal_state(deal: Deal, actions: Sequence[str | tuple[int, str]] | None = None) -> State:
    """The deal now: as dealt, with every stored action (or just ``actions``: actions of the seat
    to act, or (seat, action) pairs) applied, in order. The seat matters for actions some seat
    may take out of turn (asking for new cards)."""
    state = deal_start(deal)
    for item in deal.plays.values_list("seat", "action") if actions is None else actions:
        seat, action = item if isinstance(item, tuple) else (None, item)
        state = state.apply(action, seat=seat)
    return state


def match_of(session: GameSession, seats: Sequence[Seat]) -> Match:
    """The session's match as its game reads it back from the stored record."""
    game = get_game(session.game)
    return game.match_from_record(session.match, players=len(seats), options=game.parse_options(session.options))


def sides_of(session: GameSession, players: int) -> tuple[tuple[int, ...], ...]:
    """The seats that win and lose together at this table (partnerships may be a table option)."""
    game = get_game(session.game)
    return game.sides(players, game.parse_options(session.options))


def store_match(session: GameSession, match: Match) -> None:
    """Write the match into ``session`` (the caller saves it)."""
    session.match = match.to_record()
