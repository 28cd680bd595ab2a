"""Auction Forty-Five and Forty-Five (docs/rules/auction_forty_five.md §1 to §12,
docs/rules/forty_five.md §1 to §10) by hand-made deals: each case is worked out on paper from the
rules and replayed through the command line's ``replay`` (the records other tools send)."""

from __future__ import annotations

import json
import random
import re

import pytest

from games.engine import GAMES
from games.engine.cards import CARDS
from games.engine.forty_five_family import plain_order, trump_order
from games.engine.game import InvalidDeal
from games.engine.records import IllegalRecordPlay, RecordError, replay
from games.engine.tricks.perft import perft_actions
from tests.engine_helpers import random_line

from .test_engine_cli import engine

ALL = set(CARDS)
SET_OUT = {"set_out": True}  # the table option that ends a session at minus the target (not in the rules)


def rest_of_deck(hands: list[list[str]], top: list[str] = (), upcard: str | None = None) -> list[str]:
    """The undealt cards: ``top`` first, then the others in the deck's order."""
    dealt = {card for hand in hands for card in hand} | set(top) | ({upcard} if upcard else set())
    return [*top, *(card for card in CARDS if card not in dealt)]


def auction(hands, actions, *, dealer=3, top=(), scores=None, rob=False, points=None, set_out=False) -> dict:
    return replay(
        {
            "game": "auction_forty_five",
            "options": {"rob_the_pack": rob} | ({"points": points} if points else {}) | (SET_OUT if set_out else {}),
            "dealer": dealer,
            "hands": hands,
            "stock": rest_of_deck(hands, list(top)),
            "scores": scores or [0, 0],
            "actions": actions,
        }
    )


def auction_state(hands, actions=(), *, dealer=3, top=(), scores=None, rob=False, set_out=False):
    state = GAMES["auction_forty_five"].start(
        {
            "options": {"rob_the_pack": rob} | (SET_OUT if set_out else {}),
            "dealer": dealer,
            "hands": hands,
            "stock": rest_of_deck(hands, list(top)),
            "scores": scores or [0, 0],
        }
    )
    for action in actions:
        state = state.apply(action)
    return state


def forty_five(hands, upcard, actions, *, dealer=1, scores=None, points=None) -> dict:
    return replay(
        {
            "game": "forty_five",
            **({"options": {"points": points}} if points else {}),
            "dealer": dealer,
            "hands": hands,
            "upcard": upcard,
            "scores": scores or [0, 0],
            "actions": actions,
        }
    )


def forty_five_state(hands, upcard, actions=(), *, dealer=1, scores=None):
    state = GAMES["forty_five"].start({"dealer": dealer, "hands": hands, "upcard": upcard, "scores": scores or [0, 0]})
    for action in actions:
        state = state.apply(action)
    return state


# -- the trump ladders ---------------------------------------------------------------


def test_each_trump_suit_ranks_five_jack_ace_of_hearts_then_highest_in_red_lowest_in_black():
    assert trump_order("H") == tuple(f"{rank}H" for rank in "5JAKQT987643 2".replace(" ", ""))
    assert trump_order("D") == ("5D", "JD", "AH", "AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", "4D", "3D", "2D")
    for black in "CS":
        assert trump_order(black) == tuple(
            card + black if len(card) == 1 else card for card in ["5", "J", "AH", "A", "K", "Q", *"2346789T"]
        )
    assert len(trump_order("H")) == 13
    assert all(len(trump_order(suit)) == 14 for suit in "DCS")


def test_plain_suits_rank_red_king_down_to_ace_and_black_king_queen_jack_ace_then_two_up():
    assert plain_order("D") == tuple(f"{rank}D" for rank in "KQJT98765432A")
    assert plain_order("H") == tuple(f"{rank}H" for rank in "KQJT98765432")  # the A♥ is always a trump
    assert plain_order("C") == tuple(f"{rank}C" for rank in "KQJA23456789T")


# Forty-Five for two: Bo (seat 1) deals, Anna (seat 0) leads. The upcard 7C makes clubs trump and
# nobody holds the A♣, so play starts at once.
def two_handed(anna, bo, upcard="7C", actions=()):
    return forty_five_state([anna, bo], upcard, actions)


def test_the_ace_of_hearts_is_a_trump_and_not_a_heart_when_another_suit_is_trump():
    # Hearts led, Bo holds the A♥ and a club: the A♥ is no heart, so he is void and plays anything.
    state = two_handed(["KH", "2D", "3D", "4D", "6D"], ["AH", "9C", "8S", "7S", "6S"], actions=["KH"])
    assert sorted(state.legal_actions()) == sorted(["AH", "9C", "8S", "7S", "6S"])
    after = state.apply("AH")  # and it wins as a trump
    assert after.tricks[0].winner == 1
    # The A♥ led is a trump lead: a club must follow it.
    led = two_handed(["AH", "2D", "3D", "4D", "6D"], ["KH", "9C", "8S", "7S", "6S"], actions=["AH"])
    assert led.legal_actions() == ["9C"]


