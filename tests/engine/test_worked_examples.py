"""The worked examples of the rules pages, played as written there: docs/rules/femkort.md §5, §8
and §9, docs/rules/letzter_stich.md §6, docs/rules/nap.md §10 and docs/rules/euchre.md §13.
An example the page changes must change here too, and the other way round."""

import pytest

from games.engine import EUCHRE, FEMKORT, NAP, IllegalPlay, settle_tokens
from games.engine.femkort import FemkortMatch
from tests.engine_helpers import femkort_deal, play, play_out, stich_deal

# Seats: A=0, B=1, C=2; C deals so A leads.
FEMKORT_EXAMPLE = "8H,2C,3C,4C,5C/QH,3H,2D,3D,4D/AS,KS,QS,JS,TS"


def test_follower_holding_a_higher_card_must_overtake():
    state = play(femkort_deal(FEMKORT_EXAMPLE, dealer=2), "8H")
    assert state.legal_cards() == ["QH"]
    with pytest.raises(IllegalPlay) as broken:
        state.play("3H")
    assert broken.value.rule == "must_overtake"
    assert "8H" in broken.value.message
    assert "QH" in broken.value.message


def test_void_player_discards_and_cannot_win_the_trick():
    state = play(femkort_deal(FEMKORT_EXAMPLE, dealer=2), "8H", "QH")
    assert state.legal_cards() == ["TS", "JS", "QS", "KS", "AS"]
    state = state.play("AS")
    assert state.tricks[0].winner == 1
    assert state.to_act == 1


def test_only_the_fifth_trick_wins_the_deal():
    state = play(femkort_deal(FEMKORT_EXAMPLE, dealer=2), "8H", "QH", "AS")
    # B leads the next four tricks; B wins 3H (A and C void) but not the diamonds.
    state = play(state, "3H", "KS", "2C")
    assert state.tricks[1].winner == 1
    assert state.winner is None
    state = play(state, "2D", "QS", "3C", "3D", "JS", "4C", "4D", "TS", "5C")
    assert [t.winner for t in state.tricks] == [1, 1, 1, 1, 1]
    assert state.winner == 1


def test_off_suit_discard_does_not_raise_the_overtaking_bar():
    # A leads 8H, B is void and discards AS, C holds QH and 3H and must still play QH.
    state = femkort_deal("8H,2C,3C,4C,5C/AS,KS,QS,JS,TS/QH,3H,2D,3D,4D", dealer=2)
    state = play(state, "8H", "AS")
    assert state.legal_cards() == ["QH"]


LAST_TRICK_HANDS = "AC,KC,QC,JC,AD,KD,QD,9S/KS,TC,9C,JD,TD,9D,8S,7S/AH,KH,QH,JH,TH,9H,8H,7H/QS,8C,7C,8D,7D,AS,JS,TS"
FIRST_SEVEN_TRICKS = (
    "AC TC KH 8C  KC 9C QH 7C  QC 8S JH AS  JC 7S TH JS  AD JD 9H 8D  KD TD 8H 7D  QD 9D 7H TS"
).split()


def test_letzter_stich_last_trick_example():
    # A=0 wins tricks 1-7 and leads 9S; B plays KS, C (no spades) AH, D QS.
    state = play(stich_deal(LAST_TRICK_HANDS, dealer=3), *FIRST_SEVEN_TRICKS)
    assert state.to_act == 0
    state = state.play("9S").play("KS")
    assert state.legal_cards() == ["AH"]
    state = play(state, "AH", "QS")
    assert state.tricks[-1].winner == 1
    assert state.winner == 1
    assert settle_tokens((5, 5, 5, 5), 0, state) == ((5, 4, 5, 5), 1)


# Cleo (seat 2) deals and her fifth card, 9H, makes hearts trump.
TRUMP_EXAMPLE = "8C,2S,3S,4S,5S/2H,6D,7D,8D,9D/KC,3C,6S,7S,9H"


def test_femkort_trump_example_a_trumped_trick_frees_the_follower_from_overtaking():
    state = femkort_deal(TRUMP_EXAMPLE, dealer=2, trump=True)
    assert state.trump == "H"
    state = state.play("8C")
    assert state.legal_cards() == ["2H", "6D", "7D", "8D", "9D"]  # void in clubs: any card, no duty to trump
    state = state.play("2H")
    assert state.legal_cards() == ["3C", "KC"]
    state = state.play("3C")
    assert state.tricks[0].winner == 1


