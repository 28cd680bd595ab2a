"""The research tool behind the strength figures of docs/bots.md: the open-hand ceiling sees the truth."""

import random

from games.bots.tricks.knowledge import infer
from games.bots.tricks.sampler import sample_world
from games.engine import FEMKORT
from games.engine.tricks.seat_view import view_for
from tools.field_study import OpenHandStrong, agreement, ceiling, open_hand


def test_the_open_hand_player_draws_the_true_deal_every_time():
    state = FEMKORT.deal(players=4, dealer=0, options=FEMKORT.parse_options({}), rng=random.Random(5))
    state = state.play(state.legal_cards()[0])
    player = OpenHandStrong(random.Random(1))
    player.deal = state
    view = view_for(state, state.to_act)
    truth = {seat: state.hands[seat] for seat in state.seats if seat != view.seat}
    knowledge = player.knowledge(view)
    assert all(sample_world(knowledge, random.Random(seed)) == truth for seed in range(5))
    # The field in the play-outs still judges its odds as a seat does, undealt cards unseen.
    assert knowledge.unseen == infer(view).unseen
    assert knowledge.unseen != sum(truth.values())
    assert player.choose(view) in view.legal


def test_the_studies_report_their_figures():
    figures = ceiling("letzter_stich", 4, 4, 1, {"playout_budget": 2000})
    assert figures["measure"] == "tokens lost"
    assert 0 <= figures["rate"] <= 1
    report = agreement("femkort", 3, 2, 1)
    assert report["leading"]["positions"] > 0
    assert 0 < report["leading"]["two_agree"] <= report["leading"]["most_chosen_share"] <= 1


def test_the_open_hand_side_of_a_rule_game_beats_the_rule_it_can_see_through():
    figures = open_hand("forty_five", 4, 60, 1, {})
    assert figures["deals"] == 60
    low, high = figures["split_multiple_ci95"]
    assert low <= figures["split_multiple"] <= high
    assert figures["value_per_deal"] > 0  # seeing every card, its side ends ahead of the rule's
