"""A finished deal's review, decision by decision, through the game protocol alone.

At each decision a seat had (two or more legal actions) it says what was chosen and:

- for a card, what an open-hand search chooses: every card visible, the seat's side making the
  most of the game's own value for the seat and the other seats the least (alpha-beta with a
  transposition table; paranoid, so "best" means best against any defence). Each line is
  searched within a node budget; a position too large for it says so rather than guess;
- for every decision, what the strong computer player chooses from the seat's own view, and how
  sure it is: the share of sampled worlds (hidden cards dealt anew where the seat cannot see
  them, ``Game.resample``) in which that choice is among the best. A world is searched open-hand
  when it fits a small budget, else played out by the game's rule of thumb (or at random).

A choice is a **mistake** when it was among the best in under a quarter of the seat's own
worlds, or when with every card visible it cost the deal (its value is below the best card's)
and it was among the best in under half of the worlds; an **inaccuracy** when it was among the
best in under half of the worlds and on average worse there than the strong player's choice.
The strong player's own choice is never marked. So a choice that only hindsight condemns is never marked.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from games.engine import get_game
from games.engine.game import Game, State

from . import decide

OPEN_NODES = 40_000  # per decision of the true deal
WORLD_NODES = 2_000  # per sampled world
WORLDS = 8
PLAYOUTS = 3  # per action in a world too large to search, when the game has no rule of thumb
MOVES_PER_PLAYOUT = 400


class TooLarge(Exception):
    """The position has more lines than the budget allows: no open-hand answer for it."""


@dataclass(frozen=True)
class OpenHand:
    """What every card visible says of the decision: each action's value and who wins after it."""

    values: dict[str, float]
    winners: dict[str, list[int]]  # after the best and the chosen action, played on best
    best: list[str]


@dataclass(frozen=True)
class Decision:
    index: int  # the action's place in the deal (0-based)
    seat: int
    played: str
    card: bool  # a card played (else a bid, a call, a discard ...)
    strong: str  # the strong computer player's choice from the seat's own view
    shares: dict[str, float]  # per action, the share of sampled worlds in which it is among the best
    means: dict[str, float]  # per action, its mean value over those worlds
    open: OpenHand | None = None  # cards only, and only when it fits the budget
    mark: str = ""  # "", "inaccuracy" or "mistake"

    @property
    def costly(self) -> bool:
        """With every card visible, the chosen card gives up part of the deal's result."""
        return self.open is not None and self.open.values[self.played] < max(self.open.values.values())


@dataclass
class Review:
    decisions: list[Decision] = field(default_factory=list)
    nodes: int = 0

    def to_record(self) -> list[dict[str, Any]]:
        return [asdict(decision) for decision in self.decisions]


def review_record(
    game_name: str,
    options: Mapping[str, Any],
    setup: Mapping[str, Any],
    actions: Sequence[tuple[int, str]],
    scores: tuple[int, ...],
    seed: int,
) -> tuple[list[dict[str, Any]], float]:
    """A deal's review as stored, and the seconds it took (plain values: it runs in a worker process)."""
    began = time.perf_counter()
    review = review_deal(game_name, options, setup, actions, scores=scores, seed=seed)
    return review.to_record(), time.perf_counter() - began


def review_deal(
    game_name: str,
    options: Mapping[str, Any],
    setup: Mapping[str, Any],
    actions: Sequence[tuple[int, str]],
    *,
    scores: tuple[int, ...] = (),
    seed: int = 0,
    worlds: int = WORLDS,
) -> Review:
    """Review every decision of a finished deal (its setup and its (seat, action) pairs, in order).

    Seeded, so a deal's review is the same whenever and wherever it is computed."""
    game = get_game(game_name)
    parsed = game.parse_options(dict(options))
    rng = random.Random(seed)
    state = game.start(setup)
    review = Review()
    for index, (seat, action) in enumerate(actions):
        legal = state.legal_actions() if state.to_act == seat else []
        if len(legal) > 1 and action in legal:
            review.decisions.append(_decision(game, parsed, state, index, seat, action, scores, rng, worlds))
        state = state.apply(action, seat=seat)
    return review


def _decision(
    game: Game,
    options: Any,
    state: State,
    index: int,
    seat: int,
    played: str,
    scores: tuple[int, ...],
    rng: random.Random,
    worlds: int,
) -> Decision:
    view = state.view(seat, scores)
    side = frozenset(game.partners(seat, view.players, options))
    legal = sorted(state.legal_actions())
    card = played in view.playable
    strong = decide("strong", view, random.Random(rng.random()))
    shares, means = world_values(game, view, seat, side, legal, rng, worlds)
    open_hand = _open_hand(state, seat, side, legal, played) if card else None
    decision = Decision(index, seat, played, card, strong, shares, means, open_hand)
    return replace(decision, mark=mark_of(decision))