def test_a_plain_suit_may_be_followed_or_trumped_and_a_void_plays_anything():
    state = two_handed(["KD", "2S", "3S", "4S", "6S"], ["QD", "5D", "9C", "8H", "7H"], actions=["KD"])
    assert sorted(state.legal_actions()) == ["5D", "9C", "QD"]
    with pytest.raises(IllegalRecordPlay) as refused:
        forty_five([["KD", "2S", "3S", "4S", "6S"], ["QD", "5D", "9C", "8H", "7H"]], "7C", ["KD", "8H"])
    assert refused.value.error.rule == "must_follow"


def test_the_highest_trump_wins_and_otherwise_the_highest_of_the_suit_led_in_its_own_order():
    # Trump clubs: the 2♣ beats the 10♣ (lowest in black is highest).
    state = two_handed(["TC", "2D", "3D", "4D", "6D"], ["2C", "9H", "8S", "7S", "6S"], actions=["TC", "2C"])
    assert state.tricks[0].winner == 1
    # Diamonds plain: the 10♦ beats the 2♦, the A♦ is lowest; spades plain: A♠ over 2♠, 2♠ over 10♠.
    for lead, follow, winner in [("TD", "2D", 0), ("AD", "2D", 1), ("AS", "2S", 0), ("TS", "2S", 1), ("KS", "AS", 0)]:
        anna = [lead, *[c for c in ("3H", "4H", "6H", "8H") if c != follow]][:5]
        bo = [follow, *[c for c in ("9H", "TH", "JH", "QH") if c not in anna]][:5]
        done = two_handed(anna, bo, actions=[lead, follow])
        assert done.tricks[0].winner == winner, (lead, follow)


@pytest.mark.parametrize(
    ("led", "bo", "legal", "why"),
    [
        # A lower trump led: the five, the jack and the A♥ may be kept back ...
        ("3C", ["5C", "9H", "8S", "7S", "6S"], ["5C", "6S", "7S", "8S", "9H"], "the five alone may be withheld"),
        ("3C", ["JC", "AH", "9H", "8S", "7S"], ["7S", "8S", "9H", "AH", "JC"], "jack and A♥ may be withheld"),
        # ... but a seat holding a lower trump too must play a trump, any one, the top ones included.
        ("3C", ["5C", "4C", "9H", "8S", "7S"], ["4C", "5C"], "a lower trump held: any trump"),
        # Nothing may be withheld from a led five: a lone jack falls to it.
        ("5C", ["JC", "9H", "8S", "7S", "6S"], ["JC"], "lone jack to a led five"),
        # A lone A♥ falls to a led jack; the five may still be withheld from it.
        ("JC", ["AH", "9H", "8S", "7S", "6S"], ["AH"], "lone A♥ to a led jack"),
        ("JC", ["5C", "9H", "8S", "7S", "6S"], ["5C", "6S", "7S", "8S", "9H"], "the five above a led jack"),
        # A led A♥: the five and the jack above it may be withheld.
        ("AH", ["JC", "9H", "8S", "7S", "6S"], ["6S", "7S", "8S", "9H", "JC"], "the jack above a led A♥"),
        # The A♣ is no top trump: it must follow a led 3♣.
        ("3C", ["AC", "9H", "8S", "7S", "6S"], ["AC"], "the ace of trumps is not withheld"),
    ],
)
def test_the_top_three_trumps_may_be_withheld_only_from_a_lower_trump_led(led, bo, legal, why):
    anna = [led, *[c for c in ("2D", "3D", "4D", "6D") if c not in bo]][:5]
    asked = ["pass"] if "AC" in bo else []  # the holder of the A♣ is asked to rob first
    state = two_handed(anna, bo, upcard="7C", actions=[*asked, led])
    assert sorted(state.legal_actions()) == sorted(legal), why


def test_a_plain_card_to_a_trump_lead_shows_no_void_since_a_top_trump_may_be_kept_back():
    state = two_handed(["3C", "2D", "3D", "4D", "6D"], ["5C", "9H", "8S", "7S", "6S"], upcard="7C", actions=["3C"])
    state = state.apply("9H")  # Bo still holds the five of clubs
    rules = GAMES["forty_five"]
    assert not rules.shows_void("9H", "C", "C")
    assert rules.shows_void("9H", "S", "C")  # a plain card to a plain lead does show one
    assert not rules.shows_void("5C", "S", "C")  # a trump to a plain lead does not


def test_the_prompt_says_which_trump_may_be_kept_and_why():
    state = two_handed(["3C", "2D", "4D", "6D", "8D"], ["5C", "4C", "9H", "8S", "7S"], actions=["3C"])
    prompt = dict(state.view(1).prompt.params)["prompt"]  # then "Trump: clubs."
    assert prompt.message.startswith(
        "Your turn: play a trump; you may keep %(cards)s, since the %(card)s led is lower."
    )
    lone = two_handed(["3C", "2D", "4D", "6D", "8D"], ["5C", "9H", "8S", "7S", "6S"], actions=["3C"])
    assert "and play any card" in dict(lone.view(1).prompt.params)["prompt"].message


