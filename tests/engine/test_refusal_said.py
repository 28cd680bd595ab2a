"""Whenever a player's hand shows a card that may not be played now, the view says why (the page
shows it next to the hand when such a card is tapped): in every phase of every game, not only
while tricks are played (Michigan's widow and offers showed the hand and said nothing)."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMES


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
