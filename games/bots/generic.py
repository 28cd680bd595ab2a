"""Computer players for any game, through the game protocol alone: a new game has computers at
every level on its first day, before anyone writes rules of thumb for it.

``easy`` plays a random legal action. ``medium`` and ``strong`` are flat Monte Carlo players
over sampled worlds: the game's ``resample`` deals the cards this seat cannot see in a way it
cannot tell from the truth, each legal action is tried in each world, and the rest of the
deal is played out at random; the action whose worlds end best for the seat (the outcome's
value for it, the game's own currency) is played. Effort is counted in play-outs, not time,
so a seed repeats a game exactly.
"""

from __future__ import annotations

import random

from games.engine import get_game
from games.engine.game import State, View

MOVES_PER_PLAYOUT = 2000  # a play-out longer than this is a game that never ends: stop looking


class GenericRandom:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, view: View) -> str:
        return self.rng.choice(legal(view))


class GenericSampler:
    """Tries every legal action in ``worlds`` sampled worlds, ``playouts`` random play-outs each."""

    def __init__(self, rng: random.Random, *, worlds: int, playouts: int = 1):
        self.rng = rng
        self.worlds = worlds
        self.playouts = playouts

    def choose(self, view: View) -> str:
        actions = legal(view)
        if len(actions) == 1:
            return actions[0]
        game = get_game(view.game)
        seat = view.viewer
        totals = dict.fromkeys(actions, 0.0)
        for _ in range(self.worlds):
            world = game.resample(view, self.rng)
            for action in actions:
                after = world.apply(action, seat=seat)
                for _ in range(self.playouts):
                    totals[action] += self._play_out(after, seat)
        best = max(totals.values())
        return self.rng.choice([action for action in actions if totals[action] == best])

    def _play_out(self, state: State, seat: int) -> float:
        for _ in range(MOVES_PER_PLAYOUT):
            if state.is_over:
                return state.outcome().values[seat]
            state = state.apply(self.rng.choice(state.legal_actions()))
        return 0.0


def legal(view: View) -> list[str]:
    """What the seat may do now, leaving out what it may ask beside its hand on its turn (new
    cards): a computer plays the cards it was dealt."""
    cards = sorted(view.playable)
    if cards:
        return cards + [choice.action for choice in view.choices if not choice.with_hand]
    return [choice.action for choice in view.choices]


def generic_player(kind: str, rng: random.Random) -> GenericRandom | GenericSampler:
    if kind == "easy":
        return GenericRandom(rng)
    if kind == "medium":
        return GenericSampler(rng, worlds=8)
    return GenericSampler(rng, worlds=24, playouts=2)