# -- Forty-Five: robbing, scoring, the game ----------------------------------------------


def test_an_ace_turned_up_may_be_robbed_by_the_dealer_who_puts_away_another_card():
    anna = ["5D", "JD", "KC", "2S", "9H"]
    bo = ["KD", "QD", "3C", "4S", "8H"]
    state = forty_five_state([anna, bo], "AD")
    assert state.to_act == 1
    assert state.legal_actions() == ["pass", "rob"]
    robbed = state.apply("rob")
    assert sorted(robbed.legal_actions()) == sorted(f"discard:{card}" for card in bo)  # never the A♦ just taken
    with pytest.raises(IllegalRecordPlay):
        forty_five([anna, bo], "AD", ["rob", "discard:AD"])
    played = robbed.apply("discard:4S")
    assert played.to_act == 0
    assert "AD" in played.hand(1)
    assert "4S" not in played.hand(1)
    # Anna's view: the dealer holds the A♦ (everyone saw it taken), the card put away is unnamed.
    seen = played.view(0)
    assert "4S" not in repr(seen)
    assert [text.message for text in seen.log] == [
        "%(name)s robs the %(card)s.",
        "%(name)s puts a card away face down.",
    ]


def test_another_card_turned_up_may_be_robbed_by_the_holder_of_the_ace_of_trumps():
    anna = ["AC", "JD", "KC", "2S", "9H"]
    bo = ["KD", "QD", "3C", "4S", "8H"]
    state = forty_five_state([anna, bo], "7C")
    assert state.to_act == 0
    assert state.legal_actions() == ["pass", "rob"]
    done = forty_five(
        [anna, bo], "7C", ["rob", "discard:9H", "AC", "3C", "KC", "4S", "JD", "KD", "QD", "2S", "8H", "7C"]
    )
    assert done["result"]["robbed_by"] == 0
    assert done["result"]["tricks_won"] == [3, 2]
    # With hearts turned, the A♥ is the ace of trumps.
    hearts = forty_five_state([["AH", "JD", "KC", "2S", "9C"], bo], "7H")
    assert hearts.to_act == 0
    # An ace of trumps nobody was dealt: no rob step, play begins left of the dealer.
    none = forty_five_state([["5D", "JD", "KC", "2S", "9H"], bo], "7C")
    assert none.trick is not None
    assert none.to_act == 0
    assert "rob" not in none.legal_actions()


def test_three_or_four_tricks_score_five_and_all_five_ten_to_forty_five():
    anna = ["5C", "JC", "AH", "AC", "KC"]
    bo = ["2D", "3D", "4D", "6D", "8D"]
    cards = ["5C", "2D", "JC", "3D", "AH", "4D", "AC", "6D", "KC", "8D"]
    slam = forty_five([anna, bo], "7C", ["pass", *cards])  # Anna holds the A♣: she is asked first
    assert slam["result"] == {
        "trump": "C",
        "robbed_by": None,
        "tricks_won": [5, 0],
        "points": [10, 0],
        "scores": [10, 0],
        "winner": None,
    }
    won = forty_five([anna, bo], "7C", ["pass", *cards], scores=[35, 40])
    assert won["result"]["scores"] == [45, 40]
    assert won["result"]["winner"] == 0
    # Bo takes two of five: Anna's three score 5.
    anna = ["5C", "JC", "AH", "2S", "3S"]
    bo = ["KD", "QD", "4H", "AS", "KS"]
    three = forty_five([anna, bo], "9C", ["5C", "KD", "JC", "QD", "AH", "4H", "2S", "AS", "KS", "3S"], dealer=1)
    assert three["result"]["tricks_won"] == [3, 2]
    assert three["result"]["points"] == [5, 0]


# -- Auction Forty-Five: the auction ---------------------------------------------------------

# Four players, Dag (seat 3) deals, so Anna (seat 0) bids first; Anna and Cleo (0, 2) against Bo and Dag.
ANNA = ["5H", "JH", "AH", "KH", "QH"]
BO = ["2S", "3S", "4S", "6S", "7S"]
CLEO = ["TH", "9H", "8H", "7H", "6H"]
DAG = ["2C", "3C", "4C", "6C", "7C"]
HANDS = [ANNA, BO, CLEO, DAG]
NO_DRAW = ["draw"] * 4


