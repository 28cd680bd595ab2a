"""Measuring strength: one hero against a field, over many seeded deals, every seat in turn."""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

from games.engine import get_game
from games.engine.views import view_for

from . import ComputerPlayer, computer_player
from .protocol import ExternalPlayer


@dataclass
class ArenaResult:
    game: str
    hero: str
    field: str
    players: int
    deals: int
    score: float  # Femkort: deals won; Letzter Stich: tokens lost
    decision_seconds: list[float] = field(default_factory=list)
    faults: int = 0

    @property
    def stich(self) -> bool:
        """The hero's score counts losses (a game whose seats avoid the last trick)."""
        return not get_game(self.game).wants_last_trick

    @property
    def rate(self) -> float:
        return self.score / self.deals

    @property
    def ci95(self) -> tuple[float, float]:
        """Normal approximation; per deal the outcome is 0 or 1 here (Letzter Stich slams pay nothing)."""
        p = self.rate
        half = 1.96 * sqrt(max(p * (1 - p), 0.0) / self.deals)
        return p - half, p + half

    @property
    def fair_share(self) -> float:
        return 1 / self.players

    def as_json(self) -> dict[str, Any]:
        ms = sorted(s * 1000 for s in self.decision_seconds) or [0.0]
        lo, hi = self.ci95
        key = "hero_tokens_lost_per_deal" if self.stich else "hero_win_rate"
        return {
            "game": self.game,
            "hero": self.hero,
            "field": self.field,
            "deals": self.deals,
            key: round(self.rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "fair_share": round(self.fair_share, 4),
            "multiple": round(self.rate / self.fair_share, 3),
            "decision_ms": {
                "p50": round(statistics.median(ms), 2),
                "p95": round(ms[int(0.95 * (len(ms) - 1))], 2),
                "max": round(ms[-1], 2),
            },
            "faults": self.faults,
        }

    def report(self) -> str:
        data = self.as_json()
        lo, hi = data["ci95"]
        what = "tokens lost per deal" if self.stich else "deal-win rate"
        ms = data["decision_ms"]
        return "\n".join(
            [
                f"{self.game}, {self.players} players, {self.deals} deals: hero {self.hero} vs field {self.field}",
                f"hero {what}: {self.rate:.4f} (95% CI {lo:.4f} to {hi:.4f})",
                f"fair share: {self.fair_share:.4f}; hero at {data['multiple']:.3f}x the fair share"
                f" (CI {lo / self.fair_share:.3f}x to {hi / self.fair_share:.3f}x)",
                f"hero decision time: median {ms['p50']:.2f} ms, p95 {ms['p95']:.2f} ms, max {ms['max']:.2f} ms",
                f"faults: {self.faults}",
            ]
        )


def make_player(spec: str, *, rng: random.Random, timeout: float) -> ComputerPlayer:
    if spec.startswith("cmd:"):
        return ExternalPlayer(spec[4:], timeout=timeout, rng=rng)
    return computer_player(spec, rng)


def run_arena(
    *,
    game: str,
    players: int,
    deals: int,
    seed: int,
    hero: str,
    field: str,
    options: dict | None = None,
    timeout: float = 5.0,
) -> ArenaResult:
    rules = get_game(game)
    parsed = rules.parse_options(options or {})
    heroes = [make_player(hero, rng=random.Random(f"{seed}:hero:{seat}"), timeout=timeout) for seat in range(players)]
    fields = [make_player(field, rng=random.Random(f"{seed}:field:{seat}"), timeout=timeout) for seat in range(players)]
    result = ArenaResult(game=game, hero=hero, field=field, players=players, deals=deals, score=0)
    try:
        for number in range(deals):
            hero_seat = number % players
            dealer = (number // players) % players
            seated = [heroes[s] if s == hero_seat else fields[s] for s in range(players)]
            state = rules.deal(
                players=players, dealer=dealer, options=parsed, rng=random.Random(f"{seed}:deal:{number}")
            )
            while not state.is_over:
                seat = state.to_act
                view = view_for(state, seat, (0,) * players)
                started = time.perf_counter()
                card = seated[seat].choose(view)
                if seat == hero_seat:
                    result.decision_seconds.append(time.perf_counter() - started)
                state = state.apply(card)
            result.score += rules.deal_score(state, hero_seat)
    finally:
        for player in [*heroes, *fields]:
            if isinstance(player, ExternalPlayer):
                result.faults += player.faults
                player.close()
    return result
