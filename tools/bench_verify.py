"""Verify round-trips: deal many deals of every game from random seeds and contributions as the
site does, play them out at random, export them as the site does and check each export with
``games.engine.verify`` (and each export with one card swapped between two places, and each with
two seats' contributions merged into one, which must fail).

    .venv/bin/python -m tools.bench_verify [--deals 1000] [--seed 1] [--list 100]

Prints, per game, how many deals verified, how many tampered and merged copies were caught, and the
time a verification takes; then the time to check one list of ``--list`` deals of all the games
(the verify page's most in one request). Pure engine: no database, no server.
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
from games.engine.verify import verify, verify_each


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


def merged(record: dict) -> dict:
    """The export with the first two seats' contributions given as one, joined by a line break:
    the stream is the same, so only the checker's count and form of contributions can tell."""
    given = record["fair"]["contributions"]
    copied = copy.deepcopy(record)
    copied["fair"]["contributions"] = [given[0] + "\n" + given[1], *given[2:]]
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
    parser.add_argument("--list", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{'game':<20} {'deals':>6} {'verified':>9} {'tamper caught':>14} {'merged caught':>14}"
        f" {'median ms':>10} {'p95 ms':>8}"
    )
    for name, game in GAMES.items():
        verified = caught = merged_caught = 0
        times = []
        for number in range(args.deals):
            record = exported(game, rng, number)
            began = time.perf_counter()
            problems = verify(record)
            times.append((time.perf_counter() - began) * 1000)
            verified += not problems
            caught += bool(verify(tampered(record, rng)))
            merged_caught += bool(verify(merged(record)))
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{name:<20} {args.deals:>6} {verified:>9} {caught:>14} {merged_caught:>14}"
            f" {statistics.median(times):>10.2f} {p95:>8.2f}"
        )
    games = list(GAMES.values())
    listed = [exported(games[number % len(games)], rng, args.deals + number) for number in range(args.list)]
    began = time.perf_counter()
    checked = verify_each(listed)
    took = (time.perf_counter() - began) * 1000
    size = len(json.dumps(listed)) / 1024
    print(f"one list of {len(listed)} deals ({size:.0f} KB): {took:.0f} ms, {checked.count([])} verified")


if __name__ == "__main__":
    main()
