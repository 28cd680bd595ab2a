"""The open bot protocol: any program that reads JSON lines on stdin and writes JSON lines on stdout.

For each decision it gets one ``{"type": "turn", ...}`` line (``turn_message``: the seat's view,
with the table's areas) and answers ``{"card": "QH"}`` (or ``{"action": "bid:2"}`` for a bid or
call from ``actions``); at the end it
gets ``{"type": "bye"}``. An illegal card, garbage, or
no answer within the time limit is a fault: a random legal card is played instead.
"""

from __future__ import annotations

import json
import queue
import random
import subprocess
import threading
from typing import Any

from games.engine.game import View
from games.engine.tricks.deal import REDEAL_YES
from games.engine.tricks.seat_view import SeatView


def turn_message(view: View) -> dict[str, Any]:
    """One decision as JSON: the game protocol's view (hand, legal actions, seats, areas), and for a
    trick game its tricks, trump, bids and calls as before."""
    message: dict[str, Any] = {
        "type": "turn",
        "game": view.game,
        "players": view.players,
        "seat": view.viewer,
        "dealer": view.dealer,
        "hand": list(view.hand),
        "legal": _legal(view),
        "actions": _legal(view),
        "seats": [{"seat": s.seat, "in_hand": s.in_hand, "playing": s.playing} for s in view.seats],
        "areas": [
            {
                "kind": area.kind,
                "name": area.name,
                "cards": [{"card": c.card, "seat": c.seat, "counters": c.counters} for c in area.cards],
                "count": area.count,
            }
            for area in view.areas
        ],
    }
    trick = view.detail
    if isinstance(trick, SeatView):
        message |= {
            "options": trick.options,
            "legal": list(trick.legal),
            "tricks": [{"leader": t.leader, "cards": list(t.cards), "winner": t.winner} for t in trick.tricks],
            "trick": {"leader": trick.trick.leader, "cards": list(trick.trick.cards)} if trick.trick else None,
            "scores": list(trick.scores) or [0] * trick.players,
            # Games with an auction: what the seat may do now (bids, calls, a discard, or cards),
            # the bids and calls so far (another seat's discard as "discard") and the upcard.
            "actions": [action for action in trick.actions if action != REDEAL_YES],
            "calls": list(trick.calls),
            "upcard": trick.upcard,
        }
    return message


def _legal(view: View) -> list[str]:
    from . import generic

    return generic.legal(view)


class ExternalPlayer:
    """A computer player run as a separate program (``cmd:<shell command>`` in the arena)."""

    def __init__(self, command: str, *, timeout: float = 5.0, rng: random.Random | None = None):
        self.command = command
        self.timeout = timeout
        self.rng = rng or random.Random(0)
        self.faults = 0
        self.process = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def choose(self, view: View) -> str:
        answer = self._ask(turn_message(view))
        legal = _legal(view)
        if isinstance(answer, dict):
            choice = answer.get("action", answer.get("card"))
            if choice in legal:
                return choice
        self.faults += 1
        return self.rng.choice(legal)

    def _ask(self, message: dict) -> object:
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)  # the program has ended: every later question faults too
            return None
        try:
            return json.loads(line)
        except ValueError:
            return None

    def close(self) -> None:
        try:
            self.process.stdin.write(json.dumps({"type": "bye"}) + "\n")
            self.process.stdin.close()
            self.process.wait(timeout=self.timeout)
        except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
