"""The prompt says the whole rule for the card to play now: every card it allows may be played,
every card that may be played is one it allows, and a lead that names trump says so."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMES
from games.engine.tricks.deal import TrickGame
from tests.engine_helpers import random_line

TRICK_GAMES = [name for name, game in GAMES.items() if isinstance(game, TrickGame)]
FEMKORT_TRUMP = {"trump": True}


def _said(prompt):
    """The prompt's own sentence, without the trump suit the table adds after it."""
    while prompt.message == "%(prompt)s Trump: %(suit)s.":
        prompt = dict(prompt.params)["prompt"]
    return prompt.message, dict(prompt.params)


def _turns(game, options, seeds=range(40)):
    """Each turn to play a card in random deals: the state, and the view of the seat to act."""
    for seed in seeds:
        rng = random.Random(seed)
        match = game.new_match(players=min(game.seat_counts), options=game.parse_options(options), rng=rng)
        for state in random_line(game.start(game.setup(match, rng)), rng)[0]:
            if state.trick is not None and state.to_act is not None:
                yield state, state.view(state.to_act)


@pytest.mark.parametrize(("name", "options"), [(name, {}) for name in TRICK_GAMES] + [("femkort", FEMKORT_TRUMP)])
def test_the_prompt_allows_exactly_the_cards_that_may_be_played(name, options):
    game = GAMES[name]
    checked = 0
    for state, view in _turns(game, options):
        said, params = _said(view.prompt)
        legal = set(state.legal_actions())
        hand = set(view.hand)
        where = (name, said, sorted(hand), sorted(legal), state.trick.cards, state.trump)

        def trump_of(card, state=state):
            return state.trump is not None and game.suit_in_play(card, state.trump) == state.trump

        if said == "Your lead: play any card.":
            assert legal == hand, where
            assert all(state.apply(card).trump == state.trump for card in legal), ("the lead names trump", *where)
        elif said == "Your lead: play any card; its suit becomes trump.":
            assert legal == hand, where
            assert state.trump is None, where
            assert all(state.apply(card).trump == card[1] for card in legal), where
        elif said in ("Your turn: play a trump.", "Your turn: play a trump (the %(card)s is one)."):
            assert legal == {card for card in hand if trump_of(card)}, where
            assert "card" not in params or params["card"].card in legal, where
        elif said == "Your turn: you have no %(suit)s (the %(card)s is a trump), play any card.":
            assert legal == hand, where
            assert params["card"].card[1] == params["suit"].suit, where
            assert trump_of(params["card"].card), where
        elif said == "Your turn: follow %(suit)s (the %(card)s is a trump).":
            assert {card[1] for card in legal} == {params["suit"].suit}, where
            assert params["card"].card not in legal, where
        elif said == "Your turn: follow %(suit)s.":
            assert {card[1] for card in legal} == {params["suit"].suit}, where  # the suit each card shows
        elif said == "Your turn: follow %(suit)s or play a trump.":
            assert params["suit"].suit in {card[1] for card in legal}, where
            assert any(trump_of(card) for card in legal), ("nothing to trump with", *where)
        elif said == "Your turn: you have no %(suit)s, play any card.":
            assert legal == hand, where
            assert params["suit"].suit not in {card[1] for card in hand}, where
        else:
            continue
        checked += 1
    assert checked > 50, name
