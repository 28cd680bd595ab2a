"""Nap (docs/rules/nap.md): one round of bids, the bidder's first card names trump, chips per deal."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import NAP, IllegalPlay, InvalidDeal
from games.engine.records import replay
from games.engine.tricks.perft import perft_actions
from tests.engine.test_engine_cli import engine

SPADES, HEARTS, CLUBS = ["AS", "KS", "QS", "JS", "TS"], ["2H", "3H", "4H", "5H", "6H"], ["2C", "3C", "4C", "5C", "6C"]


def start(hands, dealer=0, **options):
    return NAP.start_hands(dealt=hands, dealer=dealer, options=NAP.parse_options(options))


def run(state, actions):
    for action in actions:
        state = state.apply(action)
    return state


def test_bids_go_round_once_from_the_dealers_left_and_the_dealer_bids_last():
    state = start([SPADES, HEARTS, CLUBS], dealer=1)
    order = []
    for action in ("bid:1", "pass", "bid:2"):
        order.append(state.to_act)
        state = state.apply(action)
    assert order == [2, 0, 1]
    assert state.contract == (1, "bid:2")
    assert state.to_act == 1  # the bidder leads
    assert state.trump is None


def test_after_the_highest_bid_the_others_still_pass_and_only_pass():
    state = start([SPADES, HEARTS, CLUBS])
    state = state.apply("nap")
    assert state.legal_actions() == ["pass"]
    with pytest.raises(IllegalPlay) as refused:
        state.apply("bid:4")
    assert refused.value.rule == "bid_too_low"
    state = run(state, ["pass", "pass"])
    assert state.contract == (1, "nap")


def test_wellington_only_after_nap_and_blucher_only_after_wellington():
    plain = start([SPADES, HEARTS, CLUBS, ["2D", "3D", "4D", "5D", "6D"]])
    assert "wellington" not in plain.apply("nap").legal_actions()  # the option is off
    table = start([SPADES, HEARTS, CLUBS, ["2D", "3D", "4D", "5D", "6D"]], wellington_blucher=True)
    assert table.legal_actions() == ["pass", "bid:1", "bid:2", "bid:3", "bid:4", "nap"]
    with pytest.raises(IllegalPlay) as refused:
        table.apply("wellington")
    assert refused.value.rule == "bid_out_of_order"
    after_nap = table.apply("nap")
    assert after_nap.legal_actions() == ["pass", "wellington"]
    after_wellington = after_nap.apply("wellington")
    assert after_wellington.legal_actions() == ["pass", "blucher"]
    done = run(after_wellington, ["blucher", "pass"])
    assert done.contract == (3, "blucher")


def test_when_everyone_passes_the_deal_is_thrown_in_without_payment():
    state = run(start([SPADES, HEARTS, CLUBS]), ["pass", "pass", "pass"])
    assert state.is_over
    assert state.thrown_in
    assert state.to_act is None
    assert state.legal_actions() == []
    assert NAP.chips(state) == (0, 0, 0)


def test_the_first_card_names_trump_then_follow_suit_or_play_anything():
    hands = [["AS", "2H", "3C", "4D", "5D"], ["KS", "QS", "3H", "7C", "8C"], ["9H", "TH", "JC", "QD", "KD"]]
    state = run(start(hands, dealer=2), ["bid:2", "pass", "pass"])  # seat 0 bids first, and leads
    assert state.to_act == 0
    assert sorted(state.legal_actions()) == sorted(hands[0])  # any card leads
    state = state.apply("2H")
    assert state.trump == "H"
    assert state.legal_actions() == ["3H"]  # seat 1 must follow hearts
    state = state.apply("3H")
    assert sorted(state.legal_actions()) == ["9H", "TH"]
    state = state.apply("TH")
    assert state.tricks[0].winner == 2
    state = state.apply("JC")
    assert state.legal_actions() == ["3C"]
    state = run(state, ["3C", "7C"])
    assert state.tricks[1].winner == 2  # the highest card of the led suit, no trump played


def test_a_void_seat_may_trump_and_the_trump_wins():
    hands = [["2H", "AC", "KC", "QC", "JC"], ["AS", "3C", "4C", "5C", "6C"], ["KS", "7C", "8C", "9C", "TC"]]
    state = run(start(hands, dealer=2), ["bid:1", "pass", "pass"])
    state = run(state, ["AC", "3C", "7C"])  # the first lead names clubs trump
    assert state.trump == "C"
    assert state.tricks[0].winner == 0
    led = state.apply("2H")
    assert sorted(led.legal_actions()) == ["4C", "5C", "6C", "AS"]  # no heart: any card
    assert run(led, ["AS", "KS"]).tricks[1].winner == 0  # no trump: the led suit wins
    assert run(led, ["4C", "KS"]).tricks[1].winner == 1  # a trump beats it


@pytest.mark.parametrize(
    ("players", "bid", "taken", "bidder_change"),
    [
        (2, "bid:3", 3, 3),
        (2, "bid:3", 5, 3),  # extra tricks earn nothing
        (2, "bid:4", 3, -4),
        (6, "bid:1", 1, 5),
        (6, "nap", 5, 50),
        (6, "nap", 4, -25),
        (6, "wellington", 5, 50),
        (6, "wellington", 4, -50),
        (6, "blucher", 5, 50),
        (6, "blucher", 4, -100),
    ],
)
def test_chips_settle_with_each_other_player_and_sum_to_zero(players, bid, taken, bidder_change):
    from dataclasses import replace

    from games.engine.tricks.deal import Trick

    state = start(_hands(players), dealer=0)
    others = [seat for seat in state.seats if seat != 1]
    tricks = tuple(Trick(leader=1, cards=(), winner=1 if i < taken else others[0]) for i in range(5))
    done = replace(state, calls=("x",) * players, contract=(1, bid), trick=None, tricks=tricks)
    change = NAP.chips(done)
    assert sum(change) == 0
    assert change[1] == bidder_change
    assert all(change[other] == -bidder_change // (players - 1) for other in others)


def _hands(players):
    cards = [f"{rank}{suit}" for suit in "SHDC" for rank in "23456789TJQKA"]
    return [cards[5 * seat : 5 * seat + 5] for seat in range(players)]


def test_a_session_lasts_its_rounds_and_a_tie_plays_on():
    match = NAP.new_match(players=2, options=NAP.parse_options({"rounds": 1}), rng=random.Random(1))
    rng = random.Random(7)
    while not match.finished:
        deal = match.deal(rng)
        while not deal.is_over:
            deal = deal.apply(rng.choice(deal.legal_actions()))
        match = match.settle(deal)
        assert sum(match.chips) == 0
    assert match.dealt >= 2
    assert match.chips.count(max(match.chips)) == 1
    assert match.winners == (match.chips.index(max(match.chips)),)
    again = NAP.match_from_record(match.to_record(), players=2, options=match.options)
    assert again == match


@given(st.integers(min_value=2, max_value=6), st.integers(min_value=0, max_value=10**6), st.booleans())
def test_random_deals_conserve_cards_and_replay_to_the_same_end(players, seed, wellington):
    rng = random.Random(seed)
    options = NAP.parse_options({"wellington_blucher": wellington})
    state = NAP.deal(players=players, dealer=seed % players, options=options, rng=rng)
    actions = []
    while not state.is_over:
        legal = state.legal_actions()
        assert legal
        action = rng.choice(legal)
        actions.append(action)
        state = state.apply(action)
        held = sum(len(state.hand(seat)) for seat in state.seats)
        assert held + len(state.plays) == 5 * players
    record = {
        "game": "nap",
        "options": options.as_record(),
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.dealt],
        "actions": actions,
    }
    result = replay(record)["result"]
    if state.thrown_in:
        assert result == {"thrown_in": True}
    else:
        assert result["chips"] == list(NAP.chips(state))
        assert sum(result["chips"]) == 0
        assert sum(result["tricks_won"]) == 5


def test_perft_counts_bids_and_cards_as_worked_out_by_hand():
    three = start([SPADES, HEARTS, CLUBS])
    # Three bids: sequences of pass/higher bids over the ladder bid:1..nap: 21 + 15 + 10 + 6 + 3 + 1.
    assert perft_actions(three, 3) == 56
    two = start([SPADES, HEARTS])
    # Two bids (21 sequences), one of them all passes (the deal ends: not counted at depth 3),
    # then the bidder's lead from five cards.
    assert perft_actions(two, 2) == 21
    assert perft_actions(two, 3) == 20 * 5


def test_the_command_line_replays_nap_and_names_illegal_actions():
    record = {
        "game": "nap",
        "options": {"wellington_blucher": False},
        "dealer": 0,
        "hands": [SPADES, HEARTS, CLUBS],
        "actions": ["pass", "pass", "nap", "AS", "2H", "2C"],
    }
    partial = engine("replay", stdin=json.dumps(record))
    assert partial.returncode == 0, partial.stderr
    assert json.loads(partial.stdout) == {
        "tricks": [{"leader": 0, "cards": ["AS", "2H", "2C"], "winner": 0}],
        "result": None,
    }
    thrown = engine("replay", stdin=json.dumps(record | {"actions": ["pass", "pass", "pass"]}))
    assert json.loads(thrown.stdout) == {"tricks": [], "result": {"thrown_in": True}}
    for actions, index, seat, legal in [
        (["bid:5"], 0, 1, ["bid:1", "bid:2", "bid:3", "bid:4", "nap", "pass"]),
        (["pass", "pass", "nap", "pass"], 3, 0, ["AS", "JS", "KS", "QS", "TS"]),
        (["pass", "pass", "nap", "2H"], 3, 0, ["AS", "JS", "KS", "QS", "TS"]),  # another seat's card
        (["pass", "pass", "pass", "pass"], 3, None, []),  # after the deal is over
    ]:
        done = engine("replay", stdin=json.dumps(record | {"actions": actions}))
        assert done.returncode == 1
        error = json.loads(done.stdout)
        assert error["error"] == "illegal_action"
        assert (error["index"], error["seat"], error["action"], error["legal"]) == (index, seat, actions[-1], legal)
        assert error["rule"]
        assert error["message"]
    counted = engine(
        "perft",
        "--game",
        "nap",
        "--dealer",
        "0",
        "--hands",
        "AS,KS,QS,JS,TS/2H,3H,4H,5H,6H/2C,3C,4C,5C,6C",
        "--depth",
        "3",
    )
    assert counted.stdout.strip().splitlines()[-1] == "56"


def test_nap_is_offered_in_the_lobby_with_its_own_options_only():
    from games.selectors import game_list

    assert "nap" in [entry.name for entry in game_list()]
    with pytest.raises(InvalidDeal):
        NAP.parse_options({"stick_the_dealer": True})
