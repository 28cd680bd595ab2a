"""The fair shuffle: the documented stream, deals that are a function of seed and contributions in
every game, and cards that land in every position equally often."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.engine import GAMES
from games.engine.cards import CARDS
from games.engine.fair import FairShuffle, commitment, new_seed


def documented_shuffle(seed: bytes, contributions: list[str], items: list) -> list:
    """The stream and Fisher-Yates exactly as ``games/engine/fair.py``'s docstring words them,
    written again from that text."""
    key = hashlib.sha256(b"fair-shuffle-v1\n" + seed + b"".join(b"\n" + c.encode() for c in contributions)).digest()
    bits = "".join(
        format(byte, "08b") for i in range(64) for byte in hashlib.sha256(key + i.to_bytes(8, "big")).digest()
    )
    position = 0

    def below(n: int) -> int:
        nonlocal position
        k = (n - 1).bit_length()
        while True:
            value = int(bits[position : position + k], 2) if k else 0
            position += k
            if value < n:
                return value

    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_the_shuffle_is_the_documented_one():
    for n in range(20):
        seed = hashlib.sha256(f"seed {n}".encode()).digest()
        contributions = ["", f"{n:x}"] if n % 2 else []
        cards = list(CARDS)
        FairShuffle(seed, contributions).shuffle(cards)
        assert cards == documented_shuffle(seed, contributions, CARDS)


def test_a_contribution_or_another_seed_changes_the_order():
    seed = bytes(32)
    orders = set()
    streams = (FairShuffle(seed), FairShuffle(seed, ["a"]), FairShuffle(seed, ["", "a"]), FairShuffle(b"\1" * 32))
    for rng in streams:
        cards = list(CARDS)
        rng.shuffle(cards)
        orders.add(tuple(cards))
    assert len(orders) == 4


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_deals_the_same_cards_again_from_the_same_seed(name):
    rules = GAMES[name]
    players = min(rules.seat_counts)
    match = rules.new_match(players=players, options=rules.parse_options({}), rng=random.Random(1))
    seed = new_seed()
    first = rules.setup(match, FairShuffle(seed, ["c0ffee"]))
    assert rules.setup(match, FairShuffle(seed, ["c0ffee"])) == first
    assert rules.setup(match, FairShuffle(seed, ["c0ffef"])) != first


def test_the_commitment_names_the_seed_and_the_deal():
    seed = bytes(range(32))
    shown = commitment(seed, "session 1 deal 1")
    assert shown == hashlib.sha256(b"fair-commit-v1\nsession 1 deal 1\n" + seed).hexdigest()
    assert shown != commitment(seed, "session 1 deal 2")
    assert shown != commitment(bytes(32), "session 1 deal 1")


def test_every_card_lands_in_every_position_equally_often():
    """χ² over 52 x 52 (card, position) counts from 5,200 shuffles with fixed seeds (so the test
    never flakes): 2,601 degrees of freedom; the bound is the 99.9th percentile (about 2,826)."""
    deals = 5200
    counts = [[0] * 52 for _ in range(52)]
    for n in range(deals):
        cards = list(range(52))
        FairShuffle(hashlib.sha256(n.to_bytes(4, "big")).digest()).shuffle(cards)
        for position, card in enumerate(cards):
            counts[card][position] += 1
    expected = deals / 52
    chi2 = sum((count - expected) ** 2 / expected for row in counts for count in row)
    assert 2601 - 3.1 * (2 * 2601) ** 0.5 < chi2 < 2826, chi2  # neither biased nor too even


def test_draws_below_a_bound_are_uniform_and_never_reach_it():
    rng = FairShuffle(b"bounds")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randrange(1, 7) - 1] += 1
    assert sum((c - 1000) ** 2 / 1000 for c in counts) < 20.5  # χ², 5 degrees of freedom, p = 0.001
    assert all(0 <= rng.random() < 1 for _ in range(100))
    assert sorted(rng.sample(list(range(10)), 10)) == list(range(10))
    with pytest.raises(ValueError, match="whole ranges"):
        rng.randrange(0, 10, 2)
