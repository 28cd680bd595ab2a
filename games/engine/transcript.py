"""A game's golden transcript: one seeded session's first deals as plain text (the session as it
starts, each deal as dealt, every action with its seat, each deal's outcome and the session after
it), through the game protocol alone. The tests keep one per game under ``tests/engine/golden``
and compare: a change to any rule that touches these deals shows up as a diff of readable lines.
``python -m games.engine golden`` compares them, ``--write`` writes them anew.

Every random choice (the first dealer, the shuffles, the actions) comes from ``FairShuffle``
streams of fixed seeds: documented functions of SHA-256, the same in every Python version.
"""

from __future__ import annotations

import json
from typing import Any

from .fair import FairShuffle
from .game import Game

DEALS = 2  # the session's first deals (fewer if it ends sooner)
DEAL_SEED = bytes(32)
ACTION_SEED = bytes(31) + b"\1"


def table_size(game: Game) -> int:
    """Four seats where the game allows them (most games' usual table), else its smallest table."""
    return 4 if 4 in game.seat_counts else min(game.seat_counts)


def transcript(game: Game) -> str:
    players = table_size(game)
    deals, choices = FairShuffle(DEAL_SEED), FairShuffle(ACTION_SEED)
    match = game.new_match(players=players, options=game.parse_options({}), rng=deals)
    lines = [
        f"{game.name}: {players} seats, default options; the session's first {DEALS} deals, actions chosen at random",
        f"session: {_json(match.to_record())}",
    ]
    for number in range(1, DEALS + 1):
        if match.finished:
            break
        setup = game.setup(match, deals)
        lines += ["", f"deal {number}", *_setup(setup)]
        state = game.start(setup)
        while not state.is_over:
            seat, action = state.to_act, choices.choice(sorted(state.legal_actions()))
            lines.append(f"  seat {seat}: {action}")
            state = state.apply(action, seat=seat)
        outcome = state.outcome()
        said = f"winners {_seats(outcome.winners)}, values {' '.join(f'{value:g}' for value in outcome.values)}"
        said += ", dealt again" if outcome.again else ", thrown in" if outcome.thrown_in else ""
        lines.append(f"  outcome: {said}")
        match = match.settle(state)
        lines.append(f"  scores: {' '.join(str(score) for score in match.scores)}")
        lines.append(f"  session: {_json(match.to_record())}")
    if match.finished:
        lines += ["", f"session over: winners {_seats(match.winners)}"]
    return "\n".join(lines) + "\n"


def _setup(setup: dict[str, Any]) -> list[str]:
    """The deal's setup a key a line; a list of lists (the hands) a line each, numbered from 0."""
    lines = []
    for key, value in setup.items():
        if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
            lines += [f"  {key} {index}: {' '.join(map(str, item))}" for index, item in enumerate(value)]
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            lines.append(f"  {key}: {' '.join(value)}")
        elif isinstance(value, str):
            lines.append(f"  {key}: {value}")
        else:
            lines.append(f"  {key}: {_json(value)}")
    return lines


def _seats(seats: tuple[int, ...]) -> str:
    return " ".join(map(str, seats)) or "none"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
