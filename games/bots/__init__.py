"""Computer players: pure Python, no Django. A seat's computer sees only that seat's ``View``.

``seat_player(game, level)`` is the one way in: a game names the players that play it
(``Game.computer_players``): the trick library's own (``games.bots.tricks``), or the generic
ones (``generic``), which play through the game protocol alone. Levels: ``easy``
plays a random legal action, ``medium`` and ``strong`` look ahead, more or less far.
"""

from __future__ import annotations

import logging
import random
from typing import Protocol

from games.engine import get_game
from games.engine.game import View

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("easy", "medium", "strong")


class SeatPlayer(Protocol):
    def choose(self, view: View) -> str: ...


def seat_player(game: str, kind: str, rng: random.Random | None = None) -> SeatPlayer:
    """A computer for a seat of ``game`` at level ``kind``: the game's own, or the generic one."""
    if kind not in LEVELS:
        raise ValueError(f"unknown computer player {kind!r}; known: {', '.join(LEVELS)}")
    rng = rng or random.SystemRandom()
    if get_game(game).computer_players == "tricks":
        from .tricks import TrickSeat, computer_player

        return TrickSeat(computer_player(kind, rng))
    from .generic import generic_player

    return generic_player(kind, rng, game)


def decide(kind: str, view: View, rng: random.Random | None = None, beginner_partner: bool = False) -> str:
    """One decision (by default with a fresh system-random source): what a worker process runs
    for the live site. It always answers with a legal action: a computer's mistake must never
    stall a table. ``beginner_partner``: it plays as partner to a beginner (``partners.for_beginner``)."""
    rng = rng or random.SystemRandom()
    try:
        action = seat_player(view.game, kind, rng).choose(view)
        if beginner_partner:
            from .partners import for_beginner

            action = for_beginner(view, action, rng, kind)
        return action
    except Exception:
        log.exception("computer player %s failed at %s; playing a random legal action", kind, view.game)
        from .generic import legal

        actions = legal(view)
        if beginner_partner:  # not even by mistake does it go alone for a beginner
            actions = [action for action in actions if action not in get_game(view.game).bold_calls] or actions
        return random.Random(repr(actions)).choice(actions)
