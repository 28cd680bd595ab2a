"""Seven Up, Pitch and Smudge (docs/rules/seven_up.md §1 to §9, docs/rules/pitch.md §1 to §10,
docs/rules/smudge.md §1 to §6) by hand-made deals: each case is worked out on paper from the rules and
replayed through the command line's ``replay`` (the records other tools send)."""

from __future__ import annotations

import json
import random
import re

import pytest

from games.engine import GAMES
from games.engine.cards import CARDS
from games.engine.game import InvalidDeal
from games.engine.records import IllegalRecordPlay, RecordError, replay
from games.engine.tricks.perft import perft_actions
from tests.engine_helpers import play_randomly, random_line

from .test_engine_cli import engine

ALL = set(CARDS)


def stock_after(hands: list[list[str]], top: list[str]) -> list[str]:
    """A stock beginning with ``top``, then every other undealt card in the deck's order."""
    dealt = {card for hand in hands for card in hand} | set(top)
    return [*top, *(card for card in CARDS if card not in dealt)]


def seven_up(hands, top, actions, *, dealer=1, scores=None, partnerships=False) -> dict:
    record = {
        "game": "seven_up",
        "options": {"partnerships": partnerships},
        "dealer": dealer,
        "hands": hands,
        "stock": stock_after(hands, top),
        "scores": scores or [0] * (2 if partnerships else len(hands)),
        "actions": actions,
    }
    return replay(record)


def pitch(hands, actions, *, dealer=None, scores=None, game="pitch", options=None) -> dict:
    record = {
        "game": game,
        "options": options or {},
        "dealer": len(hands) - 1 if dealer is None else dealer,
        "hands": hands,
        "scores": scores or [0] * len(hands),
        "actions": actions,
    }
    return replay(record)


# Two players, Bo (seat 1) deals, Anna (seat 0) is eldest.
ANNA = ["AH", "KH", "2H", "JS", "TD", "3C"]
BO = ["QH", "9S", "8S", "7D", "6C", "5C"]


def test_standing_keeps_the_turned_suit_and_the_categories_go_to_their_winners():
    done = seven_up(
        [ANNA, BO], ["4H"], ["stand", "AH", "QH", "KH", "5C", "2H", "9S", "JS", "8S", "TD", "7D", "3C", "6C"]
    )
    result = done["result"]
    assert result["trump"] == "H"
    assert not result["gift"]
    assert result["runs"] == 0
    # Anna: high (AH), low (2H, the lowest trump played); no jack of hearts played; game 20 to 0.
    assert (result["high"], result["low"], result["jack"], result["game"]) == (0, 0, None, 0)
    assert result["game_points"] == [20, 0]  # AH+QH 6, KH 3, JS 1, TD 10
    assert result["points"] == [3, 0]
    assert result["scores"] == [3, 0]
    assert result["winner"] is None
    assert [trick["winner"] for trick in done["tricks"]] == [0, 0, 0, 0, 0, 1]


def test_a_deal_is_won_by_the_side_that_scored_most_not_by_the_last_trick():
    game = GAMES["seven_up"]
    hands = [ANNA, BO]
    state = game.start({"dealer": 1, "hands": hands, "stock": stock_after(hands, ["4H"]), "scores": [0, 0]})
    for action in ["stand", "AH", "QH", "KH", "5C", "2H", "9S", "JS", "8S", "TD", "7D", "3C", "6C"]:
        state = state.apply(action)
    assert state.tricks[-1].winner == 1  # Bo's 6C takes the last trick ...
    assert state.outcome().winners == (0,)  # ... and Anna, with all three points, wins the deal


def test_trumping_is_allowed_while_holding_the_led_suit_but_not_a_third_suit():
    # Anna leads JS; Bo holds 9S and 8S and may still trump with QH, but not throw 7D.
    start = ["stand", "JS"]
    trumped = seven_up([ANNA, BO], ["4H"], [*start, "QH"])
    assert trumped["tricks"][0] == {"leader": 0, "cards": ["JS", "QH"], "winner": 1}
    with pytest.raises(IllegalRecordPlay) as refused:
        seven_up([ANNA, BO], ["4H"], [*start, "7D"])
    assert refused.value.error.rule == "must_follow"
    assert sorted(refused.value.error.legal) == ["8S", "9S", "QH"]


