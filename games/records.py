"""Between stored rows and engine objects: a deal's state is its hands replayed with its plays."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import LETZTER_STICH, FemkortMatch, LetzterStichMatch, Match, get_game
from games.engine.base import DealState

from .models import Deal, GameSession, Seat


def deal_state(deal: Deal, cards: Sequence[str] | None = None) -> DealState:
    """The deal now: its dealt hands with every stored play (or just ``cards``) applied, in order."""
    game = get_game(deal.session.game)
    options = game.parse_options(deal.options)
    state = game.start(dealt=deal.hands, dealer=deal.dealer, options=options, trump=deal.trump or None)
    for card in deal.plays.values_list("card", flat=True) if cards is None else cards:
        state = state.play(card)
    return state


def match_of(session: GameSession, seats: Sequence[Seat]) -> Match:
    """The session's match as the engine sees it, from the columns that hold it between deals."""
    game = get_game(session.game)
    options = game.parse_options(session.options)
    if session.game == LETZTER_STICH.name:
        return LetzterStichMatch(
            players=len(seats),
            options=options,
            dealer=session.dealer,
            tokens=tuple(seat.chips for seat in seats),
            pot=session.pot,
        )
    chips = tuple(seat.chips for seat in seats) if options.pot else None
    return FemkortMatch(
        players=len(seats),
        options=options,
        dealer=session.dealer,
        wins=tuple(seat.wins for seat in seats),
        chips=chips,
        tiebreak=tuple(session.tiebreak) if session.tiebreak else None,
    )


def store_match(session: GameSession, seats: Sequence[Seat], match: Match) -> None:
    """Write the match back (the caller saves ``session``); seats are saved here."""
    session.dealer = match.dealer
    if isinstance(match, LetzterStichMatch):
        session.pot = match.pot
        chips: Sequence[int | None] = match.tokens
        wins: Sequence[int] = [seat.wins for seat in seats]
    else:
        session.tiebreak = list(match.tiebreak) if match.tiebreak else None
        chips = match.chips if match.chips is not None else [None] * len(seats)
        wins = match.wins
    for seat, seat_wins, seat_chips in zip(seats, wins, chips, strict=True):
        if (seat.wins, seat.chips) != (seat_wins, seat_chips):
            seat.wins, seat.chips = seat_wins, seat_chips
            seat.save(update_fields=["wins", "chips"])
