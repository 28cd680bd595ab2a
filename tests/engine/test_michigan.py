"""Michigan (docs/rules/michigan.md §1 to §11), by hand-made deals: every rule of the stops, the
widow, the boodles, going out and the session, then properties over random deals, perft by hand and
the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from games.bots.generic import generic_player
from games.engine import get_game
from games.engine.cards import CARDS
from games.engine.game import EVERYONE, HiddenCards, IllegalPlay, InvalidDeal
from games.engine.records import IllegalRecordPlay, replay
from games.engine.tricks.perft import perft_actions
from tests.engine_helpers import play_randomly, random_line

MICHIGAN = get_game("michigan")

# Three players, seat 2 deals, so seat 0 starts; 13 cards each and 13 in the widow. The widow
# holds every queen, king and ace but the KH, and the 5H and TH: with it out of play, runs stop
# at those cards.
S0 = "2D 2S 3S 4S 5S 6S 7S 8S 9S TS JS 2H 6H"
S1 = "2C 3C 4C 5C 6C 7C 8C 9C TC JC 3H 7H JH"
S2 = "3D 4D 5D 6D 7D 8D 9D TD JD 4H 8H 9H KH"
WIDOW = "5H TH QH AH QS KS AS QC KC AC QD KD AD"


def deal(options=None, boodles=None, hands=(S0, S1, S2), widow=WIDOW, dealer=2):
    setup = {"dealer": dealer, "hands": [h.split() for h in hands], "widow": widow.split(), "options": options or {}}
    if boodles is not None:
        setup["boodles"] = boodles
    return MICHIGAN.start(setup)


def play(state, actions: str):
    for action in actions.split():
        state = state.apply(action)
    return state


def test_hands_differ_in_size_and_the_widow_gets_the_first_card():
    match = MICHIGAN.new_match(players=4, options=MICHIGAN.parse_options({}), rng=random.Random(1))
    setup = MICHIGAN.setup(match, random.Random(7))
    left = (match.dealer + 1) % 4
    sizes = [len(hand) for hand in setup["hands"]]
    assert len(setup["widow"]) == 11  # 52 cards over five hands: the widow and the dealer's left get 11
    assert sizes[left] == 11
    assert sorted(sizes) == [10, 10, 10, 11]
    every = [card for hand in setup["hands"] for card in hand] + setup["widow"]
    assert sorted(every) == sorted(CARDS)
    with pytest.raises(InvalidDeal):  # the same cards, but the widow short of its first card
        MICHIGAN.start(setup | {"widow": setup["widow"][1:], "hands": setup["hands"]})


def test_antes_are_two_per_boodle_from_everyone_and_the_dealer_decides_first():
    state = deal(boodles={"AH": 5})
    assert state.to_act == 2
    assert state.legal_actions() == ["sell", "take"]
    assert state.layout == (11, 6, 6, 6)  # 5 carried over on the A♥, then 2 from each of three players
    assert state.chips == (-8, -8, -8)
    view = state.view(2)
    assert [(p.card, p.counters) for p in view.area("boodles").cards] == [("AH", 11), ("KC", 6), ("QD", 6), ("JS", 6)]


def test_the_widow_unsold_a_stopper_passes_and_everyone_passing_hands_the_start_back():
    state = play(deal(), "sell pass pass")  # nobody offers: the widow stays out of play
    assert state.taker is None
    assert state.to_act == 0  # the dealer's left starts
    assert sorted(state.legal_actions()) == ["2D", "2H", "2S"]  # the lowest card of each suit held
    with pytest.raises(IllegalPlay) as refused:
        state.apply("3S")
    assert refused.value.rule == "lowest_of_suit"
    state = state.apply("2D")
    assert state.to_act == 2  # seat 2 holds the 3D: the turn goes to it, not round the table
    assert state.legal_actions() == ["3D"]
    with pytest.raises(IllegalPlay) as refused:
        state.apply("4H", seat=2)
    assert refused.value.rule == "next_in_sequence"
    with pytest.raises(IllegalPlay) as refused:
        state.apply("3D", seat=1)
    assert refused.value.rule == "not_your_turn"
    state = play(state, "3D 4D 5D 6D 7D 8D 9D TD JD")
    # The QD is out of play: a stop. Seat 2 starts again, in any suit but diamonds.
    assert (state.to_act, state.legal_actions()) == (2, ["4H"])
    state = state.apply("4H")  # the 5H is out of play: another stop, and seat 2 holds only hearts
    assert (state.to_act, state.legal_actions()) == (2, ["pass"])
    with pytest.raises(IllegalPlay) as refused:
        state.apply("8H")
    assert refused.value.rule == "stopped_suit"
    state = state.apply("pass")
    assert (state.to_act, state.legal_actions()) == (0, ["2S"])  # the right moves left, hearts still barred
    state = play(state, "2S 3S 4S 5S 6S 7S 8S 9S TS JS")
    assert state.won[3] == 0  # the J♠ took its boodle
    assert state.chips[0] == -8 + 6
    assert (state.to_act, state.legal_actions()) == (0, ["2H"])
    state = play(state, "2H 3H")  # the 4H was played: a stop by a played card
    assert (state.to_act, state.legal_actions()) == (1, ["2C"])
    state = play(state, "2C 3C 4C 5C 6C 7C 8C 9C TC JC 7H 8H 9H")  # the TH is out of play
    assert state.to_act == 2
    assert [state.hands[seat].bit_count() for seat in range(3)] == [1, 1, 1]
    state = play(state, "pass pass pass")  # all three hold only hearts: back to the stopper
    assert (state.to_act, state.legal_actions()) == (2, ["KH"])  # the bar is dropped
    state = state.apply("KH")
    assert state.is_over
    result = state.result()
    assert result["went_out"] == 2
    assert result["cards_left"] == [1, 1, 0]
    assert result["widow"] == {"taker": None, "price": 0}
    assert result["boodles_won"] == {"AH": None, "KC": None, "QD": None, "JS": 0}
    assert result["boodles"] == {"AH": 6, "KC": 6, "QD": 6, "JS": 0}  # carried over to the next deal
    assert result["chips"] == [-8 + 6 - 1, -8 - 1, -8 + 2]
    assert sum(result["chips"]) + sum(result["boodles"].values()) == 0  # nothing was on the layout before


def test_the_dealer_takes_the_widow_and_a_run_stops_at_an_ace():
    state = play(deal(), "take")
    assert state.taker == 2
    assert state.dead == sum(1 << CARDS.index(card) for card in S2.split())  # the dealer's own hand
    state = state.apply("2D")  # the 3D went out of play with the dealer's hand: a stop at once
    assert (state.to_act, sorted(state.legal_actions())) == (0, ["2H", "2S"])
    state = play(state, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    assert state.to_act == 2  # the ace stops the run: its player starts again, not in spades
    assert sorted(state.legal_actions()) == ["5H", "QC", "QD"]


def test_the_widow_sold_to_the_best_offer_swaps_hands_and_pays_the_dealer():
    state = play(deal(), "sell bid:3")
    assert state.legal_actions() == ["pass", *(f"bid:{n}" for n in range(4, 11))]
    with pytest.raises(IllegalPlay) as refused:
        state.apply("bid:3")
    assert refused.value.rule == "offer_higher"
    state = state.apply("bid:5")
    assert (state.taker, state.price) == (1, 5)
    assert state.chips == (-8, -8 - 5, -8 + 5)
    assert state.dead == sum(1 << CARDS.index(card) for card in S1.split())  # the buyer's old hand
    assert state.hands[1] == sum(1 << CARDS.index(card) for card in WIDOW.split())
    view = state.view(0)
    assert dict(view.facts)["widow"].message == "%(name)s bought the widow for %(count)s."
    assert view.area("out-of-play").count == 13
    assert not {p.card for a in view.areas for p in a.cards} & set(S1.split())


def test_a_top_offer_leaves_only_passes():
    state = play(deal(), "sell bid:10")
    assert state.legal_actions() == ["pass"]


def test_spread_antes_take_165_actions_before_anyone_sees_a_card():
    state = deal({"ante_spread": True}, boodles={"JS": 1})
    assert state.to_act == 2  # the dealer first
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)) == 165
    assert "ante:8,0,0,0" in legal
    assert "ante:2,2,2,2" in legal
    assert state.view(2).hand == ()  # nobody sees their cards before the antes are in
    for wrong in ("ante:3,3,3,3", "ante:9,-1,0,0", "ante:2,2,2", "take"):
        with pytest.raises(IllegalPlay) as refused:
            state.apply(wrong)
        assert refused.value.rule == "ante_spread"
    state = play(state, "ante:8,0,0,0 ante:0,1,2,5 ante:2,2,2,2")
    assert state.layout == (10, 3, 4, 8)
    assert state.chips == (-8, -8, -8)
    assert (state.phase, state.to_act) == ("widow", 2)
    assert len(state.view(2).hand) == 13


def test_a_tie_for_the_lead_plays_on_and_the_layout_carries_over():
    options = MICHIGAN.parse_options({"rounds": 1})
    match = MICHIGAN.new_match(players=3, options=options, rng=random.Random(3))
    rng = random.Random(5)
    ties = 0
    for _ in range(200):
        state = play_randomly(match.deal(rng), rng)
        settled = match.settle(state)
        assert settled.boodles == state.layout  # what nobody took lies there for the next deal
        assert settled.dealer == (match.dealer + 1) % 3
        match = settled
        if match.deals >= 3 and len(match.leaders) > 1:
            ties += 1
            assert not match.finished
            assert MICHIGAN.extra_deal(match) == match.leaders
        if match.finished:
            assert match.winners == (max(range(3), key=match.balances.__getitem__),)
            break
    assert match.finished


def test_a_tied_session_is_not_over_until_one_balance_leads():
    options = MICHIGAN.parse_options({})
    tied = MICHIGAN.match_from_record(
        {"dealer": 0, "balances": [5, 5, -10], "boodles": [0, 0, 0, 0], "deals": 3}, players=3, options=options
    )
    assert not tied.finished
    assert MICHIGAN.extra_deal(tied) == (0, 1)
    alone = MICHIGAN.match_from_record(
        {"dealer": 0, "balances": [6, 4, -10], "boodles": [0, 0, 0, 0], "deals": 3}, players=3, options=options
    )
    assert alone.finished
    assert alone.winners == (0,)
    assert MICHIGAN.ranking(alone) == (6.0, 4.0, -10.0)


def test_cards_out_of_play_are_never_shown_not_even_after_the_deal():
    state = play(deal(), "sell pass pass 2D 3D 4D 5D 6D 7D 8D 9D TD JD 4H pass")
    state = play(state, "2S 3S 4S 5S 6S 7S 8S 9S TS JS 2H 3H 2C 3C 4C 5C 6C 7C 8C 9C TC JC 7H 8H 9H")
    state = play(state, "pass pass pass KH")
    dead = set(WIDOW.split())
    seen = state.view(EVERYONE)
    shown = {p.card for a in seen.areas for p in a.cards if a.name != "boodles"}
    shown |= {c for s in seen.seats for c in s.cards}
    assert not shown & dead
    start = deal()
    for view in start.replay(list(state.history)):
        cards = {p.card for a in view.areas for p in a.cards if a.name != "boodles"} | {
            c for s in view.seats for c in s.cards
        }
        assert not cards & dead
    record = state.public_record()
    assert record["widow"] == []
    assert not {card for hand in record["hands"] for card in hand} & dead
    assert replay(record)["result"] == state.result()


def test_a_record_that_leaves_out_a_hand_in_play_is_refused():
    record = {
        "game": "michigan",
        "dealer": 2,
        "hands": [S0.split(), S1.split(), S2.split()],
        "widow": [],
        "actions": ["take"],
    }
    with pytest.raises(IllegalRecordPlay) as refused:
        replay(record)
    assert refused.value.error.rule == "unrecorded_hand"


def test_cards_and_chips_are_conserved_and_hidden_cards_stay_hidden():
    """Over random deals: cards and chips are conserved, and no view shows a card its viewer may not
    see (not even the widow or the cards out of play). That a resampled world shows its seat exactly
    what the true deal does is tests/engine/test_every_game.py's, for every game."""
    rng = random.Random(11)
    for number in range(40):
        players = 3 + number % 6
        options = MICHIGAN.parse_options({"ante_spread": number % 3 == 0})
        match = MICHIGAN.new_match(players=players, options=options, rng=rng)
        first = match.deal(rng)
        carried = sum(first.carried)
        for state in random_line(first, rng)[0]:
            if state.phase in ("play", "over"):
                assert state.gone | state.dead | _all(state.hands) == (1 << 52) - 1
                assert not state.gone & state.dead
            assert sum(state.chips) + sum(state.layout) - carried == 0
            for seat in range(players):
                view = state.view(seat)
                visible = {p.card for a in view.areas for p in a.cards if a.name != "boodles"} | set(view.hand)
                mine = _cards(state.hands[seat]) if state.phase != "ante" else set()
                assert visible <= mine | _cards(state.gone)
        assert replay(state.public_record())["result"] == state.result()
        with pytest.raises(HiddenCards):
            match.deal(rng).view(EVERYONE)


