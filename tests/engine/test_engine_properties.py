"""Properties over random deals of every table size: legality, conservation, trick winners, replay."""

import random

from hypothesis import given
from hypothesis import strategies as st

from games.engine import FEMKORT, LETZTER_STICH, DealState
from games.engine.cards import BIT, INDEX, SUITS
from games.engine.records import record_of, replay
from games.engine.tricks.masks import NO_TRUMP, legal_mask
from tests.engine_helpers import play_out, random_line

femkort_tables = st.fixed_dictionaries(
    {
        "players": st.integers(3, 10),
        "dealer": st.integers(0, 9),
        "seed": st.integers(0, 2**32),
        "profile": st.sampled_from(["modern", "classic"]),
        "trump": st.booleans(),
    }
)
stich_tables = st.fixed_dictionaries(
    {"players": st.integers(3, 4), "dealer": st.integers(0, 3), "seed": st.integers(0, 2**32)}
)


def femkort(table: dict) -> DealState:
    options = FEMKORT.parse_options({"profile": table["profile"], "trump": table["trump"]})
    return FEMKORT.deal(
        players=table["players"],
        dealer=table["dealer"] % table["players"],
        options=options,
        rng=random.Random(table["seed"]),
    )


def stich(table: dict) -> DealState:
    return LETZTER_STICH.deal(
        players=table["players"],
        dealer=table["dealer"] % table["players"],
        options=LETZTER_STICH.parse_options(None),
        rng=random.Random(table["seed"]),
    )


def walk(state: DealState, seed: int) -> list[DealState]:
    return random_line(state, random.Random(seed))[0]


def trick_leader_and_strength(state: DealState, trick) -> int:
    trump = None if state.trump is None else state.trump
    led = trick.cards[0][1]
    best = max(
        range(len(trick.cards)),
        key=lambda i: (trick.cards[i][1] == trump, trick.cards[i][1] == led, INDEX[trick.cards[i]]),
    )
    return state.seat_after(trick.leader, best)


def check_deal(state: DealState, seed: int) -> None:
    dealt = sorted(card for hand in state.dealt for card in hand)
    trump = NO_TRUMP if state.trump is None else SUITS.index(state.trump)
    for now in walk(state, seed):
        if not now.is_over:
            assert now.legal_cards(), "the player to act always has a legal card"
            hand = now.hands[now.to_act]
            cards = [INDEX[c] for c in now.trick.cards]
            modern = legal_mask(hand, cards, trump, overtake=True)
            classic = legal_mask(hand, cards, trump, overtake=False)
            assert modern & ~classic == 0, "the modern legal set is a subset of the classic one"
            assert set(now.legal_cards()) <= set(now.hand(now.to_act))
        remaining = [card for seat in range(now.players) for card in now.hand(seat)]
        assert sorted(remaining + now.plays) == dealt, "cards are conserved"
        assert len(set(remaining + now.plays)) == len(dealt)
    final = now
    assert final.winner == final.tricks[-1].winner
    for trick in final.tricks:
        assert trick.winner == trick_leader_and_strength(final, trick)
    assert replay(record_of(final)) == {
        "tricks": [{"leader": t.leader, "cards": list(t.cards), "winner": t.winner} for t in final.tricks],
        "winner": final.winner,
        **(_tokens(final) if final.game == "letzter_stich" else {}),
    }


def _tokens(state: DealState) -> dict:
    from games.engine import settle_tokens

    tokens, pot = settle_tokens((5,) * state.players, 0, state)
    return {"tokens": list(tokens), "pot": pot}


@given(femkort_tables, st.integers(0, 2**32))
def test_random_femkort_deals_obey_the_rules(table, seed):
    check_deal(femkort(table), seed)


@given(stich_tables, st.integers(0, 2**32))
def test_random_letzter_stich_deals_obey_the_rules(table, seed):
    check_deal(stich(table), seed)


@given(femkort_tables, st.integers(0, 2**32))
def test_replay_of_a_partial_deal_matches_the_engine(table, seed):
    state = femkort(table)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, state.tricks_per_deal * len(state.seats))):
        state = state.play(rng.choice(state.legal_cards()))
    result = replay(record_of(state))
    assert "winner" not in result
    assert [t["cards"] for t in result["tricks"]] == [
        list(t.cards) for t in (*state.tricks, *([state.trick] if state.trick.cards else []))
    ]


@given(femkort_tables)
def test_played_cards_stay_face_up_in_order(table):
    state = play_out(femkort(table), random.Random(table["seed"]))
    for seat in state.seats:
        played = state.played_by(seat)
        assert len(played) == 5
        assert sum(BIT[c] for c in played) & state.hands[seat] == 0
        assert set(played) == set(state.dealt[seat])
