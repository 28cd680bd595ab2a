"""Whenever a player's hand shows a card that may not be played now, the view says why (the page
shows it next to the hand when such a card is tapped): in every phase of every game, not only
while tricks are played (Michigan's widow and offers showed the hand and said nothing), and in
words true of whichever such card is tapped: the game's own answer for it."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMES
from games.engine.game import IllegalPlay, Text
from games.engine.tricks.refusals import refusal_text


@pytest.mark.parametrize("name", list(GAMES))
def test_every_turn_with_a_card_that_may_not_be_played_says_why(name):
    game = GAMES[name]
    phases: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        match = game.new_match(players=min(game.seat_counts), options=game.parse_options({}), rng=rng)
        state = game.start(game.setup(match, rng))
        while not state.is_over and state.to_act is not None:
            view = state.view(state.to_act)
            legal = state.legal_actions()
            refused = [card for card in view.hand if card not in legal]
            if refused:
                phases.add(str(getattr(state, "phase", "")))
                assert view.refusal is not None, (name, getattr(state, "phase", None), refused, legal)
                assert str(view.refusal.message).strip(), name
            state = state.apply(rng.choice(legal), seat=state.to_act)
    assert phases, f"{name}: no turn with a card that may not be played"


def _answer(state, card) -> Text:
    """What the game answers when ``card`` is played all the same: the sentence the player reads."""
    with pytest.raises(IllegalPlay) as refused:
        state.apply(card, seat=state.to_act)
    return refused.value.text or refusal_text(refused.value)


@pytest.mark.parametrize("name", list(GAMES))
def test_what_the_hand_says_of_a_refused_card_is_true_of_each_one(name):
    """The page has one sentence for every card of the hand that may not be played now: it must be
    the game's answer for each of them (Michigan named the lowest card of the first refused card's
    suit, "the 7♥", when the 6♣ was the reason the Q♣ was refused)."""
    game = GAMES[name]
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        match = game.new_match(players=min(game.seat_counts), options=game.parse_options({}), rng=rng)
        state = game.start(game.setup(match, rng))
        while not state.is_over and state.to_act is not None:
            view = state.view(state.to_act)
            legal = state.legal_actions()
            for card in (card for card in view.hand if card not in legal):
                assert _answer(state, card) == view.refusal, (name, card, legal)
                checked += 1
            state = state.apply(rng.choice(legal), seat=state.to_act)
    assert checked, name
