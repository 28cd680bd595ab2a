"""Euchre (docs/rules/euchre.md): bowers, the upcard, trump making in two rounds, going alone, scoring."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import EUCHRE, IllegalPlay, InvalidDeal
from games.engine.euchre import power
from games.engine.records import replay
from games.engine.tricks.perft import perft_actions
from tests.engine.test_engine_cli import engine
from tests.engine_helpers import play_randomly, random_line

HANDS = [
    ["JH", "JD", "AH", "KH", "QH"],  # seat 0: both bowers and top hearts
    ["7S", "8S", "9S", "TS", "QS"],
    ["7C", "8C", "9C", "TC", "QC"],
    ["7D", "8D", "9D", "TD", "QD"],
]


def start(hands=HANDS, dealer=3, upcard="TH", **options):
    return EUCHRE.start_hands(dealt=hands, dealer=dealer, options=EUCHRE.parse_options(options), upcard=upcard)


def run(state, actions):
    for action in actions:
        state = state.apply(action)
    return state


def test_the_bowers_rank_above_every_trump_and_the_left_bower_is_trump():
    assert power("JH", "S", "H") > power("JD", "S", "H") > power("AH", "S", "H") > power("AS", "S", "H")
    assert power("JD", "D", "H") > power("AD", "D", "H")  # the left bower no longer counts as a diamond
    assert power("AD", "D", "H") > power("KD", "D", "H") > power("AS", "D", "H") == 0


def test_round_one_orders_the_upcard_and_the_dealer_picks_it_up_and_discards():
    state = start()
    assert state.to_act == 0  # left of the dealer
    assert state.legal_actions() == ["pass", "order"]
    state = state.apply("order")
    assert state.to_act == 3
    assert sorted(state.legal_actions()) == sorted(f"discard:{c}" for c in [*HANDS[3], "TH"])
    state = state.apply("discard:7D")
    assert sorted(state.hand(3)) == sorted(["8D", "9D", "TD", "QD", "TH"])
    assert state.to_act == 0  # the maker: alone or not
    assert state.legal_actions() == ["pass", "alone"]
    state = state.apply("pass")
    assert state.trump == "H"
    assert state.contract == (0, "H", False, None)
    assert state.trick.leader == 0  # left of the dealer leads


def test_the_left_bower_follows_trump_not_its_own_suit():
    state = run(start(), ["order", "discard:7D", "pass"])
    state = run(state, ["AH"])  # hearts (trump) led
    assert sorted(state.legal_actions()) == ["7S", "8S", "9S", "QS", "TS"]  # seat 1 has no trump: any card
    state = run(state, ["7S", "7C"])
    assert state.legal_actions() == ["TH"]  # the dealer must follow trump with the picked-up ten
    state = run(state, ["TH"])
    assert state.tricks[0].winner == 0
    state = state.apply("JD")  # the left bower leads: a trump lead
    assert sorted(state.legal_actions()) == ["8S", "9S", "QS", "TS"]  # seat 1 has no trump (no heart)


def test_a_diamond_lead_does_not_force_the_left_bower_when_hearts_are_trump():
    hands = [["7D", "AS", "KS", "QS", "9S"], ["JD", "8D", "TS", "7C", "8C"], ["9C", "TC", "QC", "KC", "AC"]]
    hands.append(["7H", "8H", "9H", "TD", "QD"])
    state = run(start(hands, upcard="JH"), ["order", "discard:7H", "pass"])
    state = state.apply("7D")  # a diamond led
    assert state.legal_actions() == ["8D"]  # J♦ is a heart now, so only 8♦ follows diamonds
    state = run(state, ["8D", "9C", "TD"])
    assert state.tricks[0].winner == 3


def test_round_two_names_another_suit_and_four_passes_twice_throw_the_deal_in():
    passed = run(start(), ["pass"] * 4)
    assert passed.legal_actions() == ["pass", "call:S", "call:D", "call:C"]  # not the turned-down hearts
    with pytest.raises(IllegalPlay):
        passed.apply("call:H")
    called = run(passed, ["pass", "call:S", "pass"])
    assert called.contract == (1, "S", False, None)
    assert called.trump == "S"
    assert sorted(called.hand(3)) == sorted(HANDS[3])  # nobody picks up in round two
    thrown = run(start(), ["pass"] * 8)
    assert thrown.thrown_in
    assert thrown.legal_actions() == []
    assert EUCHRE.points(thrown) == (0, 0)


def test_stick_the_dealer_leaves_the_dealer_only_the_calls():
    state = run(start(stick_the_dealer=True), ["pass"] * 7)
    assert state.to_act == 3
    assert state.legal_actions() == ["call:S", "call:D", "call:C"]


def test_a_lone_maker_sits_the_partner_out_and_the_lead_moves_left_of_the_maker():
    state = run(start(), ["order", "discard:7D", "alone"])
    assert state.to_act == 1  # the maker's left opponent may defend alone
    state = run(state, ["pass", "pass"])  # then the right opponent; both pass
    assert state.seats == (0, 1, 3)  # seat 2 sits out
    assert state.trick.leader == 1  # the maker's left opponent leads
    state = run(state, ["7S", "8D", "JH"])
    assert len(state.tricks[0].cards) == 3
    assert state.tricks[0].winner == 0


def test_a_lone_defender_sits_their_partner_out_and_a_sitting_out_leader_passes_the_lead_on():
    # Seat 2 orders and goes alone (seat 0, the dealer, discards all the same and sits out).
    made = run(start(dealer=0), ["pass", "order", "discard:QH", "alone"])
    left = run(made, ["defend-alone"])  # seat 3, the maker's left opponent: seat 1 sits out
    assert left.contract == (2, "H", True, 3)
    assert left.seats == (2, 3)
    assert left.trick.leader == 3
    right = run(made, ["pass", "defend-alone"])  # seat 1 defends: seat 3, who would lead, sits out
    assert right.seats == (1, 2)
    assert right.trick.leader == 1  # the next active seat clockwise from seat 3


@pytest.mark.parametrize(
    ("alone", "defender", "makers", "points"),
    [
        (False, None, 3, (1, 0)),
        (False, None, 4, (1, 0)),
        (False, None, 5, (2, 0)),  # a march
        (True, None, 5, (4, 0)),  # a lone march
        (True, None, 3, (1, 0)),
        (False, None, 2, (0, 2)),  # euchred
        (True, 1, 2, (0, 2)),  # a lone defender taking 3
        (True, 1, 0, (0, 4)),  # a lone defender taking all five
    ],
)
def test_scoring(alone, defender, makers, points):
    from dataclasses import replace

    from games.engine.tricks.deal import Trick

    tricks = tuple(Trick(leader=0, cards=(), winner=0 if i < makers else 1) for i in range(5))
    done = replace(start(), contract=(0, "H", alone, defender), tricks=tricks, trick=None)
    assert EUCHRE.points(done) == points


def test_a_session_ends_at_the_points_and_both_partners_win():
    match = EUCHRE.new_match(players=4, options=EUCHRE.parse_options({"points": "5"}), rng=random.Random(2))
    rng = random.Random(3)
    while not match.finished:
        match = match.settle(play_randomly(match.deal(rng), rng))
    assert match.winners in ((0, 2), (1, 3))
    assert max(match.points) >= 5
    assert EUCHRE.match_from_record(match.to_record(), players=4, options=match.options) == match


@given(st.integers(min_value=0, max_value=10**6), st.booleans())
def test_random_deals_replay_to_the_same_points_and_only_a_free_dealer_throws_in(seed, stick):
    """(That cards are conserved and exports replay, for every game: tests/engine/test_every_game.py.)"""
    rng = random.Random(seed)
    options = EUCHRE.parse_options({"stick_the_dealer": stick})
    states, taken = random_line(EUCHRE.deal(players=4, dealer=seed % 4, options=options, rng=rng), rng)
    state, actions = states[-1], [action for _, action in taken]
    record = {
        "game": "euchre",
        "options": options.as_record(),
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.dealt],
        "upcard": state.upcard,
        "actions": actions,
    }
    result = replay(record)["result"]
    if state.thrown_in:
        assert not stick
        assert result == {"thrown_in": True}
    else:
        assert sum(result["tricks_won"]) == 5
        assert result["points"] == list(EUCHRE.points(state))


def test_perft_counts_every_decision_as_worked_out_by_hand():
    state = start()
    # Round one: each of four seats passes or orders; the first order ends it.
    # depth 1: pass/order; depth 2: after pass 2, after order 6 discards -> 8.
    assert perft_actions(state, 1) == 2
    assert perft_actions(state, 2) == 2 + 6
    # depth 3: pass,pass -> 2; pass,order -> 6 discards; order,discard -> 2 (alone/pass) x 6 = 12.
    assert perft_actions(state, 3) == 2 + 6 + 12


def test_the_command_line_replays_euchre_and_names_illegal_actions():
    record = {
        "game": "euchre",
        "options": {"stick_the_dealer": False},
        "dealer": 3,
        "hands": HANDS,
        "upcard": "TH",
        "actions": ["order", "discard:7D", "alone", "pass", "pass", "7S", "8D", "JH"],
    }
    done = engine("replay", stdin=json.dumps(record))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "tricks": [{"leader": 1, "cards": ["7S", "8D", "JH"], "winner": 0}],
        "result": None,
    }
    wrong = engine("replay", stdin=json.dumps(record | {"actions": ["order", "pass"]}))
    assert wrong.returncode == 1
    error = json.loads(wrong.stdout)
    assert (error["error"], error["index"], error["seat"], error["action"]) == ("illegal_action", 1, 3, "pass")
    assert error["legal"] == sorted(f"discard:{card}" for card in [*HANDS[3], "TH"])
    counted = engine(
        "perft",
        "--game",
        "euchre",
        "--dealer",
        "3",
        "--upcard",
        "TH",
        "--hands",
        "/".join(",".join(hand) for hand in HANDS),
        "--depth",
        "3",
    )
    assert counted.stdout.strip().splitlines()[-1] == "20"
    with pytest.raises(InvalidDeal):
        start(upcard="JH")  # already in a hand


def test_a_record_shows_no_hand_of_a_seat_that_sat_out_and_still_replays():
    """Seat 0 orders up and goes alone: seat 2 sits out, so its hand is never seen by anyone."""
    from games.engine.game import EVERYONE
    from games.engine.records import public_record
    from games.engine.tricks.seat_view import view_for

    state = run(start(), ["order", "discard:7D", "alone", "pass", "pass"])
    while not state.is_over:
        state = state.apply(state.legal_cards()[0])
    record = public_record(view_for(state, EVERYONE))
    assert record["hands"][2] == []
    assert [len(hand) for i, hand in enumerate(record["hands"]) if i != 2] == [5, 5, 5]
    assert replay(record)["result"] == EUCHRE.replay_outcome(None, state)["result"]


def test_a_record_whose_hidden_hand_would_have_to_play_is_refused():
    hands = [HANDS[0], HANDS[1], [], HANDS[3]]
    state = run(start(hands), ["order", "discard:7D"])
    with pytest.raises(IllegalPlay) as refused:
        state.apply("pass")  # seat 0 plays with its partner: seat 2 would have to show its cards
    assert refused.value.rule == "hidden_hand"
    with pytest.raises(InvalidDeal):
        start([HANDS[0], [], [], []])


def _log(state) -> list[str]:
    from django.utils import translation

    from games.selectors import say

    names = ["Anna", "Bo", "Cleo", "Dag"]
    with translation.override("en"):
        return [say(EUCHRE.call_said(state, i), names, name=names[seat]) for i, seat in enumerate(state.callers)]


def test_the_call_log_says_what_each_pass_meant_and_names_the_upcard():
    ordered = run(start(dealer=3, upcard="TH"), ["pass", "order", "discard:7D", "pass"])
    assert _log(ordered) == [
        "Anna passes.",
        "Bo orders up the 10♥.",
        "Dag discards a card face down.",
        "Bo plays with their partner.",  # not a second "Bo passes." after ordering up
    ]
    picked = run(start(dealer=3, upcard="TH"), ["pass", "pass", "pass", "order", "discard:7D", "alone", "pass"])
    assert _log(picked)[3:] == [
        "Dag picks up the 10♥.",
        "Dag discards a card face down.",
        "Dag goes alone.",
        "Anna does not defend alone.",
    ]
    turned = run(start(dealer=3, upcard="TH"), ["pass", "pass", "pass", "pass", "pass", "call:S"])
    assert _log(turned)[3:] == ["Dag passes and turns the 10♥ down.", "Anna passes.", "Bo calls spades."]


def test_a_discard_is_shown_after_the_deal_only_where_the_game_says(monkeypatch):
    hands = [["7D", "AS", "KS", "QS", "9S"], ["JD", "8D", "TS", "7C", "8C"], ["9C", "TC", "QC", "KC", "AC"]]
    hands.append(["7H", "8H", "9H", "TD", "QD"])
    state = run(start(hands, upcard="JH"), ["order", "discard:7H", "pass"])
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
    assert "discard:7H" in state.view("everyone").detail.calls  # the dealer played all five: it shows
    assert "discard:7H" not in state.view(1).detail.calls  # (while it ran, the dealer's alone)
    monkeypatch.setattr(EUCHRE, "discard_shown_after", lambda state, seat: False)
    assert "discard:7H" not in state.view("everyone").detail.calls
    assert "discard" in state.view("everyone").detail.calls  # that the dealer discarded, not what