def test_a_trump_led_must_be_followed_by_a_trump():
    with pytest.raises(IllegalRecordPlay) as refused:
        seven_up([ANNA, BO], ["4H"], ["stand", "AH", "9S"])
    assert refused.value.error.legal == ["QH"]


def test_a_lone_trump_is_high_and_low_and_the_jack_makes_it_three():
    # Clubs turned; the only club anyone holds is Anna's jack, which she plays.
    anna = ["JC", "AS", "KS", "QS", "TS", "9S"]
    bo = ["2D", "3D", "4D", "5D", "6D", "7D"]
    actions = ["stand", "JC", "2D", "AS", "3D", "KS", "4D", "QS", "5D", "TS", "6D", "9S", "7D"]
    result = seven_up([anna, bo], ["4C"], actions)["result"]
    assert (result["high"], result["low"], result["jack"], result["game"]) == (0, 0, 0, 0)
    assert result["points"] == [4, 0]


def test_no_trump_played_scores_no_high_low_or_jack():
    anna = ["AS", "KS", "QS", "TS", "9S", "8S"]
    bo = ["2D", "3D", "4D", "5D", "6D", "7D"]
    actions = ["stand"] + [card for pair in zip(anna, bo, strict=True) for card in pair]
    result = seven_up([anna, bo], ["4C"], actions)["result"]
    assert (result["high"], result["low"], result["jack"]) == (None, None, None)
    assert result["game"] == 0
    assert result["points"] == [1, 0]


def test_low_goes_to_its_holder_in_seven_up_and_to_the_tricks_winner_in_pitch():
    # Hearts trump; Bo's 2H falls under Anna's AH in the first trick.
    anna = ["AH", "KS", "QS", "JS", "TS", "9S"]
    bo = ["2H", "3D", "4D", "5D", "6D", "7D"]
    plays = [card for pair in zip(anna, bo, strict=True) for card in pair]
    seven = seven_up([anna, bo], ["4H"], ["stand", *plays])["result"]
    assert seven["low"] == 1
    assert seven["high"] == 0
    # Pitch: Anna (seat 0, left of the dealer Bo) bids 1 and pitches the AH.
    pitched = pitch([anna, bo], ["bid:1", "pass", *plays])["result"]
    assert pitched["low"] == 0
    assert pitched["high"] == 0
    assert pitched["trump"] == "H"


def test_a_tied_game_point_scores_for_nobody():
    # Each takes a ten: 10 card points each, nothing else counts.
    anna = ["TH", "2S", "3S", "4S", "5S", "6S"]
    bo = ["2H", "TD", "7S", "8S", "9S", "3D"]
    # Anna's TH takes Bo's 2H; Bo's 7S takes the 2S and he leads on: his TD, then his spades and 3D.
    actions = ["stand", "TH", "2H", "2S", "7S", "TD", "3S", "8S", "4S", "9S", "5S", "3D", "6S"]
    result = seven_up([anna, bo], ["4H"], actions)["result"]
    assert result["game_points"] == [10, 10]
    assert result["game"] is None
    assert result["points"] == [1, 1]  # high: Anna's TH; low: Bo's 2H, scored by its holder


@pytest.mark.parametrize(("eldest_score", "legal"), [(5, ["give", "refuse"]), (6, ["refuse"])])
def test_the_gift_is_refused_while_eldests_side_has_six(eldest_score, legal):
    state = GAMES["seven_up"].start(
        {"dealer": 1, "hands": [ANNA, BO], "stock": stock_after([ANNA, BO], ["4H"]), "scores": [eldest_score, 0]}
    )
    assert state.apply("beg").legal_actions() == legal


def test_the_gift_scores_for_eldest_and_keeps_the_trump():
    actions = ["beg", "give", "AH", "QH", "KH", "5C", "2H", "9S", "JS", "8S", "TD", "7D", "3C", "6C"]
    result = seven_up([ANNA, BO], ["4H"], actions, scores=[2, 0])["result"]
    assert result["gift"]
    assert result["trump"] == "H"
    assert result["points"] == [4, 0]
    assert result["scores"] == [6, 0]


