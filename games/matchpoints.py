"""Matchpoints: a result scores 1 for each other result from the same seat it beat and ½ for each it
tied, shown as a percentage of the most it could score. They come from a board's tallies (a count per
value, ``BoardTally``), so scoring a result among 10,000 reads a few rows, never the field.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right


class Field:
    """The finished results of one board's seat, as counts per value."""

    def __init__(self, counts: dict[float, int]):
        self.values = sorted(counts)
        self.cumulative = []
        total = 0
        for value in self.values:
            total += counts[value]
            self.cumulative.append(total)
        self.size = total
        self.counts = counts

    def below(self, value: float) -> int:
        index = bisect_left(self.values, value)
        return self.cumulative[index - 1] if index else 0

    def above(self, value: float) -> int:
        index = bisect_right(self.values, value)
        return self.size - (self.cumulative[index - 1] if index else 0)

    def matchpoints(self, value: float, *, member: bool = True) -> float:
        """A result's matchpoints in the field; ``member``: it is one of the field (not a reference)."""
        same = self.counts.get(value, 0) - (1 if member else 0)
        return self.below(value) + same / 2

    def percent(self, value: float, *, member: bool = True) -> float | None:
        others = self.size - (1 if member else 0)
        return round(100 * self.matchpoints(value, member=member) / others, 1) if others > 0 else None

    def rank(self, value: float) -> int:
        return self.above(value) + 1
