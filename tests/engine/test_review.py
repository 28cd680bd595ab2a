"""The deal review: its open-hand search agrees with plain exhaustive search, every decision of a
deal is reviewed once, and the marks follow the documented rule."""

from __future__ import annotations

import math
import random

import pytest

from games.bots import decide
from games.bots.deal_analysis import Decision, OpenHand, Search, TooLarge, mark_of, review_deal
from games.engine import GAMES
from tests.engine_helpers import random_line


def minimax(state, seat: int, side: frozenset[int], known: dict) -> float:
    """The same paranoid value, by brute force: every line, no pruning (positions met again are looked up)."""
    if state.is_over:
        return state.outcome().values[seat]
    if state not in known:
        values = [minimax(state.apply(a, seat=state.to_act), seat, side, known) for a in state.legal_actions()]
        known[state] = max(values) if state.to_act in side else min(values)
    return known[state]


def late_positions(game, rng: random.Random, count: int):
    """Positions near the end of random deals, small enough to search exhaustively."""
    found = 0
    while found < count:
        players = min(game.seat_counts)
        match = game.new_match(players=players, options=game.parse_options({}), rng=rng)
        line, _ = random_line(game.start(game.setup(match, rng)), rng)
        for state in reversed(line[:-1]):
            try:
                Search(state.to_act, frozenset(), 20_000).value(state)
            except TooLarge:
                break
            if len(state.legal_actions()) > 1:
                found += 1
                yield state, players


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_open_hand_search_gives_the_exhaustive_value(name):
    game = GAMES[name]
    checked = 0
    for state, players in late_positions(game, random.Random(3), 6):
        seat = state.to_act
        side = frozenset(game.partners(seat, players, game.parse_options({})))
        search, known = Search(seat, side, 10**6), {}
        for action in state.legal_actions():
            after = state.apply(action, seat=seat)
            true = minimax(after, seat, side, known)
            values = sorted({minimax(s, seat, side, known) for s in known} | {true})
            for alpha, beta in zip([-math.inf, *values], [*values, math.inf], strict=True):  # windows, one table
                found = search.value(after, alpha, beta)
                if alpha < true < beta:
                    assert found == true
                elif true <= alpha:
                    assert found <= alpha
                else:
                    assert found >= beta
            assert search.value(after) == true
            checked += 1
    assert checked >= 12


def played_deal(name: str, level: str, seed: int):
    game = GAMES[name]
    rng = random.Random(seed)
    match = game.new_match(players=min(game.seat_counts), options=game.parse_options({}), rng=rng)
    setup = game.setup(match, rng)
    state, actions = game.start(setup), []
    while not state.is_over:
        seat = state.to_act
        action = decide(level, state.view(seat), rng)
        actions.append((seat, action))
        state = state.apply(action, seat=seat)
    return setup, actions


@pytest.mark.parametrize("name", ["nap", "forty_five", "pitch"])
def test_every_choice_of_a_deal_is_reviewed_once_and_the_same_every_time(name):
    setup, actions = played_deal(name, "easy", 5)
    review = review_deal(name, {}, setup, actions, seed=9, worlds=4)
    state = GAMES[name].start(setup)
    choices = []
    for index, (seat, action) in enumerate(actions):
        if state.to_act == seat and len(state.legal_actions()) > 1:
            choices.append((index, seat, action))
        state = state.apply(action, seat=seat)
    assert [(d.index, d.seat, d.played) for d in review.decisions] == choices
    for decision in review.decisions:
        assert decision.strong in decision.shares
        assert set(decision.shares) == set(decision.means)
        assert all(0 <= share <= 1 for share in decision.shares.values())
        if decision.open is not None:
            assert decision.card
            assert set(decision.open.best) <= set(decision.open.values)
            assert decision.played in decision.open.winners
    assert review.to_record() == review_deal(name, {}, setup, actions, seed=9, worlds=4).to_record()


def decision(played="AS", strong="KS", shares=None, means=None, open_values=None) -> Decision:
    shares = shares or {"AS": 0.4, "KS": 0.9}
    means = means or {"AS": 0.2, "KS": 0.7}
    opened = OpenHand(open_values, {}, [max(open_values, key=open_values.get)]) if open_values else None
    return Decision(0, 0, played, True, strong, shares, means, opened)


def test_marks_follow_the_documented_rule():
    assert mark_of(decision(shares={"AS": 0.2, "KS": 0.9})) == "mistake"  # rarely among the best
    assert mark_of(decision(open_values={"AS": 0.0, "KS": 1.0})) == "mistake"  # cost the deal, and doubtful
    assert mark_of(decision()) == "inaccuracy"  # doubtful and worse on average than the strong choice
    assert mark_of(decision(means={"AS": 0.8, "KS": 0.7})) == ""  # doubtful, but not worse on average
    assert mark_of(decision(shares={"AS": 0.6, "KS": 0.9}, open_values={"AS": 0.0, "KS": 1.0})) == ""  # hindsight
    assert mark_of(decision(played="KS", shares={"AS": 0.9, "KS": 0.1})) == ""  # the strong player's own choice