def test_a_turned_jack_scores_for_the_dealer_even_when_refused_and_the_refused_suit_is_set_aside():
    # JH turned (a point to Bo, the dealer); refused: three more each (AS KS QS to Anna, TS 8H 7H
    # to Bo), 6H turned is hearts again and set aside, run again (5H 3H 4H / TH 9H AD), KD fixes diamonds.
    state = GAMES["seven_up"].start(
        {
            "dealer": 1,
            "hands": [ANNA, BO],
            "stock": stock_after(
                [ANNA, BO], ["JH", "AS", "KS", "QS", "TS", "8H", "7H", "6H", "5H", "3H", "4H", "TH", "9H", "AD", "KD"]
            ),
        }
    )
    state = state.apply("beg").apply("refuse")
    assert state.trump == "D"
    assert state.contract.runs == 2
    assert state.contract.turned == ("JH", "6H", "KD")
    assert len(state.hand(0)) == 12
    assert len(state.hand(1)) == 12
    assert state.to_act == 0
    assert all(action.startswith("discard:") for action in state.legal_actions())
    view = state.view(1)
    assert [card.card for area in view.areas if area.name == "set-aside" for card in area.cards] == ["JH", "6H"]
    assert next(area for area in view.areas if area.name == "stock").count == 40 - 15
    # Anna discards six, then Bo; Anna leads.
    for card in state.hand(0)[:6]:
        state = state.apply(f"discard:{card}")
    assert state.to_act == 1
    for card in state.hand(1)[:6]:
        state = state.apply(f"discard:{card}")
    assert state.trick is not None
    assert state.to_act == 0
    assert len(state.hand(0)) == 6
    rng = random.Random(1)
    state = play_randomly(state, rng)
    result = GAMES["seven_up"].deal_outcome(state)
    assert result["turned_jacks"] == 1
    assert result["runs"] == 2
    assert result["points"][1] >= 1  # the turned jack stands


