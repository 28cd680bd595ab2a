"""Partner faux pas (games/bots/partners.py, docs/bots.md): each definition on a hand-made Euchre
deal, hearts trump (seat 0 orders the ten of hearts), seats 0 and 2 against 1 and 3."""

import json
import random

from games.bots import partners
from games.bots.__main__ import main
from games.bots.deal_analysis import Search, world_values
from games.bots.partners import medium_played_out
from games.engine import EUCHRE

OPTIONS = EUCHRE.parse_options({})


def start(hands, *actions):
    state = EUCHRE.start_hands(dealt=hands, dealer=3, options=OPTIONS, upcard="TH")
    for action in actions:
        state = state.apply(action)
    return state


def judged(state, played):
    return partners.judge(EUCHRE, state, state.to_act, played, OPTIONS, random.Random(1))


STRONG = [
    ["JH", "JD", "AH", "KH", "QH"],  # both bowers and three top hearts: order the ten of hearts up, go alone
    ["7S", "8S", "9S", "TS", "QS"],
    ["7C", "8C", "9C", "TC", "QC"],
    ["7D", "8D", "9D", "TD", "QD"],
]

# Seat 0 leads the nine of spades, seat 1 follows low: seat 2 may overtake with the ace or leave it.
OVERTAKE = [
    ["9S", "JH", "JD", "AH", "KH"],
    ["7S", "7C", "8C", "9C", "TC"],
    ["AS", "8S", "QC", "KC", "AC"],
    ["7D", "8D", "9D", "TD", "QD"],  # no spade: the partner's nine holds
]


def test_taking_a_trick_the_partner_wins_is_a_faux_pas_when_leaving_it_does_as_well():
    state = start(OVERTAKE, "order", "discard:7D", "pass", "9S", "7S")
    assert partners.overtakes_partner(state, 2, "AS", (0,)) is True
    assert partners.overtakes_partner(state, 2, "8S", (0,)) is False
    assert Search(2, frozenset({0, 2}), 40_000).values(state, ["AS", "8S"]) == {"AS": 1.0, "8S": 1.0}
    assert judged(state, "AS") == partners.Verdict("overtake")
    assert judged(state, "8S") == partners.Verdict("")


def test_overtaking_is_no_faux_pas_when_only_the_overtaking_card_keeps_the_trick():
    hands = [*OVERTAKE[:3], ["TS", "8D", "9D", "TD", "QD"]]  # seat 3 would beat the nine with the ten
    state = start(hands, "order", "discard:8D", "pass", "9S", "7S")
    values = Search(2, frozenset({0, 2}), 40_000).values(state, ["AS", "8S"])
    assert values["AS"] > values["8S"]
    assert judged(state, "AS") == partners.Verdict("")


# Seat 0 cashes the ace of clubs and seat 2 throws a spade: it has shown out of clubs.
VOID = [
    ["AC", "7C", "JH", "AH", "9S"],
    ["8C", "KC", "7S", "8D", "9D"],
    ["8S", "TS", "QS", "KD", "AS"],
    ["9C", "TC", "QC", "7D", "JC"],
]


def test_leading_a_suit_the_partner_has_shown_out_of_is_a_faux_pas_when_another_lead_does_as_well():
    state = start(VOID, "order", "discard:7D", "pass", "AC", "8C", "8S", "9C")
    assert state.to_act == 0
    assert partners.voids_shown(state, (2,)) == {"C"}
    values = Search(0, frozenset({0, 2}), 40_000).values(state, state.legal_actions())
    assert values["JH"] >= values["7C"]
    assert judged(state, "7C") == partners.Verdict("lead_into_void")
    assert judged(state, "JH") == partners.Verdict("")
    assert partners.voids_shown(state, (1, 3)) == set()  # the other side followed clubs


def test_no_faux_pas_for_the_lead_before_the_partner_shows_out():
    state = start(VOID, "order", "discard:7D", "pass")
    assert state.to_act == 0
    assert partners.voids_shown(state, (2,)) == set()
    assert judged(state, "7C") == partners.Verdict("")


def test_a_call_the_seats_worlds_say_gives_up_more_than_the_margin_is_a_faux_pas():
    hands = STRONG
    assert judged(start(hands), "pass") == partners.Verdict("call")  # hearts can never be trump then
    assert judged(start(hands), "order") == partners.Verdict("")
    assert EUCHRE.call_margin == 1.0