def mark_of(decision: Decision) -> str:
    if decision.played == decision.strong:
        return ""  # the strong player's own choice is never held against anyone
    share = decision.shares.get(decision.played, 1.0)
    if share < 0.25 or (decision.costly and share < 0.5):
        return "mistake"
    if share < 0.5 and decision.means.get(decision.played, 0.0) < decision.means.get(decision.strong, 0.0):
        return "inaccuracy"
    return ""


def world_values(
    game: Game,
    view: Any,
    seat: int,
    side: frozenset[int],
    legal: list[str],
    rng: random.Random,
    count: int,
    played_out: Callable[[Game, State, int, random.Random], float] | None = None,
) -> tuple[dict[str, float], dict[str, float]]:
    """Each action's share of worlds in which it is among the best, and its mean value there; a world
    too large to search is played out by ``played_out`` (by default the rule of thumb, or at random)."""
    played_out = played_out or played_out_by_rule
    among = dict.fromkeys(legal, 0)
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(count):
        world = game.resample(view, rng)
        try:
            values = Search(seat, side, WORLD_NODES).values(world, legal)
        except TooLarge:
            values = {action: played_out(game, world.apply(action, seat=seat), seat, rng) for action in legal}
        best = max(values.values())
        for action in legal:
            among[action] += values[action] >= best - 1e-9
            totals[action] += values[action]
    return (
        {action: round(among[action] / count, 3) for action in legal},
        {action: round(totals[action] / count, 3) for action in legal},
    )


def played_out_by_rule(game: Game, state: State, seat: int, rng: random.Random) -> float:
    runs = 1 if game.has_rule_of_thumb else PLAYOUTS
    total = 0.0
    for _ in range(runs):
        current = state
        for _ in range(MOVES_PER_PLAYOUT):
            if current.is_over:
                break
            if game.has_rule_of_thumb:
                current = current.apply(game.rule_of_thumb(current))
            else:
                current = current.apply(rng.choice(current.legal_actions()))
        total += current.outcome().values[seat] if current.is_over else 0.0
    return total / runs


def _open_hand(state: State, seat: int, side: frozenset[int], legal: list[str], played: str) -> OpenHand | None:
    search = Search(seat, side, OPEN_NODES)
    try:
        values = search.values(state, legal)
        top = max(values.values())
        best = [action for action in legal if values[action] == top]
        winners = {action: search.line_winners(state.apply(action, seat=seat)) for action in {best[0], played}}
    except TooLarge:
        return None
    return OpenHand(values, winners, best)


class Search:
    """Paranoid alpha-beta for ``seat``'s value with every card visible (``side`` maximises)."""

    def __init__(self, seat: int, side: frozenset[int], budget: int):
        self.seat = seat
        self.side = side
        self.budget = budget
        self.nodes = 0
        self.memo: dict[Any, tuple[float, float]] = {}

    def values(self, state: State, legal: Sequence[str]) -> dict[str, float]:
        return {action: self.value(state.apply(action, seat=self.seat)) for action in legal}

    def value(self, state: State, alpha: float = -math.inf, beta: float = math.inf) -> float:
        if state.is_over:
            return state.outcome().values[self.seat]
        low, high = self.memo.get(state, (-math.inf, math.inf))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        self.nodes += 1
        if self.nodes > self.budget:
            raise TooLarge
        window = alpha, beta
        mover = state.to_act
        maximising = mover in self.side
        best = -math.inf if maximising else math.inf
        for action in state.legal_actions():
            value = self.value(state.apply(action, seat=mover), alpha, beta)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        if best <= window[0]:
            high = min(high, best)
        elif best >= window[1]:
            low = max(low, best)
        else:
            low = high = best
        self.memo[state] = (low, high)
        return best

    def line_winners(self, state: State) -> list[int]:
        """Who wins the deal when, from ``state``, every seat plays as the search says."""
        while not state.is_over:
            mover = state.to_act
            target = self.value(state)
            for action in state.legal_actions():
                after = state.apply(action, seat=mover)
                if self.value(after) == target:
                    state = after
                    break
            else:  # no action reaches the value: a bound, not an exact one, was stored
                raise TooLarge
        return list(state.outcome().winners)