def test_one_continuous_auction_the_dealer_holds_and_the_others_may_bid_again():
    state = auction_state(HANDS, ["bid:5", "bid:10", "pass"])
    assert state.to_act == 3
    assert sorted(state.legal_actions()) == ["bid:15", "bid:20", "bid:25", "bid:30", "hold", "pass"]
    state = state.apply("hold")  # Dag holds Bo's 10
    assert state.to_act == 0  # round again: Anna, still in, speaks
    assert state.legal_actions() == ["pass", "bid:15", "bid:20", "bid:25", "bid:30"]
    state = state.apply("bid:15").apply("pass")  # Bo's pass is final; Cleo passed already
    assert state.to_act == 3
    assert "hold" in state.legal_actions()
    state = state.apply("hold").apply("pass")  # Anna passes: Dag is left holding 15
    assert state.to_act == 3
    assert state.legal_actions() == ["call:S", "call:H", "call:D", "call:C"]
    assert state.contract.bidder == 3
    assert state.contract.bid == 15
    log = [text.message for text in state.view(1).log]
    assert log[3] == "%(name)s holds at %(count)d."


def test_only_the_dealer_holds_and_never_their_own_bid_and_a_pass_is_final():
    with pytest.raises(IllegalRecordPlay) as refused:
        auction(HANDS, ["bid:5", "hold"])
    assert refused.value.error.rule == "not_now"
    with pytest.raises(IllegalRecordPlay) as low:
        auction(HANDS, ["bid:10", "bid:10"])
    assert low.value.error.rule == "bid_too_low"
    # Dag raises to 10 himself: no hold of his own bid when it comes back round after Anna's 15.
    state = auction_state(HANDS, ["bid:5", "pass", "pass", "bid:10"])
    assert state.to_act == 0
    state = state.apply("bid:15")
    assert "hold" in state.legal_actions()  # Anna made the 15
    # The only one left with no bid made must still speak; a bid ends the auction at once.
    alone = auction_state(HANDS, ["pass", "pass", "pass"])
    assert alone.to_act == 3
    assert "hold" not in alone.legal_actions()
    assert alone.apply("bid:5").legal_actions()[0] == "call:S"


def test_everyone_passing_throws_the_deal_in_and_the_next_player_deals():
    done = auction(HANDS, ["pass"] * 4)
    assert done == {"tricks": [], "result": {"thrown_in": True}}
    game = GAMES["auction_forty_five"]
    match = game.new_match(players=4, options=game.parse_options({}), rng=random.Random(3))
    state = game.start({"dealer": match.dealer, "hands": HANDS, "stock": rest_of_deck(HANDS), "scores": [0, 0]})
    for _ in range(4):
        state = state.apply("pass")
    after = match.settle(state)
    assert after.dealer == (match.dealer + 1) % 4
    assert after.points == (0, 0)


def test_a_side_at_100_or_more_may_not_bid_or_hold_below_20():
    # Bo (seat 1) deals; Bo and Dag have 100.
    state = auction_state(HANDS, ["bid:5"], dealer=1, scores=[0, 100])
    assert state.to_act == 3
    assert state.legal_actions() == ["pass", "bid:20", "bid:25", "bid:30"]
    state = state.apply("pass").apply("bid:10")
    assert state.to_act == 1
    assert state.legal_actions() == ["pass", "bid:20", "bid:25", "bid:30"]
    state = state.apply("pass").apply("bid:20")  # Cleo bids 20
    assert state.to_act == 0
    assert "hold" in auction_state(HANDS, ["bid:5", "pass", "bid:20"], dealer=1, scores=[0, 100]).legal_actions()


# -- the draw ---------------------------------------------------------------------------


def test_the_draw_goes_from_the_dealers_left_and_each_new_card_comes_from_the_top():
    top = ["AS", "KS", "QS", "JS", "TS"]
    state = auction_state(HANDS, ["bid:5", "pass", "pass", "pass", "call:H"], top=top)
    assert state.to_act == 0  # left of the dealer
    state = state.apply("draw")  # Anna keeps her cards
    assert state.to_act == 1
    for card in ["2S", "3S"]:
        state = state.apply(f"discard:{card}")
    assert "discard:4S" in state.legal_actions()
    prompt = state.view(1).prompt  # Bo's own discards are named to him alone
    assert prompt.message.startswith("Trump is %(suit)s. You have discarded %(cards)s face down")
    assert dict(prompt.params)["cards"].cards == ("2S", "3S")
    state = state.apply("draw")
    assert sorted(state.hand(1)) == sorted(["4S", "6S", "7S", "AS", "KS"])
    state = state.apply("discard:TH").apply("draw")  # Cleo gets the next card
    assert "QS" in state.hand(2)
    assert "TH" not in state.hand(2)
    state = state.apply("draw")
    assert state.trick is not None
    assert state.to_act == 1
    # Another seat sees only how many: Anna's view names neither Bo's discards nor his new cards.
    seen = repr(state.view(0))
    assert not {"2S", "3S", "AS", "KS", "QS"} & set(re.findall(r"'([2-9TJQKA][SHDC])'", seen))
    # The log says how many a seat drew, in one line once it has drawn, and never which.
    assert [text.message for text in state.view(0).log][5:] == [
        "%(name)s keeps their cards.",
        "%(name)s draws %(count)s.",
        "%(name)s draws %(count)s.",
        "%(name)s keeps their cards.",
    ]


