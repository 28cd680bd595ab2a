"""Open-hand search: who takes the last trick if every hand were known and everyone played well.

Multi-player (max^n) with a pessimistic tie-break: each player picks a card that
gets them what they want (Femkort: take the last trick; Letzter Stich: avoid it);
a player who cannot get it, or gets it either way, picks what is worst for the
searching seat. Counts are cached at trick boundaries, as in perft.
"""

from __future__ import annotations

from games.engine.tricks.masks import NO_TRUMP, advance, follow_mask, standing


class OutOfNodes(Exception):
    """The search went past its node limit; the caller falls back on what it already knows."""


class Solver:
    def __init__(self, *, players: int, trump: int, overtake: bool, root: int, avoid: bool, node_limit: int = 10**9):
        self.node_limit = node_limit
        self.players = players
        self.trump = trump
        self.overtake = overtake
        self.root = root
        self.avoid = avoid
        self.nodes = 0
        self.cache: dict[tuple[tuple[int, ...], int], int] = {}

    def good(self, player: int, taker: int) -> bool:
        return (taker != player) if self.avoid else (taker == player)

    def taker(self, hands: list[int], leader: int, cards: list[int]) -> int:
        """The position that takes the last trick, from a trick led by ``leader`` holding ``cards``."""
        if not cards:
            return self._from_lead(tuple(hands), leader)
        led, bar, best, win = standing(cards, leader, self.players, self.trump)
        if len(cards) == self.players:
            return self._from_lead(tuple(hands), win) if any(hands) else win
        return self._within(list(hands), leader, len(cards), led, bar, best, win)

    def _from_lead(self, hands: tuple[int, ...], leader: int) -> int:
        key = (hands, leader)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._within(list(hands), leader, 0, 0, 0, NO_TRUMP, leader)
        return found

    def _within(self, hands: list[int], leader: int, step: int, led: int, bar: int, best: int, win: int) -> int:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfNodes
        players, trump, root = self.players, self.trump, self.root
        position = (leader + step) % players
        hand = hands[position]
        moves = hand if step == 0 else follow_mask(hand, led, bar, best != NO_TRUMP and led != trump, self.overtake)
        last = step + 1 == players
        mine = spite = anything = None
        while moves:
            low = moves & -moves
            moves ^= low
            c_led, c_bar, c_best, c_win = advance(step, low.bit_length() - 1, position, led, bar, best, win, trump)
            hands[position] = hand ^ low
            if not last:
                taker = self._within(hands, leader, step + 1, c_led, c_bar, c_best, c_win)
            elif hand ^ low:
                taker = self._from_lead(tuple(hands), c_win)
            else:
                taker = c_win
            hands[position] = hand
            if self.good(position, taker):
                if position == root or not self.good(root, taker):
                    return taker
                mine = taker if mine is None else mine
            elif spite is None and position != root and not self.good(root, taker):
                spite = taker
            anything = taker if anything is None else anything
        return next(t for t in (mine, spite, anything) if t is not None)
