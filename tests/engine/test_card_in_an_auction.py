"""A card tapped while the seat must bid or call says so: the buttons, not the hand, are its choices now."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMES, IllegalPlay
from games.engine.cards import INDEX
from games.engine.tricks.deal import TrickGame
from games.engine.tricks.refusals import refusal_text
from tests.engine_helpers import random_line

TRICK_GAMES = [name for name, game in GAMES.items() if isinstance(game, TrickGame) and game.on_site]


def _words_turns(game, seeds=range(20)):
    """Turns where the seat to act may only say a word (bid, call, pass), each with its hand."""
    for seed in seeds:
        rng = random.Random(seed)
        match = game.new_match(players=min(game.seat_counts), options=game.parse_options({}), rng=rng)
        for state in random_line(game.start(game.setup(match, rng)), rng)[0]:
            hand = state.hand(state.to_act) if state.to_act is not None else []
            if hand and not any(action in INDEX for action in state.legal_actions()):
                yield state, hand


@pytest.mark.parametrize("name", TRICK_GAMES)
def test_a_card_in_the_bidding_is_refused_with_the_buttons_named(name):
    game = GAMES[name]
    said = set()
    for state, hand in _words_turns(game):
        with pytest.raises(IllegalPlay) as refused:
            state.apply(hand[0], seat=state.to_act)
        said.add(refusal_text(refused.value).message)
    if said:  # a game with bids or calls
        assert said <= {
            "No card is played now: choose one of the buttons.",
            "The bidding comes first: choose one of the buttons.",
        }, said
