"""Every session ends, however its players play: random legal actions at every seat (a newcomer
trying things, or easy computers) finish a session within a bounded number of deals, with the
table's default options and with the shortest session it offers.

Except by the rules of Pitch, Smudge and Auction Forty-Five: there a bidder who keeps failing is
set back without end, so random bids may drift below zero for ever and a session never end. Those
three games play here with their table option "set_out" on (the session ends once a side, in Pitch
and Smudge a player, is at minus the target: not in the rules, off by default), the choice of a
table that wants its session sure to end; the other games play with their options as they are."""

from __future__ import annotations

import random

import pytest

from games.engine import GAMES
from tests.engine_helpers import play_randomly

# The shortest session each game offers (a game with none plays its rules' target, already short).
SHORTEST = {
    "femkort": {"target": 1},
    "letzter_stich": {"tokens": 1},
    "nap": {"rounds": 1},
    "euchre": {"points": "5"},
    "seven_up": {},
    "pitch": {},
    "smudge": {},
    "auction_forty_five": {"points": "45"},
    "forty_five": {"points": "25"},
    "michigan": {"rounds": 1},
}
# Games whose scores can fall without end: they play with the option that ends a session there.
SET_OUT = {"pitch", "smudge", "auction_forty_five"}
MOST_DEALS = 80  # random play ends well inside this (the longest seen: 48 deals of Auction Forty-Five to 120)
SEEDS = range(6)


def test_every_game_names_its_shortest_session():
    assert set(SHORTEST) == set(GAMES)


@pytest.mark.parametrize("name", sorted(SET_OUT))
def test_set_out_is_a_table_option_of_those_games_and_off_by_default(name):
    (option,) = (option for option in GAMES[name].options_schema if option.name == "set_out")
    assert (option.kind, option.default) == ("flag", False)
    assert not GAMES[name].parse_options({}).set_out


def deals_to_the_end(name: str, players: int, options: dict, seed: int) -> int:
    """Play a whole session with random legal actions; how many deals it took (stops at MOST_DEALS + 1)."""
    game = GAMES[name]
    rng = random.Random(seed)
    match = game.new_match(players=players, options=game.parse_options(options), rng=rng)
    deals = 0
    while not match.finished and deals <= MOST_DEALS:
        match = match.settle(play_randomly(game.start(game.setup(match, rng)), rng))
        deals += 1
    assert match.winners or not match.finished
    return deals


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("session", ["default", "shortest"])
def test_random_play_ends_every_session(name, session):
    game = GAMES[name]
    options = ({} if session == "default" else SHORTEST[name]) | ({"set_out": True} if name in SET_OUT else {})
    for players in sorted(game.seat_counts):
        lengths = [deals_to_the_end(name, players, options, seed) for seed in SEEDS]
        assert max(lengths) <= MOST_DEALS, (players, lengths)