def test_a_run_the_stock_cannot_cover_throws_the_deal_in_and_the_same_dealer_deals_again():
    # Four players: 28 in the stock, one turned; each run takes 13. Two runs of hearts leave one card.
    hands = [
        ["2S", "3S", "4S", "5S", "6S", "7S"],
        ["2D", "3D", "4D", "5D", "6D", "7D"],
        ["2C", "3C", "4C", "5C", "6C", "7C"],
        ["8S", "9S", "TS", "JS", "QS", "KS"],
    ]
    plain = [card for card in CARDS if card[1] != "H" and card not in {c for h in hands for c in h}]  # 15
    hearts = ["5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]
    # Turned 2H (refused); run 1: 12 cards, 3H turned and set aside; run 2: 12 cards, 4H set aside;
    # one card (AH) is left, too few for a third run.
    stock = ["2H", *plain[:12], "3H", *plain[12:], *hearts, "4H", "AH"]
    assert len(stock) == 28
    record = {
        "game": "seven_up",
        "options": {},
        "dealer": 0,
        "hands": hands,
        "stock": stock,
        "actions": ["beg", "refuse"],
    }
    assert replay(record) == {"tricks": [], "result": {"thrown_in": True}}
    game = GAMES["seven_up"]
    match = game.new_match(players=4, options=game.parse_options({}), rng=random.Random(0))
    state = game.start({**record, "dealer": match.dealer}).apply("beg").apply("refuse")
    assert state.contract.runs == 2  # what was run and turned is told, though nothing counts
    assert state.contract.turned == ("2H", "3H", "4H")
    exported = state.public_record()
    assert exported["stock"] == stock  # every card but the last was turned or run: all as they lay
    assert replay(exported) == {"tricks": [], "result": {"thrown_in": True}}
    # the same dealer deals again, and nothing counts
    after = match.settle(state)
    assert after.dealer == match.dealer
    assert after.points == match.points


def test_partnerships_score_per_side_and_the_first_side_to_seven_in_order_wins():
    # Four players in partnerships 0+2 / 1+3; Dag (3) deals, Anna (0) is eldest and stands on spades.
    hands = [
        ["AS", "2S", "KD", "QD", "JD", "9D"],
        ["3S", "4D", "5D", "6D", "7D", "8D"],
        ["JS", "2C", "3C", "4C", "5C", "6C"],
        ["4S", "7C", "8C", "9C", "TC", "QC"],
    ]
    plays = ["AS", "3S", "JS", "4S"]  # Anna's AS takes Bo's 3S, Cleo's JS and Dag's 4S
    state = GAMES["seven_up"].start(
        {
            "dealer": 3,
            "hands": hands,
            "options": {"partnerships": True},
            "stock": stock_after(hands, ["TS"]),
            "scores": [6, 6],
        }
    )
    state = state.apply("stand")
    for card in plays:
        state = state.apply(card)
    rng = random.Random(3)
    state = play_randomly(state, rng)
    result = GAMES["seven_up"].deal_outcome(state)
    # High is Anna's AS: side 0 reaches 7 first, whatever else happens.
    assert result["high"] == 0
    assert result["winner"] == 0
    assert len(result["points"]) == 2
    assert result["jack"] == 0
    assert result["low"] == 0  # Anna's 2S, the last spade left, is the lowest trump played


def test_pitch_bidding_once_each_the_dealer_last_and_only_pass_after_the_top_bid():
    game = GAMES["pitch"]
    hands = [ANNA, BO, ["2S", "3S", "4S", "5S", "6S", "7S"]]
    state = game.start({"dealer": 2, "hands": hands, "scores": [0, 0, 0]})
    assert state.to_act == 0
    assert state.legal_actions() == ["pass", "bid:1", "bid:2", "bid:3", "bid:4"]
    state = state.apply("bid:4")
    assert state.to_act == 1
    assert state.legal_actions() == ["pass"]
    state = state.apply("pass")
    assert state.to_act == 2
    assert state.legal_actions() == ["pass"]
    state = state.apply("pass")
    assert state.trick.leader == 0
    assert state.trump is None
    state = state.apply("3C")  # the pitch names trump
    assert state.trump == "C"


def test_all_pass_throws_the_pitch_deal_in_and_the_next_player_deals():
    assert pitch([ANNA, BO], ["pass", "pass"]) == {"tricks": [], "result": {"thrown_in": True}}
    game = GAMES["pitch"]
    match = game.new_match(players=2, options=game.parse_options({}), rng=random.Random(0))
    state = game.start({"dealer": match.dealer, "hands": [ANNA, BO]}).apply("pass").apply("pass")
    assert match.settle(state).dealer == (match.dealer + 1) % 2


def test_a_failed_bid_is_lost_and_the_others_still_score():
    # Bo (seat 1) bids 3 as dealer and pitches... Anna is eldest: she passes, Bo bids 3.
    anna = ["AH", "2H", "3S", "4S", "5S", "6S"]
    bo = ["KH", "7D", "8D", "9D", "TD", "JD"]
    actions = ["pass", "bid:3", "KH", "AH", "3S", "7D"]  # Anna takes KH with AH, leads 3S, Bo has no spade...
    done = pitch([anna, bo], actions)
    assert done["result"] is None  # not over yet
    rest = ["4S", "8D", "5S", "9D", "6S", "TD", "2H", "JD"]
    # Anna won trick 1 and leads: 3S, Bo (no spades) throws 7D, Anna wins...
    result = pitch([anna, bo], [*actions, *rest])["result"]
    assert result["pitcher"] == 1
    assert result["contract"] == "bid:3"
    assert result["trump"] == "H"
    assert result["high"] == 0
    assert result["low"] == 0
    assert result["made"] is False
    assert result["points"][1] == -3
    assert result["points"][0] == sum(result[c] == 0 for c in ("high", "low", "jack", "game"))
    assert result["scores"] == [result["points"][0], -3]


def test_the_pitcher_counts_first():
    # Both at 6. Bo pitches the KH for 1; Anna's AH takes it (high: counted first in the order high,
    # low, jack, game), but Bo makes low (his 2H trumps her spade) and game: the pitcher counts first.
    anna = ["AH", "3S", "4S", "5S", "6S", "7S"]
    bo = ["KH", "2H", "TD", "AD", "QD", "8D"]
    plays = ["KH", "AH", "3S", "2H", "TD", "4S", "AD", "5S", "QD", "6S", "8D", "7S"]
    result = pitch([anna, bo], ["pass", "bid:1", *plays], scores=[6, 6])["result"]
    assert (result["high"], result["low"], result["game"]) == (0, 1, 1)
    assert result["game_points"] == [7, 16]
    assert result["made"]
    assert result["points"] == [1, 2]
    assert result["winner"] == 1
    assert result["scores"] == [7, 8]


def test_a_made_smudge_wins_at_once_but_not_from_below_zero():
    anna = ["AH", "2H", "JH", "TS", "AS", "KS"]
    bo = ["3D", "4D", "5D", "6D", "7D", "8D"]
    plays = [card for pair in zip(anna, bo, strict=True) for card in pair]
    made = pitch([anna, bo], ["smudge", "pass", *plays], game="smudge", dealer=1)["result"]
    assert made["contract"] == "smudge"
    assert made["made"]
    assert made["points"][0] == 4
    assert made["winner"] == 0
    assert made["scores"] == [4, 0]
    in_the_hole = pitch([anna, bo], ["smudge", "pass", *plays], game="smudge", dealer=1, scores=[-2, 0])["result"]
    assert in_the_hole["made"]
    assert in_the_hole["points"][0] == 4
    assert in_the_hole["winner"] is None
    assert in_the_hole["scores"] == [2, 0]


def test_smudge_has_no_bid_four_and_pitch_no_smudge():
    with pytest.raises(IllegalRecordPlay):
        pitch([ANNA, BO], ["bid:4"], game="smudge")
    with pytest.raises(IllegalRecordPlay):
        pitch([ANNA, BO], ["smudge"])


def test_a_failed_smudge_loses_four():
    anna = ["2H", "3S", "4S", "5S", "6S", "7S"]
    bo = ["AH", "8D", "9D", "TD", "JD", "QD"]
    plays = ["2H", "AH", "8D", "3S", "9D", "4S", "TD", "5S", "JD", "6S", "QD", "7S"]
    result = pitch([anna, bo], ["smudge", "pass", *plays], game="smudge", dealer=1)["result"]
    assert not result["made"]
    assert result["points"][0] == -4


# Three players, Cleo deals: Anna pitches for 4 with the two of hearts and Bo's tricks take every prize
# but the jack (never played): Anna loses 4, Bo scores 3, Cleo nothing.
FAILED_FOUR = (
    [["2H", "3S", "4S", "5S", "6S", "7S"], ["AH", "8D", "9D", "TD", "JD", "QD"], ["3C", "4C", "5C", "6C", "7C", "8C"]],
    ["bid:4", "pass", "pass", "2H", "AH", "3C", *("8D", "4C", "3S", "9D", "5C", "4S", "TD", "6C", "5S")],
    ["JD", "7C", "6S", "QD", "8C", "7S"],
)


def failed_four(game: str) -> tuple[list[list[str]], list[str]]:
    hands, actions, last = FAILED_FOUR
    return hands, [*actions, *last] if game == "pitch" else ["smudge", *actions[1:], *last]


@pytest.mark.parametrize("game", ["pitch", "smudge"])
def test_by_the_rules_a_pitcher_at_minus_7_or_below_plays_on(game):
    hands, actions = failed_four(game)
    done = pitch(hands, actions, scores=[-3, 1, 3], game=game)["result"]
    assert (done["scores"], done["winner"]) == ([-7, 4, 3], None)  # Anna at -7, Bo leads alone: play on
    rules = GAMES[game]
    match = rules.match_from_record({"dealer": 2, "points": [-3, 1, 3]}, players=3, options=rules.parse_options({}))
    state = rules.start({"dealer": 2, "hands": hands, "scores": [-3, 1, 3]})
    for action in actions:
        state = state.apply(action)
    after = match.settle(state)
    assert (after.points, after.finished) == ((-7, 4, 3), False)
    assert rules.start(rules.setup(after, random.Random(1))).standing == (-7, 4, 3)


SET_OUT = {"set_out": True}


@pytest.mark.parametrize("game", ["pitch", "smudge"])
def test_with_the_set_out_option_a_pitcher_at_minus_7_ends_the_session_for_the_one_who_leads(game):
    hands, actions = failed_four(game)
    done = pitch(hands, actions, scores=[-2, 1, 3], game=game, options=SET_OUT)["result"]
    assert (done["points"], done["winner"]) == ([-4, 3, 0], None)  # Anna at -6: play on
    done = pitch(hands, actions, scores=[-3, 1, 3], game=game, options=SET_OUT)["result"]
    assert (done["scores"], done["winner"]) == ([-7, 4, 3], 1)  # Anna at -7: Bo leads alone and wins
    # Bo and Cleo level at the top: the session goes on until one leads alone.
    rules = GAMES[game]
    options = rules.parse_options(SET_OUT)
    match = rules.match_from_record({"dealer": 2, "points": [-3, 1, 4]}, players=3, options=options)
    state = rules.start({"dealer": 2, "hands": hands, "scores": [-3, 1, 4], "options": SET_OUT})
    for action in actions:
        state = state.apply(action)
    after = match.settle(state)
    assert (after.points, after.finished) == ((-7, 4, 4), False)
    assert rules.start(rules.setup(after, random.Random(1))).standing == (-7, 4, 4)


@pytest.mark.parametrize("game", ["pitch", "smudge"])
def test_the_set_out_option_is_off_unless_chosen_and_records_without_it_read_as_before(game):
    rules = GAMES[game]
    assert rules.parse_options({}) == rules.parse_options(None) == rules.parse_options({"set_out": False})
    assert rules.parse_options({}).as_record() == {}  # a default deal's record, as before the option
    chosen = rules.parse_options(SET_OUT)
    assert chosen.as_record() == SET_OUT
    assert rules.parse_options(chosen.as_record()) == chosen
    assert len(rules.describe(chosen)) == len(rules.describe(rules.parse_options({}))) + 1
    assert [option.default for option in rules.options_schema if option.name == "set_out"] == [False]
    for wrong in ({"set_out": "yes"}, {"set_out": 1}, {"points": 5}):
        with pytest.raises(InvalidDeal):
            rules.parse_options(wrong)


@pytest.mark.parametrize(
    "record",
    [
        {"game": "seven_up", "dealer": 1, "hands": [ANNA, BO]},  # no stock
        {"game": "seven_up", "dealer": 1, "hands": [ANNA, BO], "stock": ["4H"]},  # short stock
        {"game": "seven_up", "dealer": 1, "hands": [ANNA, BO], "stock": stock_after([ANNA, BO], []), "scores": [7, 0]},
        {"game": "pitch", "dealer": 1, "hands": [ANNA, BO], "stock": ["4H"]},
        {"game": "pitch", "dealer": 1, "hands": [ANNA, BO], "scores": [0]},
        {
            "game": "seven_up",
            "options": {"partnerships": True},
            "dealer": 1,
            "hands": [ANNA, BO],
            "stock": stock_after([ANNA, BO], []),
        },
    ],
)
def test_malformed_records_are_refused(record):
    with pytest.raises(RecordError):
        replay({**record, "actions": []})


def test_an_illegal_action_exits_1_naming_it_with_the_sorted_legal_list():
    record = {
        "game": "seven_up",
        "options": {"partnerships": False},
        "dealer": 1,
        "hands": [ANNA, BO],
        "stock": stock_after([ANNA, BO], ["4H"]),
        "scores": [6, 0],
        "actions": ["beg", "give"],
    }
    done = engine("replay", stdin=json.dumps(record))
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "error": "illegal_action",
        "index": 1,
        "seat": 1,
        "action": "give",
        "legal": ["refuse"],
        "rule": "not_now",
        "message": "give is not one of this step's actions",
    }


