"""Tournament pairing: a Swiss round's tables and byes, its tie-breaks, and an arena's next tables."""

from __future__ import annotations

import random

import pytest

from games.pairing import Entrant, Meetings, Waiting, arena_tables, swiss_round, tie_breaks


def entrants(scores: list[float], byes: dict[int, int] | None = None) -> list[Entrant]:
    return [Entrant(player, score, (byes or {}).get(player, 0)) for player, score in enumerate(scores, 1)]


def test_the_first_round_seats_the_order_given_top_down():
    round_ = swiss_round(entrants([0] * 8), 4, Meetings())
    assert round_.tables == ((1, 2, 3, 4), (5, 6, 7, 8))
    assert round_.byes == ()


def test_tables_group_the_nearest_scores():
    scores = [1, 5, 2, 4, 3, 6]  # players 1..6
    round_ = swiss_round(entrants(scores), 3, Meetings())
    assert round_.tables == ((6, 2, 4), (5, 3, 1))


def test_the_odd_ones_sit_out_lowest_first_and_never_twice_while_others_have_not():
    scores = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    first = swiss_round(entrants(scores), 4, Meetings())
    assert first.byes == (9, 10)
    second = swiss_round(entrants(scores, byes={9: 1, 10: 1}), 4, Meetings())
    assert second.byes == (7, 8)
    seated = [player for table in second.tables for player in table]
    assert sorted(seated + list(second.byes)) == list(range(1, 11))


def test_opponents_repeat_only_where_nobody_else_is_left():
    met = Meetings()
    met.add_table((1, 2, 3))
    met.add_table((4, 5, 6))
    round_ = swiss_round(entrants([0] * 6), 3, met)
    repeats = sum(met.times(a, b) for table in round_.tables for i, a in enumerate(table) for b in table[i + 1 :])
    assert repeats == 2  # two tables of three from two tables of three: one old pair at each, no more
    assert round_.tables[0] == (1, 4, 2)


@pytest.mark.parametrize("seed", range(5))
def test_a_whole_swiss_seats_everyone_once_a_round(seed):
    rng = random.Random(seed)
    players, size = rng.randint(7, 23), rng.choice([2, 3, 4])
    scores = dict.fromkeys(range(1, players + 1), 0.0)
    byes = dict.fromkeys(scores, 0)
    met, history = Meetings(), []
    for _ in range(4):
        field = [Entrant(p, scores[p], byes[p]) for p in scores]
        round_ = swiss_round(field, size, met)
        seated = [p for table in round_.tables for p in table]
        assert sorted(seated + list(round_.byes)) == sorted(scores)  # each once: seated or sitting out
        assert all(len(table) == size for table in round_.tables)
        assert len(round_.byes) == players % size
        if round_.byes:  # byes go to who sat out fewest: nobody sits out twice while another has not
            assert max(byes[p] for p in round_.byes) <= min(byes[p] for p in seated)
        for p in round_.byes:
            byes[p] += 1
        for table in round_.tables:
            met.add_table(table)
            history.append(table)
            for place, p in enumerate(rng.sample(table, len(table))):
                scores[p] += place
    order = tie_breaks(scores, history)
    assert sorted(order) == sorted(scores)
    assert [scores[p] for p in order] == sorted(scores.values(), reverse=True)


def test_tie_breaks_count_the_opponents_scores_then_wins():
    scores = {1: 3.0, 2: 3.0, 3: 5.0, 4: 0.0}
    tables = [(1, 3), (2, 4)]
    assert tie_breaks(scores, tables) == [3, 1, 2, 4]  # 1 met the 5, 2 met the 0
    assert tie_breaks({1: 1.0, 2: 1.0}, [], wins={2: 1}) == [2, 1]


def test_an_arena_seats_similar_scores_and_fills_with_computers_only_after_the_wait():
    free = [Waiting(p, score, waited) for p, score, waited in [(1, 10, 5), (2, 2, 5), (3, 9, 5), (4, 1, 40), (5, 8, 5)]]
    waiting = arena_tables(free, 2, fill_after=30)
    assert waiting.tables == ((1, 3), (5, 2))
    assert waiting.with_computers == (4,)  # waited 40 s: computers fill the table
    patient = arena_tables(free[:3], 2, fill_after=30)
    assert patient.tables == ((1, 3),)
    assert patient.waiting == (2,)
    assert patient.with_computers == ()


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="at least two"):
        swiss_round(entrants([0, 0]), 1, Meetings())
    with pytest.raises(ValueError, match="twice"):
        swiss_round([Entrant(1, 0), Entrant(1, 0)], 2, Meetings())
    with pytest.raises(ValueError, match="at least two"):
        arena_tables([], 1, fill_after=0)
