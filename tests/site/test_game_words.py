"""The games' sentences as players read them: a button's words never stand in a sentence, the
points of a result add up, nothing is said twice, and every number says what it counts."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.utils import translation

from games.engine import GAMES
from games.words import say

NAMES = ["Anna", "Birger", "Cleo", "Dag", "Eva", "Finn", "Gun", "Hugo"]


def _deals(name, options=None, seeds=range(8), per_seed=2):
    """The first ``per_seed`` finished random deals of sessions of ``name``, each as the list of its states."""
    game = GAMES[name]
    for seed in seeds:
        rng = random.Random(seed)
        players = sorted(game.seat_counts)[seed % len(game.seat_counts)]
        match = game.new_match(players=players, options=game.parse_options(options or {}), rng=rng)
        for _ in range(per_seed):
            if match.finished:
                break
            states = [game.start(game.setup(match, rng))]
            while not states[-1].is_over:
                state = states[-1]
                states.append(state.apply(rng.choice(state.legal_actions()), seat=state.to_act))
            yield states
            match = match.settle(states[-1])


def _said(text, deal_number=1):
    with translation.override("en"):
        return say(text, NAMES, number=deal_number)


@pytest.mark.parametrize("name", list(GAMES))
def test_no_sentence_says_a_buttons_words(name):
    """ "Dag bids Bid 1", "pitched for Bid 2": a button's words ("Bid 2", "Give a point") are an
    order to the table, not what a sentence about a bid says."""
    for states in _deals(name, seeds=range(4)):
        labels: set[str] = set()
        for state in states:
            for viewer in {None, state.to_act}:
                view = state.view(viewer)
                labels |= {_said(choice.label) for choice in view.choices}
                sentences = [*view.log, *(text for _, text in view.facts), *filter(None, (view.prompt, view.result))]
                for sentence in map(_said, sentences):
                    for label in labels:
                        if re.fullmatch(r"[A-Z]\S* \S.*", label):  # an order of several words
                            assert not re.search(rf"[a-z,:] {re.escape(label)}\b", sentence), (label, sentence)


def test_smudge_and_pitch_say_a_bid_as_players_do():
    said = set()
    for name in ("pitch", "smudge"):
        for states in _deals(name, seeds=range(6)):
            said |= {_said(text) for state in states for text in state.view(None).log}
            said |= {_said(text) for state in states for _, text in state.view(None).facts}
            said.add(_said(states[-1].view(None).result))
    assert "Anna bids 2." in said
    assert "Anna bids smudge." in said
    assert not [sentence for sentence in said if "Bid " in sentence or "Smudge" in sentence]
    assert any(re.fullmatch(r"Deal 1: \w+ bid [1-4] and made it\. High: .*", s) for s in said)
    assert any(re.fullmatch(r"Deal 1: \w+ bid (smudge|4) and fell short, losing 4 points\. .*", s) for s in said)


CATEGORY = re.compile(r"(Gift|Jack turned up|High|Low|Jack|Game): (\w+)")


def test_seven_up_s_result_counts_every_point_of_the_deal():
    """The gift and the turned jacks score too: the result line names them, so its points add up."""
    seen = Counter()
    for states in _deals("seven_up", seeds=range(40)):
        last = states[-1]
        result = last.outcome()
        if result.thrown_in:
            continue
        line = _said(last.view(None).result)
        named = Counter(name for _, name in CATEGORY.findall(line) if name != "nobody")
        points = last.rules.deal_points(last)[0]
        assert named == Counter({NAMES[side]: got for side, got in enumerate(points) if got}), line
        seen.update(kind for kind, _ in CATEGORY.findall(line))
    assert seen["Gift"]
    assert seen["Jack turned up"]


def test_seven_up_says_the_beg_once():
    """The header lists the bids and calls and the deal's facts: "Anna begs." is said there once,
    not again as "Anna begged and was given a point"."""
    begged = 0
    for states in _deals("seven_up", seeds=range(40)):
        for state in states:
            view = state.view(None)
            said = [_said(text) for text in (*view.log, *(text for kind, text in view.facts if kind != "trump"))]
            if any("beg" in sentence for sentence in said):
                begged += 1
                assert sum("beg" in sentence for sentence in said) == 1, said
    assert begged


def test_michigan_names_the_boodles_a_spread_ante_goes_on():
    for states in _deals("michigan", {"ante_spread": True}, seeds=range(2)):
        antes = [_said(text) for text in states[-1].view(None).log if "boodles" in _said(text)]
        assert antes
        for sentence in antes:
            assert all(card in sentence for card in ("A♥", "K♣", "Q♦", "J♠")), sentence
        break


def test_michigan_explains_the_chips_left_on_the_boodles_at_the_end():
    game = GAMES["michigan"]
    rng = random.Random(5)
    match = game.new_match(players=3, options=game.parse_options({}), rng=rng)
    while not match.finished:
        assert not game.match_facts(match)  # during the session the boodles are simply on the table
        state = game.start(game.setup(match, rng))
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()), seat=state.to_act)
        match = match.settle(state)
    left = sum(match.boodles)
    assert left
    assert [_said(text) for text in game.match_facts(match)] == [
        f"{left} chips stay on the boodles: they are not shared out, since everyone put in the same."
    ]