def test_perft_by_hand():
    hands = f"{','.join(ANNA)}/{','.join(BO)}"
    top = ["4H", "AS", "KS", "QS", "TS", "8H", "7H", "6H", "5H", "3H", "JH", "TH", "9H", "AD", "KD"]
    stock = ",".join(stock_after([ANNA, BO], top))
    counts = []
    for depth in (1, 2, 3):
        done = engine(
            "perft", "--game", "seven_up", "--dealer", "1", "--hands", hands, "--stock", stock, "--depth", str(depth)
        )
        assert done.returncode == 0, done.stderr
        counts.append(int(done.stdout.strip().splitlines()[-1]))
    # 1: stand or beg. 2: stand then any of Anna's 6 leads; beg then give or refuse.
    # 3: after stand, Bo's answers to each lead (AH, KH, 2H: QH only; JS: 9S 8S QH; TD: 7D QH;
    #    3C: 6C 5C QH) = 11; after give, Anna's 6 leads; after refuse (runs to 12 cards), her 12 discards.
    assert counts == [2, 8, 11 + 6 + 12]
    refuse_only = engine(
        "perft",
        "--game",
        "seven_up",
        "--dealer",
        "1",
        "--hands",
        hands,
        "--stock",
        stock,
        "--scores=6,0",
        "--depth",
        "2",
    )
    assert refuse_only.stdout.strip().splitlines()[-1] == str(6 + 1)


