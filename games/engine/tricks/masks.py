"""Trick mechanics shared by every game, on card bitmasks (see ``cards``).

These few functions are the single place where "follow suit", "must overtake",
trumping and "who won the trick" are decided; the readable state objects, perft
and the computer players all call them.
"""

from __future__ import annotations

from ..cards import SUIT_MASK

NO_TRUMP = -1


def follow_mask(hand: int, led: int, bar: int, trumped: bool, overtake: bool) -> int:
    """Cards of ``hand`` that may follow a trick led in suit ``led``.

    ``bar`` is the index of the highest card of the led suit played so far; only
    led-suit cards count, so an off-suit discard never raises it. Once the trick
    has been trumped (by a trump of another suit) no led-suit card can win, so the
    duty to overtake lapses and any card of the led suit is allowed.
    """
    in_suit = hand & SUIT_MASK[led]
    if not in_suit:
        return hand
    if overtake and not trumped:
        higher = in_suit >> (bar + 1) << (bar + 1)
        if higher:
            return higher
    return in_suit


def trick_standing(cards: list[int] | tuple[int, ...], trump: int) -> tuple[int, int, int, int]:
    """``(led suit, bar, best trump or -1, position of the winning card)`` for card indices in play order."""
    led = cards[0] // 13
    bar = cards[0]
    best_trump = NO_TRUMP
    winner = 0
    for position, card in enumerate(cards):
        suit = card // 13
        if suit == led:
            if card > bar:
                bar = card
                if best_trump == NO_TRUMP:
                    winner = position
        elif suit == trump and card > best_trump:
            best_trump = card
            winner = position
    if best_trump == NO_TRUMP and led == trump:
        best_trump = bar
    return led, bar, best_trump, winner


def legal_mask(hand: int, cards: list[int] | tuple[int, ...], trump: int, overtake: bool) -> int:
    """Cards of ``hand`` that may be played to a trick holding ``cards`` so far."""
    if not cards:
        return hand
    led, bar, best_trump, _ = trick_standing(cards, trump)
    trumped = best_trump != NO_TRUMP and led != trump
    return follow_mask(hand, led, bar, trumped, overtake)


def advance(step: int, card: int, position: int, led: int, bar: int, best: int, win: int, trump: int):
    """The trick after ``card`` is played from ``position`` as the trick's ``step``-th card.

    The state is ``(led suit, bar, best off-suit trump or NO_TRUMP, winning position)``;
    the search loops (perft, solver, play-outs) carry it instead of re-reading the trick.
    """
    suit = card // 13
    if step == 0:
        return suit, card, NO_TRUMP, position
    if suit == led:
        if card > bar:
            return led, card, best, position if best == NO_TRUMP else win
        return led, bar, best, win
    if suit == trump and card > best:
        return led, bar, card, position
    return led, bar, best, win


def standing(cards: list[int], leader: int, players: int, trump: int) -> tuple[int, int, int, int]:
    """``advance`` over a trick's cards so far, led by position ``leader``."""
    state = (0, 0, NO_TRUMP, leader)
    for step, card in enumerate(cards):
        state = advance(step, card, (leader + step) % players, *state, trump)
    return state
