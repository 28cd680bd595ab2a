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
from games.engine.game import Game, State, View

from .partners import COURTESY, courteous_best

MOVES_PER_PLAYOUT = 2000  # a play-out longer than this is a game that never ends: stop looking


class GenericRandom:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, view: View) -> str:
        return self.rng.choice(legal(view))


class GenericThumb:
    """Follows the game's rule of thumb, on a world sampled from the view (the rule reads only the
    seat's own hand and what is public, the same in every world the seat cannot tell apart)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, view: View) -> str:
        actions = legal(view)
        if len(actions) == 1:
            return actions[0]
        game = get_game(view.game)
        return game.rule_of_thumb(game.resample(view, self.rng))


class GenericSampler:
    """Tries every legal action in ``worlds`` sampled worlds, ``playouts`` play-outs each: random,
    or with every seat following the game's rule of thumb (``thumb``)."""

    def __init__(self, rng: random.Random, *, worlds: int, playouts: int = 1, thumb: bool = False):
        self.rng = rng
        self.worlds = worlds
        self.playouts = playouts
        self.thumb = thumb

    def choose(self, view: View) -> str:
        actions = legal(view)
        if len(actions) == 1:
            return actions[0]
        game = get_game(view.game)
        if self.thumb and game.thumb_decides(view):
            return game.rule_of_thumb(game.resample(view, self.rng))
        seat = view.viewer
        totals = dict.fromkeys(actions, 0.0)
        for _ in range(self.worlds):
            world = game.resample(view, self.rng)
            for action in actions:
                after = world.apply(action, seat=seat)
                for _ in range(self.playouts):
                    totals[action] += self._play_out(after, seat, game)
        best = max(totals.values())
        ties = [action for action in actions if totals[action] == best]
        self.rng.shuffle(ties)
        # A near-tie goes to the card a partner would rather see (partners.py): no overtaking, no lead into a void.
        courtesy = COURTESY * game.call_margin * self.worlds * self.playouts
        return courteous_best(world, seat, {action: totals[action] for action in ties + actions}, courtesy)

    def _play_out(self, state: State, seat: int, game: Game) -> float:
        for _ in range(MOVES_PER_PLAYOUT):
            if state.is_over:
                return state.outcome().values[seat]
            if self.thumb:
                state = state.apply(game.rule_of_thumb(state))
            else:
                state = state.apply(self.rng.choice(state.legal_actions()))
        return 0.0


def legal(view: View) -> list[str]:
    """What the seat may do now, leaving out what it may ask beside its hand on its turn (new
    cards): a computer plays the cards it was dealt."""
    cards = sorted(view.playable)
    if cards:
        return cards + [choice.action for choice in view.choices if not choice.with_hand]
    return [choice.action for choice in view.choices]


def generic_player(kind: str, rng: random.Random, game: str) -> GenericRandom | GenericThumb | GenericSampler:
    if kind == "easy":
        return GenericRandom(rng)
    rules = get_game(game)
    if rules.has_rule_of_thumb:
        worlds = rules.thumb_worlds or THUMB_WORLDS
        return GenericThumb(rng) if kind == "medium" else GenericSampler(rng, worlds=worlds, thumb=True)
    if kind == "medium":
        return GenericSampler(rng, worlds=8)
    return GenericSampler(rng, worlds=24, playouts=2)


THUMB_WORLDS = 12  # worlds per action for the strong player that plays out by the rule of thumb