def test_pitch_perft_by_hand():
    game = GAMES["pitch"]
    state = game.start({"dealer": 1, "hands": [ANNA, BO]})
    # Eldest: pass or 1-4 (5); the dealer answers pass + the bids above (5, 4, 3, 2, 1).
    assert perft_actions(state, 2) == 5 + 4 + 3 + 2 + 1
    # All pass ends the deal; the other 14 give the pitcher 6 leads each.
    assert perft_actions(state, 3) == 14 * 6
    done = engine(
        "perft", "--game", "smudge", "--dealer", "1", "--hands", f"{','.join(ANNA)}/{','.join(BO)}", "--depth", "2"
    )
    assert done.stdout.strip().splitlines()[-1] == "15"


@pytest.mark.parametrize("name", ["seven_up", "pitch", "smudge"])
def test_random_deals_conserve_cards_always_offer_an_action_and_replay_from_their_records(name):
    game = GAMES[name]
    for players in sorted(game.seat_counts):
        for seed in range(12):
            options = game.parse_options({"partnerships": players == 4 and seed % 2 == 0} if name == "seven_up" else {})
            rng = random.Random(seed)
            match = game.new_match(players=players, options=options, rng=rng)
            setup = game.setup(match, rng)
            state = game.start(setup)
            dealt = {card for hand in setup["hands"] for card in hand} | set(setup.get("stock", []))
            assert dealt == ALL if name == "seven_up" else len(dealt) == 6 * players
            actions = []
            while not state.is_over:
                legal = state.legal_actions()
                assert legal
                action = rng.choice(legal)
                actions.append(action)
                state = state.apply(action)
                held = [card for seat in range(players) for card in state.hand(seat)]
                assert len(held) == len(set(held))
            record = {"game": name, **setup, "actions": actions}
            done = replay(record)
            assert done["result"] == ({"thrown_in": True} if state.thrown_in else game.deal_outcome(state))
            if not state.thrown_in:
                exported = state.public_record() | game.record_context(match)
                assert replay(exported) == done
                if name == "seven_up":  # the stock nobody drew is exported in the deck's order, not as it lay
                    drawn = 1 + (3 * players + 1) * done["result"]["runs"]
                    assert exported["stock"][:drawn] == setup["stock"][:drawn]
                    assert exported["stock"][drawn:] == sorted(setup["stock"][drawn:], key=CARDS.index)
                points = done["result"]["points"]
                assert done["result"]["scores"] == [a + b for a, b in zip(setup["scores"], points, strict=True)]


