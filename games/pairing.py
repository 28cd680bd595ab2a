"""Who sits with whom at a tournament: a Swiss round's tables and an arena's next tables, for games
of several players at a table. Pure (no Django): players are ids with scores, and what is decided
is only the grouping; the tournament's service seats the tables.

**A Swiss round** (``swiss_round``):

1. Byes: when the players do not divide into full tables, the odd ones sit the round out. They are
   the lowest-scored of the players who have sat out fewest rounds (nobody sits out twice while
   another has not yet); a bye scores as the tournament's rules say, not here.
2. Order: everyone else, highest score first (ties: the order given, e.g. by rating).
3. Tables, top down: each table takes the highest-placed player not yet seated, then, one seat at a
   time, the unseated player who has met the players already at the table the fewest times; among
   those, the one nearest in score to the table's first player, then the highest placed. So tables
   group equal or nearest scores, and opponents repeat only where no one else is left to seat.

**Tie-breaks** (``tie_breaks``): the sum of the opponents' scores (Buchholz, opponents counted once
per table met), then the number of rounds won (as the caller counts them), then the order given.

**An arena's next tables** (``arena_tables``): free players, highest score first, are seated in
groups of the table size from the top, so each table holds similar scores. Players left over wait
for the next pass, unless the longest of them has waited ``fill_after`` seconds: then they make a
table of their own with its empty seats for computers (none sits alone with computers while
another free player waits).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    player: int
    score: float
    byes: int = 0  # rounds sat out so far


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass
class Meetings:
    """How often each pair of players has sat at one table (any tournament history)."""

    counts: Counter = field(default_factory=Counter)

    def add_table(self, players: Sequence[int]) -> None:
        for index, one in enumerate(players):
            for other in players[index + 1 :]:
                self.counts[_pair(one, other)] += 1

    def times(self, one: int, other: int) -> int:
        return self.counts[_pair(one, other)]


def _pair(one: int, other: int) -> tuple[int, int]:
    return (one, other) if one < other else (other, one)


def swiss_round(entrants: Sequence[Entrant], table_size: int, met: Meetings) -> Round:
    """One Swiss round's tables of ``table_size`` and its byes, as the module's rule says."""
    if table_size < 2:
        raise ValueError("a table seats at least two")
    if len({e.player for e in entrants}) != len(entrants):
        raise ValueError("a player is entered twice")
    placed = sorted(range(len(entrants)), key=lambda i: (-entrants[i].score, i))
    odd = len(entrants) % table_size
    byes = sorted(placed, key=lambda i: (entrants[i].byes, entrants[i].score, -i))[:odd]
    left = [i for i in placed if i not in byes]
    tables = []
    while left:
        first = left.pop(0)
        table = [first]
        while len(table) < table_size:
            best = min(
                left,
                key=lambda i: (
                    sum(met.times(entrants[i].player, entrants[j].player) for j in table),
                    abs(entrants[i].score - entrants[first].score),
                    left.index(i),
                ),
            )
            left.remove(best)
            table.append(best)
        tables.append(tuple(entrants[i].player for i in table))
    return Round(tuple(tables), tuple(entrants[i].player for i in sorted(byes, key=lambda i: placed.index(i))))


def tie_breaks(
    scores: Mapping[int, float], tables: Sequence[Sequence[int]], wins: Mapping[int, int] | None = None
) -> list[int]:
    """The players in final order: score, then the sum of their opponents' scores, then rounds won,
    then the order of ``scores``."""
    opponents: dict[int, float] = dict.fromkeys(scores, 0.0)
    for table in tables:
        for player in table:
            opponents[player] += sum(scores.get(other, 0.0) for other in table if other != player)
    order = list(scores)
    wins = wins or {}
    return sorted(order, key=lambda p: (-scores[p], -opponents[p], -wins.get(p, 0), order.index(p)))


@dataclass(frozen=True)
class Waiting:
    player: int
    score: float
    waited: float  # seconds since this player became free


@dataclass(frozen=True)
class ArenaPass:
    tables: tuple[tuple[int, ...], ...]  # full tables of people
    with_computers: tuple[int, ...] = ()  # a table of these people, its other seats for computers
    waiting: tuple[int, ...] = ()  # still free, for the next pass


def arena_tables(free: Sequence[Waiting], table_size: int, fill_after: float) -> ArenaPass:
    """An arena's pairing pass over its free players, as the module's rule says."""
    if table_size < 2:
        raise ValueError("a table seats at least two")
    order = sorted(free, key=lambda w: (-w.score, -w.waited, w.player))
    full = len(order) - len(order) % table_size
    tables = tuple(tuple(w.player for w in order[start : start + table_size]) for start in range(0, full, table_size))
    rest = order[full:]
    if rest and max(w.waited for w in rest) >= fill_after:
        return ArenaPass(tables, with_computers=tuple(w.player for w in rest))
    return ArenaPass(tables, waiting=tuple(w.player for w in rest))
