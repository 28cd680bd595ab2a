"""Perft: count the distinct legal card sequences of a given length from the start of a deal.

As in chess engines it checks legal-move generation and measures its speed. Two
standard perft techniques keep it fast: the last ply is counted, not played
(``int.bit_count`` of the legal mask), and counts are cached at trick boundaries,
where the future depends only on the hands left and who leads (different orders of
earlier tricks often leave the same hands). ``perft_plain`` walks every sequence
through ``DealState.play`` and is the slow, obvious cross-check.
"""

from __future__ import annotations

from ..cards import SUITS
from .deal import DealState
from .masks import NO_TRUMP, advance, follow_mask


def perft(state: DealState, depth: int, *, cache: bool = True) -> int:
    """Sequences of exactly ``depth`` plays from ``state``, which must be at a trick's start.

    ``cache=False`` turns the trick-boundary cache off, to measure move generation alone.
    """
    if state.trick is None or state.trick.cards:
        raise ValueError("perft starts at the first lead of a trick")
    seats = state.seats
    players = len(seats)
    trump = NO_TRUMP if state.trump is None else SUITS.index(state.trump)
    overtake = state.rules.overtake(state.options)
    counts: dict[tuple[tuple[int, ...], int, int], int] = {}

    def from_lead(hands: tuple[int, ...], leader: int, depth: int) -> int:
        if depth == 0:
            return 1
        if not hands[0]:
            return 0
        if not cache:
            return within(list(hands), leader, 0, 0, 0, NO_TRUMP, 0, depth)
        key = (hands, leader, depth)
        found = counts.get(key)
        if found is None:
            found = counts[key] = within(list(hands), leader, 0, 0, 0, NO_TRUMP, 0, depth)
        return found

    def within(hands: list[int], leader: int, step: int, led: int, bar: int, best: int, win: int, depth: int) -> int:
        position = (leader + step) % players
        hand = hands[position]
        moves = hand if step == 0 else follow_mask(hand, led, bar, best != NO_TRUMP and led != trump, overtake)
        if depth == 1:
            return moves.bit_count()
        total = 0
        last = step + 1 == players
        while moves:
            low = moves & -moves
            moves ^= low
            c_led, c_bar, c_best, c_win = advance(step, low.bit_length() - 1, position, led, bar, best, win, trump)
            hands[position] = hand ^ low
            if last:
                total += from_lead(tuple(hands), c_win, depth - 1)
            else:
                total += within(hands, leader, step + 1, c_led, c_bar, c_best, c_win, depth - 1)
            hands[position] = hand
        return total

    hands = tuple(state.hands[seat] for seat in seats)
    return from_lead(hands, seats.index(state.to_act), depth)


def perft_plain(state: DealState, depth: int) -> int:
    """The same count by playing every sequence out with the public state API."""
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    return sum(perft_plain(state.play(card), depth - 1) for card in state.legal_cards())


def perft_actions(state: DealState, depth: int) -> int:
    """Sequences of exactly ``depth`` actions from ``state`` (bids, passes and cards alike); a deal
    that ends sooner counts nothing. Positions reached by different orders are counted once each
    (a memo keyed by the state, which is immutable)."""
    memo: dict[tuple[DealState, int], int] = {}

    def count(state: DealState, depth: int) -> int:
        if depth == 0:
            return 1
        if state.is_over:
            return 0
        key = (state, depth)
        found = memo.get(key)
        if found is None:
            found = memo[key] = sum(count(state.apply(action), depth - 1) for action in state.legal_actions())
        return found

    return count(state, depth)
