"""Between stored rows and engine objects: a deal's state is its hands replayed with its plays."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Match, get_game
from games.engine.base import DealState

from .models import Deal, GameSession, Seat


def deal_state(deal: Deal, cards: Sequence[str] | None = None) -> DealState:
    """The deal now: its dealt hands with every stored play (or just ``cards``) applied, in order."""
    game = get_game(deal.session.game)
    options = game.parse_options(deal.options)
    state = game.start(dealt=deal.hands, dealer=deal.dealer, options=options, trump=deal.trump or None)
    for card in deal.plays.values_list("action", flat=True) if cards is None else cards:
        state = state.apply(card)
    return state


def match_of(session: GameSession, seats: Sequence[Seat]) -> Match:
    """The session's match as its game reads it back from the stored record."""
    game = get_game(session.game)
    return game.match_from_record(session.match, players=len(seats), options=game.parse_options(session.options))


def store_match(session: GameSession, match: Match) -> None:
    """Write the match into ``session`` (the caller saves it)."""
    session.match = match.to_record()
