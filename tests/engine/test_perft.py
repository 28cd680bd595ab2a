"""Perft values computed by hand for small positions, and the fast count against the plain walk."""

import random

import pytest

from games.engine import FEMKORT, LETZTER_STICH
from games.engine.tricks.perft import perft, perft_plain
from tests.engine_helpers import femkort_deal, stich_deal

ONE_SUIT_EACH = "AS,KS,QS,JS,TS/2H,3H,4H,5H,6H/2C,3C,4C,5C,6C/2D,3D,4D,5D,6D"


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        (0, 1),
        (1, 5),
        (4, 5**4),
        (5, 5**4 * 4),
        (12, 5**4 * 4**4 * 3**4),
        (20, 5**4 * 4**4 * 3**4 * 2**4),
        (21, 0),  # the deal ends after 20 plays: shorter sequences are not counted
    ],
)
def test_each_seat_holding_one_suit(depth, expected):
    # Nobody can follow, so every card is legal: trick t multiplies by (5 - t) ** 4.
    assert perft(femkort_deal(ONE_SUIT_EACH, dealer=3), depth) == expected


# Seat 0 leads low hearts; seat 1 is void in hearts; seat 2 holds 3H and TH.
OVERTAKE_HANDS = "2H,4H,5H,6H,7H/2S,3S,2C,3C,4C/3H,TH,2D,3D,4D"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        # 2H lead: 5 replies x {3H, TH}; other leads: 5 x {TH} -> 10 + 4 * 5
        ({}, 30),
        # classic: 5 leads x 5 replies x 2 hearts
        ({"profile": "classic"}, 50),
    ],
)
def test_overtaking_at_depth_three(options, expected):
    assert perft(femkort_deal(OVERTAKE_HANDS, dealer=2, **options), 3) == expected


def test_overtaking_lapses_once_the_trick_is_trumped():
    # Spades trump: after seat 1 trumps (2 ways) seat 2 may play either heart;
    # after a club discard (3 ways) seat 2 must still overtake. 2H: 2*2 + 3*2; others: 2*2 + 3*1.
    state = femkort_deal(OVERTAKE_HANDS, dealer=2)
    trumped = FEMKORT.start_hands(dealt=state.dealt, dealer=2, options=state.options, trump="S")
    assert perft(trumped, 3) == 10 + 4 * 7


def test_letzter_stich_three_players():
    hands = "9S,TS,JS,QS,KS,AS,9H,TH/JH,QH,KH,AH,9D,TD,JD,QD/KD,AD,9C,TC,JC,QC,KC,AC"
    state = stich_deal(hands, dealer=2)
    assert perft(state, 2) == 6 * 8 + 2 * 4
    assert perft(state, 3) == 6 * 8 * 8 + 2 * 4 * 8


@pytest.mark.parametrize("seed", range(6))
def test_fast_perft_agrees_with_playing_every_sequence(seed):
    rng = random.Random(seed)
    players = rng.randrange(3, 7)
    options = FEMKORT.parse_options({"profile": rng.choice(["modern", "classic"]), "trump": seed % 2 == 0})
    state = FEMKORT.deal(players=players, dealer=seed % players, options=options, rng=rng)
    for depth in range(0, players + 3):
        assert perft(state, depth) == perft_plain(state, depth), depth


def test_fast_perft_agrees_on_letzter_stich():
    state = LETZTER_STICH.deal(players=4, dealer=1, options=LETZTER_STICH.parse_options(None), rng=random.Random(5))
    for depth in range(0, 10):
        assert perft(state, depth) == perft_plain(state, depth)


def test_the_cache_changes_speed_not_counts():
    state = FEMKORT.deal(players=4, dealer=0, options=FEMKORT.parse_options(None), rng=random.Random(11))
    assert perft(state, 12) == perft(state, 12, cache=False)
