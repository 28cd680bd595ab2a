"""Redeal by agreement (a Femkort table option): before the first card, everyone must agree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..game import InvalidDeal
from .deal import DealState


@dataclass(frozen=True, slots=True)
class RedealPoll:
    """One request for new cards; the requester agrees by asking. One "no" ends it."""

    seats: tuple[int, ...]
    agreed: frozenset[int]
    declined: bool = False
    asker: int | None = None

    @property
    def voter(self) -> int | None:
        """Who answers next: the seats after the asker in clockwise order, each once."""
        if self.outcome is not None or self.asker is None:
            return None
        start = self.seats.index(self.asker)
        order = [*self.seats[start + 1 :], *self.seats[:start]]
        return next(seat for seat in order if seat not in self.agreed)

    @classmethod
    def ask(cls, deal: DealState, seat: int) -> RedealPoll:
        if not getattr(deal.options, "redeal", False):
            raise InvalidDeal("this table does not allow a redeal")
        if deal.plays:
            raise InvalidDeal("a redeal can only be asked for before the first card is played")
        if seat not in deal.seats:
            raise InvalidDeal(f"seat {seat} is not in this deal")
        return cls(seats=deal.seats, agreed=frozenset({seat}), asker=seat)

    def answer(self, seat: int, agree: bool) -> RedealPoll:
        if self.outcome is not None:
            raise InvalidDeal("this redeal request is already decided")
        if seat not in self.seats or seat in self.agreed:
            raise InvalidDeal(f"seat {seat} cannot answer this request")
        if not agree:
            return RedealPoll(self.seats, self.agreed, declined=True, asker=self.asker)
        return RedealPoll(self.seats, self.agreed | {seat}, asker=self.asker)

    @property
    def outcome(self) -> Literal["redeal", "declined"] | None:
        """``redeal``: the same dealer shuffles and deals again; ``declined``: play goes on."""
        if self.declined:
            return "declined"
        if self.agreed == set(self.seats):
            return "redeal"
        return None
