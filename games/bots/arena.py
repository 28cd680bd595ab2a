"""Measuring strength: one hero against a field, over many seeded deals, every seat in turn.

In a partnership game (``partners``: Euchre) the hero takes both seats of one partnership
and the field the other; the hero's partnership changes every deal. Deals thrown in (every
seat passed) are not counted in the rate. Besides the rate of deals won, the arena keeps
the hero's value per deal in the game's own currency (``bot_value``: chips, points less
the other side's; 0 when the field plays itself, by symmetry) and the hero's share of the
deals' wins with ties split: each played deal is won by the seats whose value is highest
(Nap: a bidder who made it alone, or the others together when it failed), the hero gets
its part of them, and the fair share is the hero's seats over all seats. That is the
measure for games such as Nap, where several seats may win one deal.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field, replace
from math import sqrt
from typing import Any

from games.engine import get_game

from . import SeatPlayer, seat_player
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
    partners: int = 1  # seats the hero plays (a partnership)
    thrown_in: int = 0  # deals nobody played (not counted in the rate)
    values: list[float] = field(default_factory=list)  # the hero's bot_value, per deal
    shares: list[float] = field(default_factory=list)  # the hero's part of each played deal's wins
    shared: int = 0  # played deals won by more seats than one side (Nap: a failed bid)
    sessions_won: list[float] = field(default_factory=list)  # per whole session: the hero's part of its winners
    points: list[float] = field(default_factory=list)  # per played deal of a session: the hero's side's score gained
    side_points: list[float] = field(default_factory=list)  # per played deal: the hero's gain less a field side's

    @property
    def counts_losses(self) -> bool:
        """The hero's score counts losses (a game whose seats avoid the last trick)."""
        return get_game(self.game).score_counts_losses

    @property
    def counted(self) -> int:
        return max(self.deals - self.thrown_in, 1)

    @property
    def rate(self) -> float:
        return self.score / self.counted

    @property
    def ci95(self) -> tuple[float, float]:
        """Normal approximation; per deal the outcome is 0 or 1 here (Letzter Stich slams pay nothing)."""
        p = self.rate
        half = 1.96 * sqrt(max(p * (1 - p), 0.0) / self.counted)
        return p - half, p + half

    @property
    def fair_share(self) -> float:
        return self.partners / self.players

    @property
    def value(self) -> tuple[float, float, float]:
        """The hero's mean value per deal, with a 95% confidence interval."""
        n = max(len(self.values), 1)
        mean = sum(self.values) / n
        spread = sqrt(sum((v - mean) ** 2 for v in self.values) / max(n - 1, 1) / n)
        return mean, mean - 1.96 * spread, mean + 1.96 * spread

    @property
    def split_share(self) -> tuple[float, float, float]:
        """The hero's mean part of the deals' wins (ties split), with a 95% confidence interval."""
        n = max(len(self.shares), 1)
        mean = sum(self.shares) / n
        spread = sqrt(sum((v - mean) ** 2 for v in self.shares) / max(n - 1, 1) / n)
        return mean, mean - 1.96 * spread, mean + 1.96 * spread

    def as_json(self) -> dict[str, Any]:
        ms = sorted(s * 1000 for s in self.decision_seconds) or [0.0]
        lo, hi = self.ci95
        key = "hero_tokens_lost_per_deal" if self.counts_losses else "hero_win_rate"
        return (
            {
                "game": self.game,
                "hero": self.hero,
                "field": self.field,
                "deals": self.deals,
                key: round(self.rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "fair_share": round(self.fair_share, 4),
                # with deals won by several seats the rate is no share: read split_multiple instead
                "multiple": round(self.rate / self.fair_share, 3) if self.counts_losses or not self.shared else None,
                "decision_ms": {
                    "p50": round(statistics.median(ms), 2),
                    "p95": round(ms[int(0.95 * (len(ms) - 1))], 2),
                    "max": round(ms[-1], 2),
                },
                "faults": self.faults,
            }
            | self._value_json()
            | self._session_json()
        )

    def _session_json(self) -> dict[str, Any]:
        if not self.sessions_won:
            return {}
        rate, low, high = _mean_ci(self.sessions_won)
        fair = self.fair_share
        points, points_low, points_high = _mean_ci(self.points)
        ahead, ahead_low, ahead_high = _mean_ci(self.side_points)
        return {
            "session_points_per_deal": round(points, 4),
            "session_points_ci95": [round(points_low, 4), round(points_high, 4)],
            "points_ahead_per_deal": round(ahead, 4),
            "points_ahead_ci95": [round(ahead_low, 4), round(ahead_high, 4)],
            "sessions": len(self.sessions_won),
            "sessions_won": round(rate, 4),
            "sessions_won_ci95": [round(low, 4), round(high, 4)],
            "sessions_multiple": round(rate / fair, 3),
            "sessions_multiple_ci95": [round(low / fair, 3), round(high / fair, 3)],
        }

    def _value_json(self) -> dict[str, Any]:
        if not self.values:
            return {}
        value, low, high = self.value
        share, share_low, share_high = self.split_share
        return {
            "thrown_in": self.thrown_in,
            "hero_value_per_deal": round(value, 4),
            "value_ci95": [round(low, 4), round(high, 4)],
            "split_share": round(share, 4),
            "split_share_ci95": [round(share_low, 4), round(share_high, 4)],
            "split_multiple": round(share / self.fair_share, 3),
            "split_multiple_ci95": [round(share_low / self.fair_share, 3), round(share_high / self.fair_share, 3)],
        }

    def report(self) -> str:
        data = self.as_json()
        lo, hi = data["ci95"]
        what = "tokens lost per deal" if self.counts_losses else "deal-win rate"
        ms = data["decision_ms"]
        return "\n".join(
            [
                f"{self.game}, {self.players} players, {self.deals} deals: hero {self.hero} vs field {self.field}",
                f"hero {what}: {self.rate:.4f} (95% CI {lo:.4f} to {hi:.4f})",
                f"fair share: {self.fair_share:.4f}; hero at {data['multiple']:.3f}x the fair share"
                f" (CI {lo / self.fair_share:.3f}x to {hi / self.fair_share:.3f}x)"
                if data["multiple"] is not None
                else f"{self.shared} deals were won by several seats: read the share of the deals' wins below",
                f"hero decision time: median {ms['p50']:.2f} ms, p95 {ms['p95']:.2f} ms, max {ms['max']:.2f} ms",
                f"faults: {self.faults}",
                *self._value_lines(data),
                *self._session_lines(data),
            ]
        )

    def _value_lines(self, data: dict[str, Any]) -> list[str]:
        if "hero_value_per_deal" not in data:
            return []
        low, high = data["value_ci95"]
        share_low, share_high = data["split_share_ci95"]
        multiple_low, multiple_high = data["split_multiple_ci95"]
        return [
            f"deals thrown in (not counted): {self.thrown_in}",
            f"hero value per deal (the game's chips or points): {data['hero_value_per_deal']:.4f}"
            f" (95% CI {low:.4f} to {high:.4f}; the field against itself gets 0)",
            f"hero share of the deals' wins, ties split: {data['split_share']:.4f} (95% CI {share_low:.4f} to"
            f" {share_high:.4f}): {data['split_multiple']:.3f}x the fair share (CI {multiple_low:.3f}x to"
            f" {multiple_high:.3f}x)",
        ]

    def _session_lines(self, data: dict[str, Any]) -> list[str]:
        if "sessions" not in data:
            return []
        low, high = data["sessions_won_ci95"]
        m_low, m_high = data["sessions_multiple_ci95"]
        p_low, p_high = data["session_points_ci95"]
        a_low, a_high = data["points_ahead_ci95"]
        return [
            f"hero's score gained per played deal: {data['session_points_per_deal']:.4f} (95% CI {p_low:.4f} to"
            f" {p_high:.4f}), ahead of a field side's by {data['points_ahead_per_deal']:.4f} (CI {a_low:.4f} to"
            f" {a_high:.4f})",
            f"whole sessions: {data['sessions']}; hero won {data['sessions_won']:.4f} of them (95% CI {low:.4f} to"
            f" {high:.4f}): {data['sessions_multiple']:.3f}x the fair share (CI {m_low:.3f}x to {m_high:.3f}x)",
        ]


def make_player(spec: str, *, game: str, rng: random.Random, timeout: float) -> SeatPlayer:
    if spec.startswith("cmd:"):
        return ExternalPlayer(spec[4:], timeout=timeout, rng=rng)
    return seat_player(game, spec, rng)


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
    sessions: bool = False,
) -> ArenaResult:
    """The game is driven through the game protocol alone: its setup, states, views and outcomes.
    With ``sessions``, whole sessions are played (each from its first deal, the scores carried
    from deal to deal) until at least ``deals`` deals were, and the sessions won are counted too."""
    rules = get_game(game)
    parsed = rules.parse_options(options or {})
    heroes = [
        make_player(hero, game=game, rng=random.Random(f"{seed}:hero:{seat}"), timeout=timeout)
        for seat in range(players)
    ]
    fields = [
        make_player(field, game=game, rng=random.Random(f"{seed}:field:{seat}"), timeout=timeout)
        for seat in range(players)
    ]
    result = ArenaResult(game=game, hero=hero, field=field, players=players, deals=deals, score=0)
    result.partners = len(rules.partners(0, players, parsed))
    match = rules.new_match(players=players, options=parsed, rng=random.Random(f"{seed}:match"))
    try:
        if sessions:
            _play_sessions(result, rules, parsed, heroes, fields, seed)
            return result
        for number in range(deals):
            hero_seat = number % players
            hero_seats = rules.partners(hero_seat, players, parsed)
            dealer = (number // players) % players
            seated = [heroes[s] if s in hero_seats else fields[s] for s in range(players)]
            setup = rules.setup(replace(match, dealer=dealer), random.Random(f"{seed}:deal:{number}"))
            state = _play(rules.start(setup), seated, hero_seats, result)
            _count_deal(result, rules, state, hero_seat, hero_seats)
    finally:
        for player in [*heroes, *fields]:
            if isinstance(player, ExternalPlayer):
                result.faults += player.faults
                player.close()
    return result


def _play(state: Any, seated: list[SeatPlayer], hero_seats: tuple[int, ...], result: ArenaResult) -> Any:
    """One deal to its end, each seat choosing from its own view; the hero's thinking timed."""
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        started = time.perf_counter()
        action = seated[seat].choose(view)
        if seat in hero_seats:
            result.decision_seconds.append(time.perf_counter() - started)
        state = state.apply(action, seat=seat)
    return state


def _count_deal(result: ArenaResult, rules: Any, state: Any, hero_seat: int, hero_seats: tuple[int, ...]) -> None:
    outcome = state.outcome()
    if outcome.thrown_in or outcome.again:
        result.thrown_in += 1
        return
    result.score += rules.deal_score(state, hero_seat)
    if not rules.deal_values:
        return  # won or lost, nothing more: the rate above says it all
    result.values.append(outcome.values[hero_seat])
    values = outcome.values
    top = [seat for seat in range(len(values)) if values[seat] == max(values)]
    result.shares.append(sum(seat in hero_seats for seat in top) / len(top))
    result.shared += len(top) > result.partners


def _play_sessions(
    result: ArenaResult, rules: Any, options: Any, heroes: list[SeatPlayer], fields: list[SeatPlayer], seed: int
) -> None:
    """Whole sessions, the hero in each seat in turn (its partnership with it), the first dealer
    drawn by the session's seed, until ``result.deals`` deals were played."""
    players = result.players
    played = number = 0
    while played < result.deals:
        hero_seat = number % players
        hero_seats = rules.partners(hero_seat, players, options)
        seated = [heroes[s] if s in hero_seats else fields[s] for s in range(players)]
        match = rules.new_match(players=players, options=options, rng=random.Random(f"{seed}:session:{number}"))
        deal = 0
        sides = rules.sides(players, options)
        while not match.finished:
            state = _play(match.deal(random.Random(f"{seed}:session:{number}:{deal}")), seated, hero_seats, result)
            _count_deal(result, rules, state, hero_seat, hero_seats)
            before = match.scores
            match = match.settle(state)
            deal += 1
            if not state.outcome().thrown_in:  # the session's own score: points, chips, deals won
                others = [match.scores[side[0]] - before[side[0]] for side in sides if hero_seat not in side]
                result.points.append(match.scores[hero_seat] - before[hero_seat])
                result.side_points.append(result.points[-1] - sum(others) / len(others))
        played += deal
        winners = set(match.winners)
        result.sessions_won.append(len(winners & set(hero_seats)) / len(winners) if winners else 0.0)
        number += 1
    result.deals = played


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
    """The mean with a 95% confidence interval (normal approximation)."""
    n = max(len(values), 1)
    mean = sum(values) / n
    spread = sqrt(sum((v - mean) ** 2 for v in values) / max(n - 1, 1) / n)
    return mean, mean - 1.96 * spread, mean + 1.96 * spread
