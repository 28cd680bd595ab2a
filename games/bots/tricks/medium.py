"""Rules of thumb, fast: keep the card most likely to take (Femkort) or lose (Letzter Stich)
the last trick, shed the others early, and with two cards left weigh who will lead the last trick.

On top of the rules, a quick check: deal the hidden cards a few ways (as the seat may
infer them) and play each card out with simple habits: this seat keeps its best card
for last, the others play at random. The card that does best is played; the rules of
thumb break ties. It takes about a millisecond.
"""

from __future__ import annotations

import random
from math import comb

from games.engine import get_game
from games.engine.cards import INDEX, SUIT_MASK
from games.engine.tricks.seat_view import SeatView

from .counting import medium_action
from .knowledge import infer
from .rollout import quick_playouts


class MediumPlayer:
    def __init__(self, rng: random.Random | None = None, *, worlds: int = 64):
        self.rng = rng or random.SystemRandom()
        self.worlds = worlds

    def choose(self, view: SeatView) -> str:
        if get_game(view.game).bots_count_tricks:
            return medium_action(view)
        order = ranked(view)
        if len(order) == 1:
            return order[0]
        score = quick_playouts(view, order, worlds=self.worlds, rng=self.rng)
        return max(order, key=lambda card: score[card])


def ranked(view: SeatView) -> list[str]:
    """Legal cards, best first by the rules of thumb (also the strong player's tie-break)."""
    legal = list(view.legal)
    if len(legal) == 1:
        return legal
    avoid = not get_game(view.game).wants_last_trick
    odds = _Odds(view)
    if len(view.hand) == 2:
        keep = {card: next(c for c in view.hand if c != card) for card in legal}

        def last_trick(card: str) -> float:
            now = odds.take_now(card)
            later = keep[card]
            return now * odds.take_leading(later) + (1 - now) * odds.take_following(later)

        return sorted(legal, key=lambda c: (last_trick(c) if avoid else -last_trick(c), _rank(c)))
    # Earlier tricks: Femkort sheds the cards least likely to take a last trick and keeps the
    # likeliest; Letzter Stich the reverse. "Likely" counts the higher cards still unseen.
    strength = {card: (odds.take_leading(card), _rank(card)) for card in legal}
    if avoid:
        return sorted(legal, key=lambda c: tuple(-x for x in strength[c]))
    if not view.trick or not view.trick.cards:
        # Leading: play out short suits first, so that later we may discard instead of overtaking.
        length = {card: sum(c[1] == card[1] for c in view.hand) for card in legal}
        return sorted(legal, key=lambda c: (length[c], strength[c]))
    return sorted(legal, key=lambda c: strength[c])


def _rank(card: str) -> int:
    return INDEX[card] % 13


class _Odds:
    """Rough chances from the unseen cards, without regard to who holds which."""

    def __init__(self, view: SeatView):
        self.view = view
        knowledge = infer(view)
        self.unseen = knowledge.unseen
        self.pool = knowledge.unseen.bit_count()
        self.held = sum(knowledge.sizes.values())
        self.trump = -1 if view.trump is None else "SHDC".index(view.trump)
        self.sizes = knowledge.sizes

    def _none_hold(self, mask: int, cards_held: int) -> float:
        """Chance that none of the unseen cards in ``mask`` lies among ``cards_held`` cards."""
        higher = (mask & self.unseen).bit_count()
        if higher == 0 or self.pool == 0:
            return 1.0
        if cards_held > self.pool - higher:
            return 0.0
        return comb(self.pool - higher, cards_held) / comb(self.pool, cards_held)

    def _above(self, index: int) -> int:
        suit = index // 13
        mask = SUIT_MASK[suit] & ~((1 << (index + 1)) - 1)
        if self.trump >= 0 and suit != self.trump:
            mask |= SUIT_MASK[self.trump]
        return mask

    def take_leading(self, card: str) -> float:
        """Chance that ``card``, led to the last trick, takes it."""
        return self._none_hold(self._above(INDEX[card]), self.held)

    def take_following(self, card: str) -> float:
        """Chance that ``card`` takes a last trick someone else leads: only if that suit is led."""
        if self.pool == 0:
            return 0.0
        same_suit = (self.unseen & SUIT_MASK[INDEX[card] // 13]).bit_count() / self.pool
        return same_suit * self.take_leading(card)

    def take_now(self, card: str) -> float:
        """Chance that ``card`` played now takes the current trick."""
        view = self.view
        trick = list(view.trick.cards) if view.trick else []
        index = INDEX[card]
        if trick:
            led = INDEX[trick[0]] // 13
            best = max(trick, key=lambda c: _power(INDEX[c], led, self.trump))
            if _power(index, led, self.trump) <= _power(INDEX[best], led, self.trump):
                return 0.0
        still_to_play = len(view.seats) - len(trick) - 1
        start = view.seats.index(view.seat)
        later = [view.seats[(start + i) % len(view.seats)] for i in range(1, still_to_play + 1)]
        return self._none_hold(self._above(index), sum(self.sizes.get(s, 0) for s in later))


def _power(index: int, led: int, trump: int) -> int:
    suit = index // 13
    if suit == trump:
        return 200 + index
    if suit == led:
        return 100 + index
    return 0
