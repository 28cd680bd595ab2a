"""Session (match) state: first to N wins, pot play with chips, Letzter Stich tokens."""

import itertools
import random
from dataclasses import replace

import pytest

from games.engine import FEMKORT, LETZTER_STICH, InvalidDeal, settle_tokens
from tests.engine_helpers import play_out, stich_deal


def run_deal(match, rng, winner=None):
    """Deal and play one deal; with ``winner`` retry seeds until that seat takes the last trick."""
    while True:
        deal = play_out(match.deal(rng), rng)
        if winner is None or deal.winner == winner:
            return match.settle(deal)


def test_cashless_session_ends_at_exactly_three_wins_with_that_winner():
    rng = random.Random(7)
    match = FEMKORT.new_match(players=4, options=FEMKORT.parse_options(None), rng=rng)
    dealers = [match.dealer]
    while not match.finished:
        match = run_deal(match, rng)
        dealers.append(match.dealer)
    (winner,) = match.winners
    assert match.wins[winner] == 3
    assert max(w for seat, w in enumerate(match.wins) if seat != winner) < 3
    # The button moves one seat clockwise after every deal (the final entry is unchanged).
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers[:-1]))


def test_target_wins_is_a_table_option():
    rng = random.Random(1)
    match = FEMKORT.new_match(players=3, options=FEMKORT.parse_options({"target": 1}), rng=rng)
    match = run_deal(match, rng)
    assert match.finished
    assert sum(match.wins) == 1


def test_a_finished_session_refuses_more_deals_and_foreign_deals_are_refused():
    rng = random.Random(2)
    match = FEMKORT.new_match(players=3, options=FEMKORT.parse_options({"target": 1}), rng=rng)
    deal = play_out(match.deal(rng))
    with pytest.raises(InvalidDeal):
        match.settle(match.deal(rng))  # not complete
    match = match.settle(deal)
    with pytest.raises(InvalidDeal):
        match.settle(deal)


def test_pot_play_winner_takes_every_ante():
    rng = random.Random(3)
    match = FEMKORT.new_match(players=4, options=FEMKORT.parse_options({"pot": True, "stack": 10}), rng=rng)
    after = run_deal(match, rng, winner=2)
    assert after.chips == (9, 9, 13, 9)
    assert sum(after.chips) == 40


def test_pot_play_player_who_cannot_ante_is_out_of_later_deals():
    rng = random.Random(4)
    options = FEMKORT.parse_options({"pot": True, "stack": 1, "target": 5})
    match = FEMKORT.new_match(players=3, options=options, rng=rng)
    match = run_deal(match, rng, winner=0)
    # Seats 1 and 2 had one chip each and lost it: only seat 0 can ante, the session is over.
    assert match.chips == (3, 0, 0)
    assert match.winners == (0,)


def test_pot_play_deals_only_players_with_chips():
    rng = random.Random(5)
    options = FEMKORT.parse_options({"pot": True, "stack": 2, "target": 9})
    match = FEMKORT.new_match(players=4, options=options, rng=rng)
    match = run_deal(match, rng, winner=0)
    match = run_deal(match, rng, winner=1)
    assert match.chips == (4, 4, 0, 0)
    assert match.seats_in == (0, 1)
    deal = match.deal(rng)
    assert deal.dealt[2] == ()
    assert deal.dealt[3] == ()
    assert deal.dealer in (0, 1)


def test_pot_play_most_chips_wins_and_tied_leaders_play_one_extra_deal_without_ante():
    rng = random.Random(6)
    options = FEMKORT.parse_options({"pot": True, "stack": 10, "target": 1})
    match = FEMKORT.new_match(players=3, options=options, rng=rng)
    clear = run_deal(replace(match, chips=(11, 9, 10)), rng, winner=2)
    assert clear.chips == (10, 8, 12)
    assert clear.winners == (2,)
    level = run_deal(replace(match, chips=(11, 13, 10)), rng, winner=2)
    assert level.chips == (10, 12, 12)
    assert level.tiebreak == (1, 2)
    assert not level.finished
    extra = play_out(level.deal(rng), rng)
    assert extra.dealt[0] == ()
    assert extra.seats == (1, 2)
    decided = level.settle(extra)
    assert decided.winners == (extra.winner,)
    assert decided.chips == level.chips


def test_letzter_stich_slam_takes_two_from_the_pot_but_never_more_than_it_holds():
    # Seat 1 holds every ace and king and leads every trick.
    hands = "QS,JS,TS,QH,JH,TH,QD,JD/AS,KS,AH,KH,AD,KD,AC,KC/9S,8S,7S,9H,8H,7H,TD,9D/8D,7D,QC,JC,TC,9C,8C,7C"
    state = play_out(stich_deal(hands, dealer=0))
    assert {t.winner for t in state.tricks} == {1}
    assert settle_tokens((5, 5, 5, 5), 3, state) == ((5, 7, 5, 5), 1)
    assert settle_tokens((5, 5, 5, 5), 1, state) == ((5, 6, 5, 5), 0)
    assert settle_tokens((5, 5, 5, 5), 0, state) == ((5, 5, 5, 5), 0)


def test_letzter_stich_match_ends_when_someone_has_no_tokens():
    rng = random.Random(8)
    match = LETZTER_STICH.new_match(players=3, options=LETZTER_STICH.parse_options({"tokens": 1}), rng=rng)
    first_dealer = match.dealer
    deal = play_out(match.deal(rng), rng)
    match = match.settle(deal)
    assert match.finished
    assert match.dealer == (first_dealer + 1) % 3
    assert match.tokens[deal.winner] == 0 or all(t.winner == deal.winner for t in deal.tricks)


def test_letzter_stich_tied_leaders_draw():
    rng = random.Random(9)
    match = LETZTER_STICH.new_match(players=4, options=LETZTER_STICH.parse_options(None), rng=rng)
    assert replace(match, tokens=(0, 3, 3, 2)).winners == (1, 2)
    assert replace(match, tokens=(0, 4, 3, 2)).winners == (1,)
    assert replace(match, tokens=(1, 4, 3, 2)).winners == ()


def test_letzter_stich_full_match_conserves_tokens():
    rng = random.Random(10)
    match = LETZTER_STICH.new_match(players=4, options=LETZTER_STICH.parse_options(None), rng=rng)
    deals = 0
    while not match.finished:
        match = match.settle(play_out(match.deal(rng), rng))
        deals += 1
        assert sum(match.tokens) + match.pot == 20
    assert min(match.tokens) == 0
    assert deals >= 5
