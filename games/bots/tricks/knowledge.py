"""What a seat can infer about the hidden hands from everything played so far.

Cards turned face up in a hand (the trump card) are that seat's for sure. Two kinds
of fact besides: a player who did not follow the led suit holds none of it (a void);
and under the must-overtake rule, a player who followed *below* the best card of the
led suit held no card of that suit above it (a cap), since they would have had to
overtake. Trumped tricks teach nothing about caps: overtaking is not required there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import get_game
from games.engine.cards import BIT, INDEX, SUIT_MASK
from games.engine.tricks.deal import playing_order
from games.engine.tricks.masks import NO_TRUMP, advance
from games.engine.tricks.seat_view import SeatView


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    unseen: int  # cards not in my hand and not played: in someone's hand, or never dealt
    allowed: dict[int, int]  # per other seat: the unseen cards it may hold
    sizes: dict[int, int]  # per other seat: how many cards it holds
    known: dict[int, int] = field(default_factory=dict)  # per other seat: cards it surely holds (face up)


def infer(view: SeatView) -> Knowledge:
    rules = get_game(view.game)
    deck = sum(BIT[card] for card in rules.deck(len(view.seats)))
    played = sum(BIT[card] for cards in view.played for card in cards)
    mine = sum(BIT[card] for card in view.hand)
    unseen = deck & ~played & ~mine
    overtake = rules.overtake(rules.parse_options(view.options))
    trump = -1 if view.trump is None else "SHDC".index(view.trump)
    excluded = {seat: 0 for seat in view.seats if seat != view.seat}
    tricks = [*view.tricks, *([view.trick] if view.trick and view.trick.cards else [])]
    for trick in tricks:
        state = (0, 0, NO_TRUMP, trick.leader)
        for step, (seat, card) in enumerate(zip(playing_order(view.seats, trick.leader), trick.cards, strict=False)):
            index = INDEX[card]
            led, bar, best, _ = state
            if step and seat in excluded:
                if index // 13 != led:
                    excluded[seat] |= SUIT_MASK[led]
                elif overtake and best == NO_TRUMP and index < bar:
                    excluded[seat] |= SUIT_MASK[led] & ~((1 << (bar + 1)) - 1)
            state = advance(step, index, seat, *state, trump)
    known = {seat: 0 for seat in excluded}
    for seat, card in view.face_up:  # the trump card turned up in the dealer's hand
        if seat in known:
            known[seat] |= BIT[card]
    shown = sum(known.values())
    return Knowledge(
        seat=view.seat,
        unseen=unseen,
        allowed={seat: unseen & ~(mask | shown) | known[seat] for seat, mask in excluded.items()},
        sizes={seat: view.hand_sizes[seat] for seat in excluded},
        known={seat: cards for seat, cards in known.items() if cards},
    )