def test_femkort_trump_example_without_trump_the_same_cards_must_overtake():
    state = play(femkort_deal(TRUMP_EXAMPLE, dealer=2), "8C", "2H")
    assert state.legal_cards() == ["KC"]


def test_femkort_pot_play_example_ends_when_only_one_player_can_ante():
    options = FEMKORT.parse_options({"pot": True, "stack": 2})
    match = FemkortMatch(players=3, options=options, dealer=2, wins=(0, 0, 0), chips=(2, 2, 2))
    # Anna holds every ace and the king of spades: she takes every trick whoever leads.
    anna_wins = "AS,AH,AD,AC,KS/2S,3S,4S,5S,6S/7S,8S,9S,TS,JS"
    match = match.settle(play_out(femkort_deal(anna_wins, dealer=match.dealer, pot=True, stack=2)))
    assert match.chips == (4, 1, 1)
    assert not match.finished
    match = match.settle(play_out(femkort_deal(anna_wins, dealer=match.dealer, pot=True, stack=2)))
    assert match.chips == (6, 0, 0)
    assert match.winners == (0,)


NAP_EXAMPLE = [
    ["AC", "4S", "5S", "4H", "4D"],
    ["2C", "6S", "7S", "5H", "5D"],
    ["KC", "QC", "JC", "AS", "2H"],
    ["3C", "8S", "9S", "6H", "6D"],
]
NAP_TRICKS = "KC 3C AC 2C  4H 5H 2H 6H  8S 4S 6S AS  QC 9S 5S 7S  JC 6D 4D 5D".split()


def nap_example(cleo_bids):
    state = NAP.start_hands(dealt=NAP_EXAMPLE, dealer=3, options=NAP.parse_options(None))
    for bid in ("bid:2", "pass", cleo_bids, "pass"):
        state = state.apply(bid)
    for card in NAP_TRICKS:
        state = state.apply(card)
    return state


def test_nap_example_cleo_makes_three():
    state = nap_example("bid:3")
    assert state.contract == (2, "bid:3")
    assert state.trump == "C"
    assert [trick.winner for trick in state.tricks] == [0, 3, 2, 2, 2]
    assert NAP.chips(state) == (-3, -3, 9, -3)


@pytest.mark.parametrize(("bid", "chips"), [("bid:4", (4, 4, -12, 4)), ("nap", (5, 5, -15, 5))])
def test_nap_example_the_same_tricks_fail_a_higher_bid(bid, chips):
    assert NAP.chips(nap_example(bid)) == chips


EUCHRE_EXAMPLE = [
    ["AD", "KD", "AS", "7C", "8C"],
    ["JD", "JH", "AH", "KS", "7S"],
    ["QD", "TD", "QS", "9C", "TC"],
    ["KH", "QH", "8D", "AC", "KC"],
]


def euchre_example(*calls):
    state = EUCHRE.start_hands(dealt=EUCHRE_EXAMPLE, dealer=3, options=EUCHRE.parse_options(None), upcard="9H")
    for action in ("pass", "order", "discard:8D", *calls):
        state = state.apply(action)
    return state


def test_euchre_example_a_march_scores_two():
    state = euchre_example("pass")
    assert state.trump == "H"
    assert state.trick.leader == 0
    state = state.apply("AD")
    assert sorted(state.legal_actions()) == ["7S", "AH", "JD", "JH", "KS"]  # J♦ is a heart: Bo has no diamond
    for card in "JD TD KC  JH 9C 9H 7C  AH TC QH 8C  KS QS KH AS  AC KD 7S QD".split():
        state = state.apply(card)
    assert [trick.winner for trick in state.tricks] == [1, 1, 1, 3, 3]
    assert EUCHRE.points(state) == (0, 2)


@pytest.mark.parametrize(
    ("defence", "seats", "leader"),
    [
        (("pass", "pass"), (0, 1, 2), 2),  # Dag sits out; Cleo, on the maker's left, leads
        (("defend-alone",), (1, 2), 2),  # Cleo defends alone: Anna sits out too
        (("pass", "defend-alone"), (0, 1), 0),  # Anna defends alone: Cleo and Dag are out, Anna leads
    ],
)
def test_euchre_example_going_alone_decides_who_sits_out_and_who_leads(defence, seats, leader):
    state = euchre_example("alone")
    assert state.to_act == 2  # the maker's left opponent is asked first
    state = euchre_example("alone", *defence)
    assert state.seats == seats
    assert state.trick.leader == leader