def test_nobody_discards_more_than_the_stock_can_replace():
    rng = random.Random(5)
    cards = list(CARDS)
    rng.shuffle(cards)
    hands = [cards[5 * seat : 5 * seat + 5] for seat in range(6)]  # six players: a stock of 22
    game = GAMES["auction_forty_five"]
    state = game.start({"dealer": 5, "hands": hands, "stock": cards[30:], "scores": [0, 0]})
    for action in ["bid:5", *["pass"] * 5, "call:S"]:
        state = state.apply(action)
    for seat in range(4):  # four seats discard all five: 20 of the 22
        assert state.to_act == seat
        for card in state.hand(seat):
            state = state.apply(f"discard:{card}")
        state = state.apply("draw")
        assert state.hand(seat) == sorted(cards[30 + 5 * seat : 35 + 5 * seat], key=CARDS.index)
    for card in state.hand(4)[:2]:
        state = state.apply(f"discard:{card}")
    assert state.legal_actions() == ["draw"]  # the stock is empty after two more
    state = state.apply("draw")
    assert state.to_act == 5
    assert state.legal_actions() == ["draw"]
    assert state.apply("draw").trick is not None


def test_robbing_the_pack_the_dealer_chooses_any_card_still_in_the_stock():
    state = auction_state(HANDS, ["bid:5", "pass", "pass", "pass", "call:C", "draw", "draw", "draw"], rob=True)
    state = state.apply("discard:7C").apply("discard:6C").apply("draw")
    assert state.to_act == 3
    assert len(state.legal_actions()) == 32
    with pytest.raises(IllegalRecordPlay):
        auction(
            HANDS,
            ["bid:5", "pass", "pass", "pass", "call:C", "draw", "draw", "draw", "discard:7C", "draw", "take:5H"],
            rob=True,
        )
    state = state.apply("take:5C")
    assert state.to_act == 3
    assert "take:5C" not in state.legal_actions()
    state = state.apply("take:JC")
    assert sorted(state.hand(3)) == sorted(["2C", "3C", "4C", "5C", "JC"])
    assert state.trick is not None
    # Nobody else sees which cards the dealer took; once the deal is over the record shows them.
    assert "5C" not in repr(state.view(0))
    assert "take" in state.view(0).detail.calls


# -- Auction Forty-Five: scoring and the game -------------------------------------------------

ALL_HEARTS = ["2S", "6H", "2C", "5H", "JH", "3S", "7H", "3C", "AH", "4S", "8H", "4C", "KH", "6S", "9H", "6C"]
ALL_HEARTS += ["QH", "7S", "TH", "7C"]


def test_each_trick_is_five_the_highest_trump_five_more_and_a_made_bid_scores_what_was_taken():
    done = auction(HANDS, ["bid:15", "pass", "pass", "pass", "call:H", *NO_DRAW, *ALL_HEARTS])
    assert done["result"] == {
        "bidder": 0,
        "bid": 15,
        "trump": "H",
        "tricks_won": [5, 0],
        "high_trump": 0,
        "made": True,
        "points": [30, 0],
        "scores": [30, 0],
        "winner": None,
    }


def test_a_made_thirty_scores_sixty():
    done = auction(HANDS, ["bid:30", "pass", "pass", "pass", "call:H", *NO_DRAW, *ALL_HEARTS])
    assert done["result"]["points"] == [60, 0]
    assert done["result"]["made"]


# Bo bids for spades; Anna's A♥ is then a trump above all his, and takes the first trick.
BO_SPADES = ["TH", "2C", "AH", "2S", "5H", "3S", "9H", "3C", "4S", "8H", "4C", "QH", "6S", "7H", "6C", "KH"]
BO_SPADES += ["7S", "6H", "7C", "JH"]


def test_a_failed_bid_is_lost_and_the_other_side_always_scores():
    done = auction(HANDS, ["pass", "bid:25", "pass", "pass", "call:S", *NO_DRAW, *BO_SPADES])
    result = done["result"]
    assert result["tricks_won"] == [1, 4]
    assert result["high_trump"] == 0
    assert result["made"] is False
    assert result["points"] == [10, -25]
    assert result["scores"] == [10, -25]


def test_when_both_sides_reach_120_the_bidding_side_wins_as_it_counts_first():
    made = auction(HANDS, ["pass", "bid:20", "pass", "pass", "call:S", *NO_DRAW, *BO_SPADES], scores=[110, 105])
    assert made["result"]["scores"] == [120, 125]
    assert made["result"]["winner"] == 1
    failed = auction(HANDS, ["pass", "bid:25", "pass", "pass", "call:S", *NO_DRAW, *BO_SPADES], scores=[110, 105])
    assert failed["result"]["scores"] == [120, 80]
    assert failed["result"]["winner"] == 0


# -- a shorter session, and an end to every session -------------------------------------------


