"""Small builders for engine tests: deals from literal hands, play-outs."""

from __future__ import annotations

import random

from games.engine import FEMKORT, LETZTER_STICH, DealState


def femkort_deal(hands: str, *, dealer: int, **options: object) -> DealState:
    """Hands as in the CLI: ``"8H,2S,.../QH,3H,.../..."`` from seat 0."""
    dealt = [hand.split(",") if hand else [] for hand in hands.split("/")]
    return FEMKORT.start_hands(dealt=dealt, dealer=dealer, options=FEMKORT.parse_options(options))


def stich_deal(hands: str, *, dealer: int) -> DealState:
    dealt = [hand.split(",") for hand in hands.split("/")]
    return LETZTER_STICH.start_hands(dealt=dealt, dealer=dealer, options=LETZTER_STICH.parse_options(None))


def play(state: DealState, *cards: str) -> DealState:
    for card in cards:
        state = state.play(card)
    return state


def play_out(state: DealState, rng: random.Random | None = None) -> DealState:
    """Finish the deal with random legal cards (first legal card without ``rng``)."""
    while not state.is_over:
        legal = state.legal_cards()
        state = state.play(rng.choice(legal) if rng else legal[0])
    return state
