"""The trick games' ``resample``: a world dealt anew where the seat cannot see, that the seat
cannot tell from the true deal, so computer players of any family can look ahead in any game.
(That every game's worlds look exactly the same to their seat and offer the same actions:
tests/engine/test_every_game.py.)"""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, decide
from games.bots.generic import GenericSampler
from games.engine import GAMES
from games.engine.tricks.deal import DealState
from tests.engine_helpers import play_randomly


@pytest.mark.parametrize("name", ["nap", "femkort"])
def test_the_generic_players_play_a_trick_game_through_the_protocol(name):
    game = GAMES[name]
    match = game.new_match(players=4, options=game.parse_options({}), rng=random.Random(1))
    state = game.start(game.setup(match, random.Random(2)))
    player = GenericSampler(random.Random(3), worlds=3)
    while not state.is_over:
        action = player.choose(state.view(state.to_act))
        assert action in state.legal_actions()
        state = state.apply(action)
    assert len(state.outcome().values) == 4


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_computer_decides_alike_in_deals_that_look_alike_from_its_seat(name):
    """What the Fair play page promises: a computer's choice depends on its seat's view alone, so
    in a world dealt anew where the seat cannot see, it chooses exactly as in the true deal."""
    game = GAMES[name]
    compared = 0
    for seed in range(4):
        match = game.new_match(players=min(game.seat_counts), options=game.parse_options({}), rng=random.Random(seed))
        state = game.start(game.setup(match, random.Random(seed + 100)))
        rng = random.Random(seed)
        while not state.is_over and compared < 6 * (seed + 1):
            seat = state.to_act
            world = game.resample(state.view(seat), rng)
            if len(state.legal_actions()) > 1 and world != state:  # the same to the seat, not the same deal
                for kind in LEVELS[1:]:
                    in_world = decide(kind, world.view(seat), random.Random(compared))
                    assert in_world == decide(kind, state.view(seat), random.Random(compared))
                compared += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert compared >= 6


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_resampled_world_is_a_whole_deal_that_plays_to_its_end(name):
    """A world is a deal like the true one (as many cards dealt to each seat), so any line played
    in it ends: the reviews and the strong players search worlds to the end."""
    game = GAMES[name]
    worlds = 0
    for seed in range(6):
        match = game.new_match(
            players=sorted(game.seat_counts)[len(game.seat_counts) // 2],
            options=game.parse_options({}),
            rng=random.Random(seed),
        )
        state = game.start(game.setup(match, random.Random(seed + 50)))
        rng = random.Random(seed)
        while not state.is_over:
            world = game.resample(state.view(state.to_act), rng)
            if isinstance(state, DealState):  # the trick library's deals
                assert [len(cards) for cards in world.dealt] == [len(cards) for cards in state.dealt]
            assert play_randomly(world, rng).is_over  # a world stuck before its end has no legal action
            worlds += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert worlds > 20