def test_an_auction_session_to_45_or_60_is_won_there_and_the_rules_120_is_the_default():
    game = GAMES["auction_forty_five"]
    bo_makes_20 = ["pass", "bid:20", "pass", "pass", "call:S", *NO_DRAW, *BO_SPADES]  # Bo and Dag: 20
    assert auction(HANDS, bo_makes_20, scores=[30, 30])["result"]["winner"] is None
    short = auction(HANDS, bo_makes_20, scores=[30, 30], points=45)["result"]
    assert (short["scores"], short["winner"]) == ([40, 50], 1)
    assert auction(HANDS, bo_makes_20, scores=[30, 30], points=60)["result"]["winner"] is None
    with pytest.raises(RecordError):  # a session to 45 is over before a side has 45
        auction(HANDS, bo_makes_20, scores=[45, 0], points=45)
    # Tables and records from before the choice have no points: the rules' 120, written as before.
    old = game.parse_options({"rob_the_pack": True})
    assert old.points == 120
    assert old.as_record() == {"rob_the_pack": True}
    chosen = game.parse_options({"points": "60"})  # as the lobby's form sends it
    assert chosen.points == 60
    assert game.parse_options(chosen.as_record()) == chosen
    assert game.describe(chosen)[0].count == 60
    with pytest.raises(InvalidDeal):
        game.parse_options({"points": 50})


def test_a_forty_five_session_to_25_is_won_there_and_the_rules_45_is_the_default():
    game = GAMES["forty_five"]
    anna = ["5C", "JC", "AH", "AC", "KC"]
    bo = ["2D", "3D", "4D", "6D", "8D"]
    slam = ["pass", "5C", "2D", "JC", "3D", "AH", "4D", "AC", "6D", "KC", "8D"]  # Anna: all five, 10
    assert forty_five([anna, bo], "7C", slam, scores=[15, 20])["result"]["winner"] is None
    short = forty_five([anna, bo], "7C", slam, scores=[15, 20], points=25)["result"]
    assert (short["scores"], short["winner"]) == ([25, 20], 0)
    assert game.parse_options({}).points == 45
    assert game.parse_options({}).as_record() == {}  # records from before the choice read the same
    assert game.parse_options({"points": "25"}).as_record() == {"points": 25}
    with pytest.raises(InvalidDeal):
        game.parse_options({"points": 30})


def test_by_the_rules_a_bidding_side_at_minus_120_or_below_plays_on():
    bo_fails_25 = ["pass", "bid:25", "pass", "pass", "call:S", *NO_DRAW, *BO_SPADES]  # Bo and Dag: -25; Anna: 10
    out = auction(HANDS, bo_fails_25, scores=[0, -95])["result"]
    assert (out["scores"], out["winner"]) == ([10, -120], None)
    game = GAMES["auction_forty_five"]
    match = game.match_from_record({"dealer": 3, "points": [0, -95]}, players=4, options=game.parse_options({}))
    after = match.settle(auction_state(HANDS, bo_fails_25, scores=[0, -95]))
    assert (after.points, after.finished) == ((10, -120), False)
    assert game.start(game.setup(after, random.Random(1))).standing == (10, -120)


def test_with_the_set_out_option_a_side_at_minus_the_target_ends_the_session_for_the_other_side():
    bo_fails_25 = ["pass", "bid:25", "pass", "pass", "call:S", *NO_DRAW, *BO_SPADES]  # Bo and Dag: -25; Anna: 10
    assert auction(HANDS, bo_fails_25, scores=[0, -90], set_out=True)["result"]["winner"] is None  # -115
    out = auction(HANDS, bo_fails_25, scores=[0, -95], set_out=True)["result"]
    assert (out["scores"], out["winner"]) == ([10, -120], 0)
    short = auction(HANDS, bo_fails_25, scores=[-40, -20], points=45, set_out=True)["result"]
    assert (short["scores"], short["winner"]) == ([-30, -45], 0)  # the side with more points wins
    game = GAMES["auction_forty_five"]
    options = game.parse_options(SET_OUT)
    match = game.match_from_record({"dealer": 3, "points": [0, -95]}, players=4, options=options)
    state = auction_state(HANDS, bo_fails_25, scores=[0, -95], set_out=True)
    assert match.settle(state).winners == (0, 2)


def test_the_set_out_option_is_off_unless_chosen_and_records_without_it_read_as_before():
    game = GAMES["auction_forty_five"]
    stored = game.parse_options({"rob_the_pack": False})  # a table or record from before the option
    assert not stored.set_out
    assert stored.as_record() == {"rob_the_pack": False}
    chosen = game.parse_options({"rob_the_pack": False, "points": "60", "set_out": True})
    assert chosen.as_record() == {"rob_the_pack": False, "points": 60, "set_out": True}
    assert game.parse_options(chosen.as_record()) == chosen
    assert len(game.describe(chosen)) == len(game.describe(stored)) + 1
    assert [option.default for option in game.options_schema if option.name == "set_out"] == [False]
    with pytest.raises(InvalidDeal):
        game.parse_options({"set_out": "on"})