def test_a_hopeless_order_costs_less_than_the_margin_where_passing_loses_too():
    hands = [
        ["7S", "8S", "7C", "8C", "7D"],  # not a trump, not an ace
        ["JH", "JD", "AH", "KH", "QH"],
        ["9S", "TS", "9C", "TC", "8D"],
        ["QS", "KS", "QC", "KC", "9D"],
    ]
    state = start(hands)
    side = frozenset({0, 2})
    _, means = world_values(EUCHRE, state.view(0), 0, side, ["order", "pass"], random.Random(1), 8, medium_played_out)
    assert 0 < means["pass"] - means["order"] <= EUCHRE.call_margin  # worse, but not by a point a deal
    assert judged(state, "order") == partners.Verdict("")


def test_a_flagged_call_counts_only_when_more_worlds_confirm_it(monkeypatch):
    """The first 8 worlds put "pass" 3 points behind; 32 more decide, pooled with them."""
    samples = []

    def worlds(game, view, seat, side, legal, rng, count, played_out):
        samples.append(count)
        gap = 3.0 if count == partners.WORLDS else later_gap
        return {}, {"order": gap, "pass": 0.0}

    monkeypatch.setattr(partners, "world_values", worlds)
    later_gap = 0.5  # pooled: (8 * 3 + 32 * 0.5) / 40 = 1.0, not past the margin
    assert judged(start(STRONG), "pass") == partners.Verdict("")
    later_gap = 0.6  # pooled: 1.08
    assert judged(start(STRONG), "pass") == partners.Verdict("call")
    assert samples == [partners.WORLDS, partners.CONFIRM_WORLDS] * 2
    samples.clear()
    assert judged(start(STRONG), "order") == partners.Verdict("")  # not flagged: no second sample
    assert samples == [partners.WORLDS]


def test_going_alone_is_counted_with_whether_the_open_hand_search_says_it_paid():
    state = start(STRONG, "order", "discard:7D")
    assert state.legal_actions() == ["pass", "alone"]
    assert partners.bold_worth(state, 0, frozenset({0, 2}), "alone", "pass") is True  # 4 points, not 2
    weak = [
        ["9H", "AS", "AC", "KS", "KC"],
        ["JH", "JD", "AH", "KH", "QH"],
        ["7C", "8C", "9C", "TC", "QC"],
        ["7D", "8D", "9D", "TD", "QD"],
    ]
    state = start(weak, "order", "discard:7D")
    assert partners.bold_worth(state, 0, frozenset({0, 2}), "alone", "pass") is False
    assert EUCHRE.bold_calls == {"alone", "defend-alone"}


def test_the_players_prefer_sparing_the_partner_on_a_near_tie_only():
    state = start(OVERTAKE, "order", "discard:7D", "pass", "9S", "7S")
    assert partners.discourteous(state, 2, "AS", (0,))
    assert not partners.discourteous(state, 2, "8S", (0,))
    assert partners.courteous_best(state, 2, {"AS": 10.0, "8S": 9.5}, tolerance=1.0) == "8S"
    assert partners.courteous_best(state, 2, {"AS": 10.0, "8S": 8.0}, tolerance=1.0) == "AS"
    assert not partners.discourteous(state, 2, "pass", (0,))  # a call is no card


def test_the_partnership_tables_are_every_game_that_pairs_seats():
    tables = partners.partnership_tables()
    assert ("euchre", 4, {}) in tables
    assert ("seven_up", 4, {"partnerships": True}) in tables
    assert all(not game.startswith(("femkort", "nap", "michigan")) for game, _, _ in tables)


def test_the_study_is_seeded_and_counts_every_partnership_decision(capsys):
    arguments = ["partners", "--game", "forty_five", "--players", "4", "--level", "easy", "--decisions", "40"]
    assert main([*arguments, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*arguments, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["decisions"] >= 40
    assert first["level"] == "easy"
    assert sum(first["faux_pas"].values()) > 0  # a random partner overtakes and leads into voids
    assert first["per_1000"] == round(
        1000 * sum(first["faux_pas"].values()) / (first["decisions"] - first["unjudged"]), 2
    )
