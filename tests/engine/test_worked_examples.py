"""The worked examples of RULES.md §1 (Femkort) and §3 (Letzter Stich)."""

import pytest

from games.engine import IllegalPlay, settle_tokens
from tests.engine_helpers import femkort_deal, play, stich_deal

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
