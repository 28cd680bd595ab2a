"""Computer players: pure Python, no Django. Each one sees only a ``SeatView`` and returns a card.

Levels: ``easy`` plays a random legal card, ``medium`` follows rules of thumb,
``strong`` samples the hidden hands from what it can infer and searches them.
"""

from __future__ import annotations

import random
from typing import Protocol

from games.engine.cards import Card
from games.engine.views import SeatView


class ComputerPlayer(Protocol):
    def choose(self, view: SeatView) -> Card: ...


class RandomPlayer:
    """Plays a random legal card."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.SystemRandom()

    def choose(self, view: SeatView) -> Card:
        return self.rng.choice(view.legal)


def _levels() -> dict[str, type]:
    from .medium import MediumPlayer
    from .strong import StrongPlayer

    return {"easy": RandomPlayer, "medium": MediumPlayer, "strong": StrongPlayer}


LEVELS: tuple[str, ...] = ("easy", "medium", "strong")


def computer_player(kind: str, rng: random.Random | None = None) -> ComputerPlayer:
    levels = _levels()
    if kind not in levels:
        raise ValueError(f"unknown computer player {kind!r}; known: {', '.join(LEVELS)}")
    return levels[kind](rng)


def decide(kind: str, view: SeatView) -> Card:
    """One decision with a fresh system-random source: what a worker process runs for the live site."""
    return computer_player(kind, random.SystemRandom()).choose(view)
