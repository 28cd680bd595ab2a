"""Checking a finished deal's export against its revealed seed: the commitment, the cards dealt, and
the record as a whole, recomputed by the same rules that dealt it (``python -m games.engine verify``).

An export's ``fair`` section says how the deal was shuffled: ``stream`` (the version of
``fair.FairShuffle``), ``identity``, ``commitment``, ``seed`` (hex), ``contributions`` (one per
seat), ``players``, ``options``, ``match`` (the session before the deal, as its game writes it),
``setup`` (every card dealt, seen or not) and, for a session's first deal, ``first`` (the first
dealer came from the same stream). Verifying recomputes the commitment from the seed, deals again
from the seed and contributions, plays the record's actions on that deal and compares everything
the export says with what comes out. The seed must be 32 bytes and the contributions one per seat,
each in the form a seat gives (``fair.CONTRIBUTION``): otherwise the same commitment could be
claimed with the seed's first bytes moved into the identity, or the same stream with one seat's
value merged into another's. A session's export is a list of deals, each given once
(``verify_each``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from . import GAMES, find_game
from .fair import CONTRIBUTION, MAX_CONTRIBUTION, SEED_BYTES, STREAM, FairShuffle, commitment
from .game import HiddenCards, IllegalPlay, InvalidDeal
from .records import RecordError

FIELDS = ("identity", "commitment", "seed", "contributions", "players", "options", "match")


def verify(record: object) -> list[str]:
    """What differs between the export and the deal its seed gives: empty when it is verified.

    ``RecordError`` for a record that cannot be checked at all (not a deal, no seed)."""
    if not isinstance(record, Mapping):
        raise RecordError("a deal record is a JSON object")
    game = find_game(record.get("game"))
    if game is None:
        raise RecordError(f"game must be one of {', '.join(GAMES)}")
    fair = record.get("fair")
    if not isinstance(fair, Mapping) or not fair:
        raise RecordError("this deal carries no seed: it was dealt before deals could be verified")
    missing = [name for name in FIELDS if name not in fair]
    if missing:
        raise RecordError(f"the fair section lacks {', '.join(missing)}")
    if fair.get("stream", STREAM) != STREAM:
        raise RecordError(f"unknown shuffle {_short(fair.get('stream'))}: this checker knows {STREAM}")
    seed, contributions = _seed(fair["seed"]), fair["contributions"]
    if not isinstance(contributions, list) or not all(isinstance(item, str) for item in contributions):
        raise RecordError("contributions must be a list of strings, one per seat")
    if not isinstance(fair["identity"], str) or not isinstance(fair["players"], int):
        raise RecordError("identity must be a string and players a whole number")
    problems = []
    promised = commitment(seed, fair["identity"])
    if promised != fair["commitment"]:
        problems.append(f"the commitment: this seed gives {promised}, the export says {_clip(str(fair['commitment']))}")
    contributed = _contributions(contributions, fair["players"])
    if contributed:
        return problems + contributed  # not a shuffle the site deals from: nothing to deal again
    stream = FairShuffle(seed, contributions)
    try:
        options = game.parse_options(fair["options"])
        if fair.get("first"):
            match = game.new_match(players=fair["players"], options=options, rng=stream)
            started = _plain(match.to_record())
            if started != fair["match"]:
                problems.append(
                    f"the session's start: the seed gives {_short(started)}, the export says {_short(fair['match'])}"
                )
        else:
            match = game.match_from_record(fair["match"], players=fair["players"], options=options)
        setup = game.setup(match, stream)
    except (InvalidDeal, KeyError, TypeError, ValueError) as error:
        raise RecordError(f"the session before the deal cannot be read: {_clip(str(error))}") from None
    if "setup" in fair:
        problems += _differences("the deal", _plain(setup), fair["setup"])
    problems += _record_differences(game, setup, match, record)
    return problems


def verify_each(records: Sequence[object]) -> list[list[str] | RecordError]:
    """Each deal of a session's export (``verify``, or why it cannot be checked), in order. A deal
    given again (its identity or seed already in the list) is not checked again but refused: a
    session deals each deal once, and a copy of a verified deal must not pass for another."""
    first: dict[tuple[str, object], int] = {}
    said: list[list[str] | RecordError] = []
    for number, record in enumerate(records, 1):
        fair = record.get("fair") if isinstance(record, Mapping) else None
        marks = [(name, fair.get(name)) for name in ("identity", "seed")] if isinstance(fair, Mapping) else []
        again = next((first[mark] for mark in marks if isinstance(mark[1], str) and mark in first), None)
        if again is not None:
            said.append([f"the same deal as deal {again} of the list: a session gives each deal once"])
            continue
        first |= {mark: number for mark in marks if isinstance(mark[1], str)}
        try:
            said.append(verify(record))
        except RecordError as error:
            said.append(error)
    return said


def _seed(value: object) -> bytes:
    """The revealed seed: exactly ``SEED_BYTES`` (a shorter one could hand its first bytes to the
    identity and still match the commitment)."""
    try:
        seed = bytes.fromhex(value) if isinstance(value, str) else b""
    except ValueError:
        seed = b""
    if len(seed) != SEED_BYTES:
        raise RecordError(f"the seed is {2 * SEED_BYTES} hexadecimal digits")
    return seed


def _contributions(contributions: list[str], players: int) -> list[str]:
    """What is wrong with the contributions: one per seat, each as a seat gives it (or empty)."""
    said = []
    if len(contributions) != players:
        said.append(
            f"the contributions: {len(contributions)} given for {players} seats "
            "(one per seat, empty for a seat that gave none)"
        )
    wrong = next((seat for seat, value in enumerate(contributions) if not CONTRIBUTION.fullmatch(value)), None)
    if wrong is not None:
        said.append(
            f"the contributions: seat {wrong} gives {_short(contributions[wrong])}, "
            f"not up to {MAX_CONTRIBUTION} lowercase hexadecimal digits"
        )
    return said


def _record_differences(game: Any, setup: dict, match: Any, record: Mapping[str, Any]) -> list[str]:
    """The record's own fields against the deal dealt again with the record's actions played on it."""
    actions = record.get("actions", record.get("plays", []))
    if not isinstance(actions, list):
        raise RecordError("actions (or plays) must be a list")
    asker = record.get("asker")
    state = game.start(setup)
    for index, item in enumerate(actions):
        seat, action = item if isinstance(item, list) and len(item) == 2 else (None, item)
        if seat is None and index == 0 and asker is not None:
            seat = asker  # anyone may ask for new cards, out of turn
        try:
            state = state.apply(action, seat=seat)
        except (IllegalPlay, InvalidDeal, TypeError, ValueError):
            return [f"action {index + 1} ({_clip(str(action))}) cannot be played in the deal the seed gives"]
    try:
        expected = _plain(state.public_record() | game.record_context(match))
    except HiddenCards:
        return ["the actions do not finish the deal the seed gives"]
    given = {name: value for name, value in record.items() if name != "fair"}
    given["game"] = game.name  # found by its name or a former one (an export made before a rename)
    return _differences("the record", expected, given)


def _differences(what: str, expected: Mapping[str, Any], given: Mapping[str, Any]) -> list[str]:
    said = []
    for name in sorted(set(expected) | set(given)):
        if name not in given:
            said.append(f"{what}: {name} is missing (the seed gives {_short(expected[name])})")
        elif name not in expected:
            said.append(f"{what}: {_clip(name)} should not be there")
        elif expected[name] != given[name]:
            said.append(f"{what}: {name} is {_short(given[name])}, the seed gives {_short(expected[name])}")
    return said


def _plain(value: Any) -> Any:
    """As the export holds it: JSON (tuples are lists)."""
    return json.loads(json.dumps(value))


def _short(value: object, limit: int = 200) -> str:
    return _clip(repr(value), limit)


def _clip(text: str, limit: int = 200) -> str:
    """At most ``limit`` characters of what an export gave: a message never repeats a whole file."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
