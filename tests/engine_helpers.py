"""Small builders for engine tests: deals from literal hands, play-outs."""

from __future__ import annotations

import random

from games.engine import FEMKORT, LETZTER_STICH, DealState
from games.engine.game import State

Action = tuple[int | None, str]  # an action with the seat that took it, as records store it


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


def random_line(state: State, rng: random.Random, *, moves: int | None = None) -> tuple[list[State], list[Action]]:
    """A line of play through the game protocol: legal actions chosen by ``rng`` until the deal is
    over (or ``moves`` actions); every state passed through, the first and the last included, and
    each action with the seat that took it."""
    states, actions = [state], []
    while not state.is_over and (moves is None or len(actions) < moves):
        seat, action = state.to_act, rng.choice(state.legal_actions())
        state = state.apply(action, seat=seat)
        states.append(state)
        actions.append((seat, action))
    return states, actions


def play_randomly(state: State, rng: random.Random, *, moves: int | None = None) -> State:
    """The state reached by ``random_line``: the deal's end, unless ``moves`` stops it sooner."""
    while not state.is_over and moves != 0:
        state = state.apply(rng.choice(state.legal_actions()))
        moves = None if moves is None else moves - 1
    return state
