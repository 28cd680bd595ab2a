"""A trick deal dealt anew where a seat cannot see: the game protocol's ``resample`` for the trick
library. What the seat knows stays as it is (its hand, every card played, cards turned face
up, cards whose place the game says the seat knows: an ordered upcard); the other cards are
shuffled into the other hands, each as many as it holds, and what is left lies in nobody's
hand (a discard, the undealt cards)."""

from __future__ import annotations

import random

from ..cards import BIT
from ..game import View
from .deal import DealState
from .seat_view import HIDDEN_DISCARD, SeatView


def resample(view: View, rng: random.Random) -> DealState:
    seen: SeatView = view.detail
    rules = seen.rules
    played = {card for trick in (*seen.tricks, *([seen.trick] if seen.trick else [])) for card in trick.cards}
    known = rules.known_cards(seen)
    fixed: dict[int, list[str]] = {}
    for seat, card in seen.face_up:
        fixed.setdefault(seat, []).append(card)
    for seat, cards in known.items():
        if seat is not None:
            fixed.setdefault(seat, []).extend(card for card in cards if card not in played)
    placed = set(seen.hand) | played | set(known.get(None, ())) | {card for cards in fixed.values() for card in cards}
    pool = [card for card in rules.deck(seen.players) if card not in placed]
    rng.shuffle(pool)
    hands = []
    for seat in range(seen.players):
        if seat == seen.seat:
            cards = list(seen.hand)
        else:
            # (a card the game places here may have left face down: a hand never holds more than it shows)
            cards = list(dict.fromkeys(fixed.get(seat, ())))[: seen.hand_sizes[seat]]
            need = seen.hand_sizes[seat] - len(cards)
            cards += pool[:need]
            del pool[:need]
        hands.append(cards)
    spare = pool[0] if pool else next(iter(known.get(None, ())), "")
    calls = tuple(f"{HIDDEN_DISCARD}:{spare}" if call == HIDDEN_DISCARD else call for call in seen.calls)
    size = sum(rules.packets)
    dealt = []
    for seat, hand in enumerate(hands):
        # As dealt, as far as anyone can tell: a card still turned up in the hand was dealt last, a
        # card the hand took after the deal (an ordered upcard) was not dealt to it unless needed.
        shown = [card for card in fixed.get(seat, ()) if card in hand and card not in known.get(seat, ())]
        picked = [card for card in known.get(seat, ()) if card in hand]
        rest = [card for card in hand if card not in shown and card not in picked]
        cards = [*rest, *seen.played[seat], *shown]
        if len(cards) > size and seen.upcard in cards:  # the dealer's own hand with the upcard taken up
            cards.remove(seen.upcard)
        dealt.append(tuple([*picked[: max(size - len(cards), 0)], *cards]))
    return DealState(
        game=seen.game,
        rules=seen.rules,
        options=rules.parse_options(seen.options),
        dealer=seen.dealer,
        dealt=tuple(dealt),
        trump=seen.trump,
        hands=tuple(sum(BIT[card] for card in hand) for hand in hands),
        tricks=seen.tricks,
        trick=seen.trick,
        seats=seen.seats,
        poll=seen.poll,
        votes=len(seen.poll.agreed) + seen.poll.declined if seen.poll else 0,  # asking and each answer: actions
        calls=calls,
        contract=seen.contract,
        upcard=seen.upcard,
    )