@pytest.mark.parametrize("players", [4, 6])
def test_computers_near_120_bid_20_rather_than_throw_every_deal_in(players):
    # Both sides at 100 or more may bid no less than 20; computers that never stretched to it passed
    # deal after deal (one session of these seeds took 90 deals, 82 of them thrown in).
    game = GAMES["auction_forty_five"]
    lengths = []
    for seed in range(20):
        rng = random.Random(seed)
        match = game.new_match(players=players, options=game.parse_options({}), rng=rng)
        deals = 0
        while not match.finished and deals <= 20:
            state = game.start(game.setup(match, rng))
            while not state.is_over:
                state = state.apply(game.rule_of_thumb(state))
            match, deals = match.settle(state), deals + 1
        lengths.append(deals)
    assert max(lengths) <= 20, lengths


# -- the command line ---------------------------------------------------------------------


def test_an_illegal_action_exits_1_naming_it_with_the_sorted_legal_list():
    record = {
        "game": "auction_forty_five",
        "options": {"rob_the_pack": False},
        "dealer": 3,
        "hands": HANDS,
        "stock": rest_of_deck(HANDS),
        "scores": [0, 0],
        "actions": ["bid:10", "hold"],
    }
    done = engine("replay", stdin=json.dumps(record))
    assert done.returncode == 1
    assert json.loads(done.stdout) == {
        "error": "illegal_action",
        "index": 1,
        "seat": 1,
        "action": "hold",
        "legal": ["bid:15", "bid:20", "bid:25", "bid:30", "pass"],
        "rule": "not_now",
        "message": "hold is not one of this step's actions",
    }


@pytest.mark.parametrize(
    "record",
    [
        {"game": "auction_forty_five", "dealer": 3, "hands": HANDS},  # no stock
        {"game": "auction_forty_five", "dealer": 3, "hands": HANDS, "stock": rest_of_deck(HANDS)[1:]},
        {"game": "auction_forty_five", "dealer": 2, "hands": HANDS[:3], "stock": rest_of_deck(HANDS[:3])},  # three
        {"game": "auction_forty_five", "dealer": 3, "hands": HANDS, "stock": rest_of_deck(HANDS), "scores": [120, 0]},
        {"game": "forty_five", "dealer": 1, "hands": [ANNA, BO]},  # no upcard
        {"game": "forty_five", "dealer": 1, "hands": [ANNA, BO], "upcard": "5H"},  # dealt twice
        {"game": "forty_five", "dealer": 1, "hands": [ANNA, BO], "upcard": "9C", "scores": [45, 0]},
        {"game": "forty_five", "dealer": 1, "hands": HANDS[:3], "upcard": "9D"},
        {"game": "forty_five", "dealer": 1, "hands": [ANNA, BO], "upcard": "9C", "options": {"rob_the_pack": True}},
    ],
)
def test_malformed_records_are_refused(record):
    with pytest.raises(RecordError):
        replay({**record, "actions": []})


def test_perft_by_hand():
    hands = "/".join(",".join(hand) for hand in HANDS)
    stock = ",".join(rest_of_deck(HANDS))
    counts = []
    for depth in (1, 2):
        done = engine(
            "perft",
            "--game",
            "auction_forty_five",
            "--dealer",
            "3",
            "--hands",
            hands,
            "--stock",
            stock,
            "--depth",
            str(depth),
        )
        assert done.returncode == 0, done.stderr
        counts.append(int(done.stdout.strip().splitlines()[-1]))
    # Anna: pass or six bids. Bo after a pass: seven; after bid:N, pass and the bids above N.
    assert counts == [7, 7 + 6 + 5 + 4 + 3 + 2 + 1]
    floor = engine(
        "perft",
        "--game",
        "auction_forty_five",
        "--dealer",
        "3",
        "--hands",
        hands,
        "--stock",
        stock,
        "--scores=100,0",
        "--depth",
        "1",
    )
    assert floor.stdout.strip().splitlines()[-1] == "4"  # pass, 20, 25, 30
    # Forty-Five, an ace turned: the dealer passes (then Anna leads one of 5) or robs (then puts away one of 5).
    two = engine(
        "perft",
        "--game",
        "forty_five",
        "--dealer",
        "1",
        "--hands",
        f"{','.join(ANNA)}/{','.join(BO)}",
        "--upcard",
        "AD",
        "--depth",
        "2",
    )
    assert two.returncode == 0, two.stderr
    assert two.stdout.strip().splitlines()[-1] == "10"
    # The 7♣ turned, Anna holds the A♣: pass, then her 5 leads and Bo's answers (A♣: 3♣; J♦: K♦ Q♦ 3♣;
    # K♣: 3♣; 2♠: 4♠ 3♣; 9♥: 8♥ 3♣) = 9; or rob, one of her 5 dealt cards put away, then 5 leads = 25.
    rob = engine(
        "perft",
        "--game",
        "forty_five",
        "--dealer",
        "1",
        "--hands",
        "AC,JD,KC,2S,9H/KD,QD,3C,4S,8H",
        "--upcard",
        "7C",
        "--depth",
        "3",
    )
    assert rob.stdout.strip().splitlines()[-1] == str(9 + 25)