def _all(hands) -> int:
    mask = 0
    for hand in hands:
        mask |= hand
    return mask


def _cards(mask: int) -> set[str]:
    return {CARDS[i] for i in range(52) if mask >> i & 1}


# -- perft by hand -----------------------------------------------------------------------


def test_perft_by_hand():
    state = deal()
    assert perft_actions(state, 1) == 2  # take or sell
    # take: seat 0 starts with its lowest diamond, heart or spade (3); sell: seat 0 passes or offers 1-10 (11)
    assert perft_actions(state, 2) == 3 + 11
    # take, 2D: a stop (the 3D is out of play), then 2H or 2S; take, 2H or 2S: one card follows each.
    # sell, pass: 11 for seat 1; sell, bid:N: pass or above N, 11 - N.
    assert perft_actions(state, 3) == (2 + 1 + 1) + (11 + sum(11 - n for n in range(1, 11)))
    spread = deal({"ante_spread": True})
    assert perft_actions(spread, 1) == 165
    assert perft_actions(spread, 2) == 165**2


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_perft_on_the_command_line():
    hands = "/".join(",".join(h.split()) for h in (S0, S1, S2))
    widow = ",".join(WIDOW.split())
    out = _cli("perft", "--game", "michigan", "--dealer", "2", "--hands", hands, "--widow", widow, "--depth", "3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == str(4 + 66)
    out = _cli(
        "perft", "--game", "michigan", "--dealer", "2", "--hands", hands, "--widow", widow, "--options",
        '{"ante_spread": true}', "--depth", "1",
    )  # fmt: skip
    assert out.stdout.split()[-1] == "165"


def test_replay_on_the_command_line_and_its_refusal():
    record = {
        "game": "michigan",
        "options": {"ante_spread": False},
        "dealer": 2,
        "hands": [S0.split(), S1.split(), S2.split()],
        "widow": WIDOW.split(),
        "boodles": {"AH": 1, "KC": 0, "QD": 0, "JS": 0},
        "actions": "sell pass pass 2D 3D 4D 5D 6D 7D 8D 9D TD JD 4H pass 2S 3S 4S 5S 6S 7S 8S 9S TS JS".split()
        + "2H 3H 2C 3C 4C 5C 6C 7C 8C 9C TC JC 7H 8H 9H pass pass pass KH".split(),
    }
    out = _cli("replay", stdin=json.dumps(record))
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed["plays"][:2] == [{"seat": 0, "card": "2D"}, {"seat": 2, "card": "3D"}]
    assert len(printed["plays"]) == 52 - 13 - 2
    result = printed["result"]
    assert result["boodles"] == {"AH": 7, "KC": 6, "QD": 6, "JS": 0}
    assert sum(result["chips"]) + sum(result["boodles"].values()) - 1 == 0
    bad = record | {"actions": ["sell", "pass", "pass", "3S"]}
    out = _cli("replay", stdin=json.dumps(bad))
    assert out.returncode == 1
    error = json.loads(out.stdout)
    assert error == {
        "error": "illegal_action",
        "index": 3,
        "seat": 0,
        "action": "3S",
        "legal": ["2D", "2H", "2S"],
        "rule": "lowest_of_suit",
        "message": "A run starts with your lowest card of the suit: the 2S.",
    }


def test_every_computer_level_antes_takes_or_sells_bids_and_plays():
    rng = random.Random(2)
    actions = set()
    for number in range(6):
        options = MICHIGAN.parse_options({"ante_spread": number % 2 == 0})
        match = MICHIGAN.new_match(players=4, options=options, rng=rng)
        players = [generic_player(level, random.Random(number * 4 + i), "michigan") for i, level in
                   enumerate(("easy", "medium", "strong", "medium"))]  # fmt: skip
        state = match.deal(rng)
        while not state.is_over:
            seat = state.to_act
            action = players[seat].choose(state.view(seat))
            assert action in state.legal_actions()
            actions.add(action.split(":")[0] if ":" in action else "card" if len(action) == 2 else action)
            state = state.apply(action)
    assert {"ante", "card", "pass"} <= actions
    assert actions & {"take", "sell"}