CARD_IN_VIEW = re.compile(r"'([2-9TJQKA][SHDC])'")


@pytest.mark.parametrize("name", ["seven_up", "pitch", "smudge"])
def test_a_seat_sees_no_other_hand_no_undrawn_stock_card_and_no_other_seats_discard(name):
    """Every card named anywhere in a seat's view (the table, the log, the computer players' detail)
    is its own, played, or turned up; a spectator's, only played or turned up."""
    game = GAMES[name]
    players = 4
    for seed in range(6):
        options = game.parse_options({"partnerships": seed % 2 == 0} if name == "seven_up" else {})
        rng = random.Random(seed)
        first = game.deal_match(game.new_match(players=players, options=options, rng=rng), rng)
        for state in random_line(first, rng)[0]:
            public = {card for trick in (*state.tricks, state.trick) if trick for card in trick.cards}
            public |= set(getattr(state.contract, "turned", ()))
            for seat in (*range(players), None):
                allowed = set(public)
                if seat is not None:
                    allowed |= set(state.dealt[seat]) | set(state.hand(seat))
                    allowed |= {call[8:] for call, who in zip(state.calls, state.callers, strict=True) if who == seat}
                named = set(CARD_IN_VIEW.findall(repr(state.view(seat))))
                assert named <= allowed, (seat, named - allowed)


