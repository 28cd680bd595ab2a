"""Between stored rows and engine objects: a deal's state is its hands replayed with its plays."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Match, TrickGame, get_game
from games.engine.tricks.deal import REDEAL_YES, DealState

from .models import Deal, GameSession, Seat

MIN_SEATS, MAX_SEATS = 2, 10  # a table's seats, within its game's own limits


def seat_limits(rules: TrickGame) -> tuple[int, int]:
    """The fewest and most seats a table of this game may have."""
    return max(MIN_SEATS, rules.min_players), min(MAX_SEATS, rules.max_players)


def players_needed(game: str) -> int:
    """Seats that must be filled before a session of ``game`` starts."""
    return seat_limits(get_game(game))[0]


def deal_state(deal: Deal, actions: Sequence[str | tuple[int, str]] | None = None) -> DealState:
    """The deal now: its dealt hands with every stored action (or just ``actions``: cards, or
    (seat, action) pairs) applied, in order. The seat matters for asking for new cards, which
    anyone may do out of turn."""
    game = get_game(deal.session.game)
    options = game.parse_options(deal.options)
    upcard = {"upcard": deal.upcard} if deal.upcard else {}
    state = game.start(dealt=deal.hands, dealer=deal.dealer, options=options, trump=deal.trump or None, **upcard)
    for item in deal.plays.values_list("seat", "action") if actions is None else actions:
        seat, action = item if isinstance(item, tuple) else (None, item)
        state = state.apply(action, seat=seat if action == REDEAL_YES else None)
    return state


def match_of(session: GameSession, seats: Sequence[Seat]) -> Match:
    """The session's match as its game reads it back from the stored record."""
    game = get_game(session.game)
    return game.match_from_record(session.match, players=len(seats), options=game.parse_options(session.options))


def store_match(session: GameSession, match: Match) -> None:
    """Write the match into ``session`` (the caller saves it)."""
    session.match = match.to_record()