def test_robbing_the_pack_perft_by_hand():
    game = GAMES["auction_forty_five"]
    state = auction_state(
        HANDS, ["bid:5", "pass", "pass", "pass", "call:C", "draw", "draw", "draw", "discard:7C"], rob=True
    )
    # Dag: another of his four cards or draw; after a discard, another of three or draw; after the
    # draw, the one card owed, any of the 32 in the stock.
    assert perft_actions(state, 1) == 5
    assert perft_actions(state, 2) == 4 * 4 + 32
    assert game.name == "auction_forty_five"


# -- properties over random deals -------------------------------------------------------------

CASES = [
    ("auction_forty_five", 4, {}),
    ("auction_forty_five", 6, {"rob_the_pack": True}),
    ("forty_five", 2, {}),
    ("forty_five", 4, {}),
    ("forty_five", 6, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_random_deals_conserve_cards_and_replay_from_their_records_and_exports(name, players, options):
    game = GAMES[name]
    for seed in range(15):
        rng = random.Random(seed)
        match = game.new_match(players=players, options=game.parse_options(options), rng=rng)
        setup = game.setup(match, rng)
        state = game.start(setup)
        dealt = {card for hand in setup["hands"] for card in hand} | set(setup.get("stock", ())) | {setup.get("upcard")}
        assert dealt - {None} == ALL if "stock" in setup else len(dealt - {None}) == 5 * players + 1
        actions = []
        while not state.is_over:
            legal = state.legal_actions()
            assert legal
            action = rng.choice(legal)
            actions.append(action)
            state = state.apply(action)
            held = [card for seat in range(players) for card in state.hand(seat)]
            assert len(held) == len(set(held))
        done = replay({"game": name, **setup, "actions": actions})
        assert done["result"] == ({"thrown_in": True} if state.thrown_in else game.deal_outcome(state))
        if not state.thrown_in:
            assert all(len(trick["cards"]) == players for trick in done["tricks"])
            assert len(done["tricks"]) == 5
            exported = state.public_record() | game.record_context(match)
            assert replay(exported) == done
            points = done["result"]["points"]
            assert done["result"]["scores"] == [a + b for a, b in zip(setup["scores"], points, strict=True)]


CARD_IN_VIEW = re.compile(r"'([2-9TJQKA][SHDC])'")


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_seat_sees_no_other_hand_no_stock_card_and_no_other_seats_discard(name, players, options):
    """Every card named anywhere in a seat's view (the table, the log, the computer players' detail)
    is its own, played, or turned up and left; a spectator's, only played or turned up."""
    game = GAMES[name]
    for seed in range(6):
        rng = random.Random(seed)
        first = game.deal_match(game.new_match(players=players, options=game.parse_options(options), rng=rng), rng)
        for state in random_line(first, rng)[0]:
            public = {card for trick in (*state.tricks, state.trick) if trick for card in trick.cards}
            if state.upcard:
                public.add(state.upcard)
            for seat in (*range(players), None):
                allowed = set(public)
                if seat is not None:
                    allowed |= set(state.dealt[seat]) | set(state.hand(seat))
                    allowed |= {
                        call.split(":")[1]
                        for call, who in zip(state.calls, state.callers, strict=True)
                        if who == seat and ":" in call
                    }
                    if seat == state.dealer and any(action.startswith("take:") for action in state.legal_actions()):
                        allowed |= {action[5:] for action in state.legal_actions()}  # robbing the pack: the stock
                named = set(CARD_IN_VIEW.findall(repr(state.view(seat))))
                assert named <= allowed, (seat, named - allowed)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_resampled_world_gives_no_seat_a_card_it_has_shown_it_lacks(name, players, options):
    game = GAMES[name]
    for seed in range(8):
        rng = random.Random(seed)
        first = game.deal_match(game.new_match(players=players, options=game.parse_options(options), rng=rng), rng)
        for state in random_line(first, rng)[0][:-1]:
            seat = state.to_act
            view = state.view(seat)
            world = game.resample(view, rng)
            barred = game.barred(view.detail)
            for other in range(players):
                assert not {card for card in world.hand(other) if barred[other] & (1 << CARDS.index(card))}
                assert not {card for card in state.hand(other) if barred[other] & (1 << CARDS.index(card))}  # true too


@pytest.mark.parametrize(("name", "players"), [("auction_forty_five", 4), ("forty_five", 2)])
def test_the_arena_plays_whole_sessions(name, players):
    from games.bots.arena import run_arena

    result = run_arena(
        game=name, players=players, deals=10, seed=1, hero="medium", field="easy", options={}, sessions=True
    )
    assert result.deals >= 10
    assert result.faults == 0
    assert len(result.sessions_won) >= 1