@pytest.mark.parametrize(("name", "players", "options"), [("seven_up", 4, {"partnerships": True}), ("pitch", 3, {})])
def test_the_arena_plays_whole_sessions_and_counts_them_won(name, players, options):
    from games.bots.arena import run_arena

    result = run_arena(
        game=name, players=players, deals=12, seed=1, hero="medium", field="easy", options=options, sessions=True
    )
    data = result.as_json()
    assert result.deals >= 12  # every session is played to its end
    assert result.faults == 0
    assert data["sessions"] == len(result.sessions_won) >= 1
    assert all(0 <= won <= 1 for won in result.sessions_won)
    assert len(result.points) == result.deals - result.thrown_in
    # Per played deal the hero's side gains 0..4 points (Pitch: a failed bid loses up to 4).
    assert all(-4 <= gained <= 4 for gained in result.points)
    again = run_arena(
        game=name, players=players, deals=12, seed=1, hero="medium", field="easy", options=options, sessions=True
    )
    assert again.as_json() | {"decision_ms": None} == data | {"decision_ms": None}  # seeded: a run repeats


def test_a_match_settles_only_its_own_finished_deal():
    game = GAMES["pitch"]
    match = game.new_match(players=3, options=game.parse_options({}), rng=random.Random(0))
    hands = [ANNA, BO, ["2S", "3S", "4S", "5S", "6S", "7S"]]
    state = game.start({"dealer": match.dealer, "hands": hands, "scores": [0, 0, 0]})
    with pytest.raises(InvalidDeal):
        match.settle(state)  # still bidding
    other = game.start({"dealer": match.dealer, "hands": hands, "scores": [0, 6, 0]})
    while not other.is_over:
        other = other.apply(other.legal_actions()[0])
    with pytest.raises(InvalidDeal):
        match.settle(other)  # dealt from other scores than this match's


def test_perft_refuses_scores_that_are_not_whole_numbers():
    done = engine(
        "perft",
        "--game",
        "pitch",
        "--dealer",
        "1",
        "--hands",
        ",".join(ANNA) + "/" + ",".join(BO),
        "--scores=--1,0",
        "--depth",
        "1",
    )
    assert done.returncode == 2
    assert "--scores must be whole numbers" in done.stderr


@pytest.mark.parametrize("name", ["seven_up", "pitch"])
def test_a_resampled_world_gives_no_seat_a_suit_it_has_shown_void_in(name):
    from games.engine.all_fours import _voids

    game = GAMES[name]
    shown = 0
    for seed in range(8):
        rng = random.Random(seed)
        first = game.deal_match(game.new_match(players=4, options=game.parse_options({}), rng=rng), rng)
        for state in random_line(first, rng)[0][:-1]:
            seat = state.to_act
            view = state.view(seat)
            voids = _voids(view.detail)
            shown += sum(len(suits) for suits in voids.values())
            world = game.resample(view, rng)
            assert world.hand(seat) == state.hand(seat)
            for other, suits in voids.items():
                if other != seat:
                    assert not {card[1] for card in world.hand(other)} & suits
    assert shown  # random play shows voids often enough to test the rule
