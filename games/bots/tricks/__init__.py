"""The trick games' own computer players: they read the trick library's view (``SeatView``, a
protocol view's ``detail``) and return a card or an action word.

Levels: ``easy`` plays a random legal card, ``medium`` follows rules of thumb, ``strong``
samples the hidden hands from what it can infer and searches them. Games whose score counts
tricks against a contract (``bots_count_tricks``: Nap, Euchre) are played by ``counting``,
through the game's hooks; the last-trick games (Femkort, Letzter Stich) by the rest.
"""

from __future__ import annotations

import logging
import random
from typing import Protocol

from games.engine import get_game
from games.engine.cards import RANKS, Card
from games.engine.game import View
from games.engine.tricks.deal import REDEAL_NO, REDEAL_YES
from games.engine.tricks.seat_view import SeatView

from .. import LEVELS

log = logging.getLogger(__name__)


class ComputerPlayer(Protocol):
    def choose(self, view: SeatView) -> Card: ...


class RandomPlayer:
    """Plays a random legal card."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.SystemRandom()

    def choose(self, view: SeatView) -> Card:
        return self.rng.choice(view.legal or view.actions)  # actions: a bid, call or discard


def _levels() -> dict[str, type]:
    from .medium import MediumPlayer
    from .strong import StrongPlayer

    return {"easy": RandomPlayer, "medium": MediumPlayer, "strong": StrongPlayer}


def computer_player(kind: str, rng: random.Random | None = None) -> ComputerPlayer:
    levels = _levels()
    if kind not in levels:
        raise ValueError(f"unknown computer player {kind!r}; known: {', '.join(LEVELS)}")
    return levels[kind](rng)


class TrickSeat:
    """A trick game's own player at a seat: it reads the trick library's view (``View.detail``)."""

    def __init__(self, player: ComputerPlayer):
        self.player = player

    def choose(self, view: View) -> str:
        return act(self.player, view.detail)


def act(player: ComputerPlayer, view: SeatView) -> str:
    """A computer's action: its answer when someone asks for new cards, else its card."""
    if REDEAL_NO in view.actions:
        return vote(view)
    try:
        return player.choose(view)
    except Exception:  # a computer's mistake must never stall a table: any legal action will do
        log.exception("computer player %s failed; playing a random legal action", type(player).__name__)
        return random.Random(repr(view)).choice(view.legal or [a for a in view.actions if a != REDEAL_YES])


def vote(view: SeatView) -> str:
    """Agree to new cards with a hand unlikely to get what the seat wants, else refuse.

    A weak hand for taking the last trick holds nothing above a ten; for avoiding it, nothing
    below a ten. (Computers answer requests; they never ask.)
    """
    ranks = [RANKS.index(card[0]) for card in view.hand]
    weak = max(ranks) <= RANKS.index("T") if get_game(view.game).wants_last_trick else min(ranks) >= RANKS.index("T")
    return REDEAL_YES if weak else REDEAL_NO
