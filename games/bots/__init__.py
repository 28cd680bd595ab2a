"""Computer players: pure Python, no Django. Each one sees only a ``SeatView`` and returns a card."""

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


LEVELS: dict[str, type] = {"easy": RandomPlayer}


def computer_player(kind: str, rng: random.Random | None = None) -> ComputerPlayer:
    try:
        return LEVELS[kind](rng)
    except KeyError:
        raise ValueError(f"unknown computer player {kind!r}; known: {', '.join(LEVELS)}") from None
