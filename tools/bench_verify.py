"""Verify round-trips: deal many deals of every game from random seeds and contributions as the
site does, play them out at random, export them as the site does and check each export with
``games.engine.verify`` (and each export with one card swapped between two places, which must fail).

    .venv/bin/python -m tools.bench_verify [--deals 1000] [--seed 1]

Prints, per game, how many deals verified, how many tampered copies were caught, and the time
a verification takes. Pure engine: no database, no server.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import time

from games.engine import GAMES
from games.engine.fair import STREAM, FairShuffle, commitment
from games.engine.verify import verify


def exported(
    game,
    rng: random.Random,
    number: int,
    *,
    seed: bytes | None = None,
    identity: str | None = None,
    contributions: list[str] | None = None,
) -> dict:
    """One deal as the site exports it: dealt from a fresh seed and contributions (or the ones
    given, one per seat), played at random."""
    players = len(contributions) if contributions is not None else rng.choice(sorted(game.seat_counts))
    options = game.parse_options({})
    seed = rng.randbytes(32) if seed is None else seed
    if contributions is None:
        contributions = [rng.randbytes(rng.randint(0, 16)).hex() for _ in range(players)]
    identity = f"table {number} deal 1" if identity is None else identity
    stream = FairShuffle(seed, contributions)
    first = number % 2 == 0
    if first:  # a session's first deal: the first dealer from the same stream
        match = game.new_match(players=players, options=options, rng=stream)
    else:
        match = game.new_match(players=players, options=options, rng=random.Random(number))
    before = match.to_record()
    setup = game.setup(match, stream)
    state = game.start(setup)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.public_record() | game.record_context(match)))
    record["fair"] = json.loads(
        json.dumps(
            {
                "stream": STREAM,
                "identity": identity,
                "commitment": commitment(seed, identity),
                "seed": seed.hex(),
                "contributions": contributions,
                "players": players,
                "options": {},
                "match": before,
                "setup": setup,
            }
            | ({"first": True} if first else {})
        )
    )
    return record


def tampered(record: dict, rng: random.Random) -> dict:
    """The export rewritten consistently with two dealt cards swapped everywhere (the deal as dealt,
    the hands, every play): only dealing again from the seed can tell."""
    a, b = rng.sample(sorted(set(_cards(record["fair"]["setup"]))), 2)
    copied = _swapped(copy.deepcopy(record), {a: b, b: a})
    copied["fair"] |= {name: record["fair"][name] for name in ("seed", "commitment", "contributions", "identity")}
    return copied


def _cards(value) -> list[str]:
    if isinstance(value, str):
        return [value] if len(value) == 2 and value[0] in "23456789TJQKA" and value[1] in "SHDC" else []
    if isinstance(value, list):
        return [card for item in value for card in _cards(item)]
    if isinstance(value, dict):
        return [card for item in value.values() for card in _cards(item)]
    return []


def _swapped(value, swap: dict):
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, list):
        return [_swapped(item, swap) for item in value]
    if isinstance(value, dict):
        return {key: _swapped(item, swap) for key, item in value.items()}
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'game':<20} {'deals':>6} {'verified':>9} {'tamper caught':>14} {'median ms':>10} {'p95 ms':>8}")
    for name, game in GAMES.items():
        verified = caught = 0
        times = []
        for number in range(args.deals):
            record = exported(game, rng, number)
            began = time.perf_counter()
            problems = verify(record)
            times.append((time.perf_counter() - began) * 1000)
            verified += not problems
            caught += bool(verify(tampered(record, rng)))
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"{name:<20} {args.deals:>6} {verified:>9} {caught:>14} {statistics.median(times):>10.2f} {p95:>8.2f}")


if __name__ == "__main__":
    main()
