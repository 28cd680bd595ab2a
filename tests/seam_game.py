"""A game that exists only for the tests: proof that a new game is one module.

"Three Crowns": three players, nine cards (queens, kings and aces of three suits), three
cards each in one packet; follow suit, no overtaking, no trump; the last trick wins the
deal, and the first to ``target`` deals wins the session. Nothing outside this file knows
it: the test registers it, and the site, the live tables, the history pages, the exports
and the arena take it from the registry.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engine.game import Count, InvalidDeal, Text
from games.engine.options import Option
from games.engine.tricks.deal import DealState, TrickGame


@dataclass(frozen=True, slots=True)
class CrownsOptions:
    target: int = 2

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        return {"target": self.target}


class ThreeCrowns(TrickGame):
    name = "three-crowns"
    title = "Three Crowns"
    summary = "Three cards each, the last trick wins."
    min_players = 3
    max_players = 3
    packets = (3,)
    options_schema = (Option("target", "number", 2, "Deals to win", "First to this many deals wins.", low=1, high=5),)

    def parse_options(self, raw: Mapping[str, Any] | None) -> CrownsOptions:
        target = dict(raw or {}).get("target", 2)
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 5:
            raise InvalidDeal("target must be a whole number from 1 to 5")
        return CrownsOptions(target=target)

    def deck(self, players: int) -> tuple[str, ...]:
        return tuple(rank + suit for suit in "SHD" for rank in "QKA")

    def describe(self, options: CrownsOptions) -> tuple[Text, ...]:
        return (Text("first to %(target)d deals", (("target", options.target),)),)

    def seat_scores(self, match: CrownsMatch, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        return (Count(match.wins[seat], "%(count)d crown", "%(count)d crowns"),)

    def new_match(self, *, players: int, options: CrownsOptions, rng: random.Random) -> CrownsMatch:
        return CrownsMatch(players=players, options=options, dealer=rng.randrange(players), wins=(0,) * players)

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: CrownsOptions) -> CrownsMatch:
        return CrownsMatch(players=players, options=options, dealer=record["dealer"], wins=tuple(record["wins"]))


@dataclass(frozen=True, slots=True)
class CrownsMatch:
    players: int
    options: CrownsOptions
    dealer: int
    wins: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return max(self.wins) >= self.options.target

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, wins in enumerate(self.wins) if wins >= self.options.target)

    @property
    def scores(self) -> tuple[int, ...]:
        return self.wins

    def deal(self, rng: random.Random) -> DealState:
        return THREE_CROWNS.deal(players=self.players, dealer=self.dealer, options=self.options, rng=rng)

    def settle(self, deal: DealState) -> CrownsMatch:
        wins = tuple(w + (seat == deal.winner) for seat, w in enumerate(self.wins))
        return replace(self, wins=wins, dealer=(self.dealer + 1) % self.players)

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "wins": list(self.wins)}


THREE_CROWNS = ThreeCrowns()
