"""Following, overtaking, trumps and the errors that name the broken rule."""

import pytest

from games.engine import IllegalPlay
from tests.engine_helpers import femkort_deal, play

HANDS = "8H,2C,3C,4C,5C/QH,3H,2D,3D,4D/AS,KS,QS,JS,TS"


def test_winner_of_tricks_one_to_four_loses_the_deal_to_the_fifth_trick():
    state = femkort_deal("AS,KS,QS,JS,2H/3H,2C,3C,4C,5C/2D,3D,4D,5D,6D", dealer=2)
    state = play(state, "AS", "2C", "2D", "KS", "3C", "3D", "QS", "4C", "4D", "JS", "5C", "5D", "2H", "3H", "6D")
    assert [t.winner for t in state.tricks] == [0, 0, 0, 0, 1]
    assert state.winner == 1


def test_classic_profile_only_requires_following_suit():
    state = play(femkort_deal(HANDS, dealer=2, profile="classic"), "8H")
    assert state.legal_cards() == ["3H", "QH"]
    assert state.play("3H").trick.cards == ("8H", "3H")


def test_cannot_overtake_so_any_lower_card_of_the_suit():
    state = play(femkort_deal("QH,2C,3C,4C,5C/8H,3H,2D,3D,4D/AS,KS,QS,JS,TS", dealer=2), "QH")
    assert state.legal_cards() == ["3H", "8H"]


def test_leader_may_lead_any_card():
    state = femkort_deal(HANDS, dealer=2)
    assert state.to_act == 0
    assert sorted(state.legal_cards()) == sorted(["8H", "2C", "3C", "4C", "5C"])


def test_must_follow_names_the_led_suit():
    state = play(femkort_deal(HANDS, dealer=2, profile="classic"), "8H")
    with pytest.raises(IllegalPlay) as broken:
        state.play("2D")
    assert broken.value.rule == "must_follow"
    assert "hearts" in broken.value.message
    assert broken.value.legal == ["3H", "QH"]


def test_out_of_turn_is_refused_and_changes_nothing():
    state = femkort_deal(HANDS, dealer=2)
    with pytest.raises(IllegalPlay) as broken:
        state.play("QH", seat=1)
    assert broken.value.rule == "not_your_turn"
    assert state.plays == []


def test_card_not_in_hand_is_refused():
    state = femkort_deal(HANDS, dealer=2)
    with pytest.raises(IllegalPlay) as broken:
        state.play("QH")
    assert broken.value.rule == "not_in_hand"


def test_no_card_after_the_deal_is_over():
    state = femkort_deal("AS,KS,QS,JS,2H/3H,2C,3C,4C,5C/2D,3D,4D,5D,6D", dealer=2)
    state = play(state, "AS", "2C", "2D", "KS", "3C", "3D", "QS", "4C", "4D", "JS", "5C", "5D", "2H", "3H", "6D")
    with pytest.raises(IllegalPlay) as broken:
        state.play("AS")
    assert broken.value.rule == "deal_over"


# Trump: the dealer's last card is turned up. Seat 2 deals and its fifth card is 6S.
TRUMP_HANDS = "5H,6H,2C,3C,4C/2S,3S,7H,2D,3D/4H,TH,KC,QC,6S"


def test_trump_is_the_suit_of_the_dealers_last_card():
    assert femkort_deal(TRUMP_HANDS, dealer=2, trump=True).trump == "S"
    assert femkort_deal(TRUMP_HANDS, dealer=2).trump is None


def test_a_trump_beats_the_led_suit():
    state = femkort_deal("5H,6H,2C,3C,4C/2S,3S,2D,3D,4D/4H,TH,KC,QC,6S", dealer=2, trump=True)
    state = play(state, "5H", "2S", "TH")
    assert state.tricks[0].winner == 1


def test_after_a_trump_any_card_of_the_led_suit_is_allowed():
    state = femkort_deal("5H,6H,2C,3C,4C/2S,3S,2D,3D,4D/4H,TH,KC,QC,6S", dealer=2, trump=True)
    assert play(state, "5H", "2S").legal_cards() == ["4H", "TH"]
    assert play(state, "5H", "2D").legal_cards() == ["TH"]


def test_highest_trump_wins_and_void_player_need_not_trump():
    state = femkort_deal("5H,6H,2C,3C,4C/2S,3S,2D,3D,4D/4S,TS,KC,QC,6S", dealer=2, trump=True)
    state = play(state, "5H", "2S")
    assert state.legal_cards() == ["4S", "6S", "TS", "QC", "KC"]
    assert play(state, "TS").tricks[0].winner == 2
    assert play(state, "KC").tricks[0].winner == 1


def test_trump_led_follows_the_ordinary_overtaking_rule():
    state = femkort_deal("5S,6H,2C,3C,4C/2S,7S,2D,3D,4D/4H,TH,KC,QC,6S", dealer=2, trump=True)
    assert play(state, "5S").legal_cards() == ["7S"]
