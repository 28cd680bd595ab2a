"""Deal reviews measured: how long one takes per game, and how often each computer level's choices
are marked (easy should be marked far more often than strong, or the review means nothing).

    .venv/bin/python -m tools.bench_review [--deals 6] [--levels easy,medium,strong] [--games nap,euchre] [--seed 1]

Each deal is dealt at the game's smallest table, every seat played by the same computer level,
then reviewed exactly as the site reviews a finished deal (``games.bots.deal_analysis``). Pure engine:
no database, no server; one process, one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.bots import LEVELS, decide
from games.bots.deal_analysis import review_deal
from games.engine import GAMES


def played(name: str, level: str, rng: random.Random) -> tuple[dict, list[tuple[int, str]]]:
    game = GAMES[name]
    match = game.new_match(players=min(game.seat_counts), options=game.parse_options({}), rng=rng)
    setup = game.setup(match, rng)
    state, actions = game.start(setup), []
    while not state.is_over:
        seat = state.to_act
        action = decide(level, state.view(seat), random.Random(rng.random()))
        actions.append((seat, action))
        state = state.apply(action, seat=seat)
    return setup, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals per game and level")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    levels, games = args.levels.split(","), args.games.split(",")
    marked = {level: [0, 0, 0] for level in levels}  # mistakes, inaccuracies, decisions
    print(f"{'game':<20} {'level':<7} {'deals':>5} {'median s':>9} {'p95 s':>7} {'decisions':>9} {'marked':>7}")
    for name in games:
        for level in levels:
            times, decisions, marks = [], 0, 0
            for index in range(args.deals):
                setup, actions = played(name, level, rng)
                began = time.perf_counter()
                review = review_deal(name, {}, setup, actions, seed=index)
                times.append(time.perf_counter() - began)
                decisions += len(review.decisions)
                marks += sum(1 for decision in review.decisions if decision.mark)
                marked[level][0] += sum(1 for decision in review.decisions if decision.mark == "mistake")
                marked[level][1] += sum(1 for decision in review.decisions if decision.mark == "inaccuracy")
                marked[level][2] += len(review.decisions)
            times.sort()
            p95 = times[max(0, int(len(times) * 0.95) - 1)]
            print(
                f"{name:<20} {level:<7} {args.deals:>5} {statistics.median(times):>9.2f} {p95:>7.2f} "
                f"{decisions:>9} {marks / max(decisions, 1):>7.1%}",
                flush=True,
            )
    for level, (mistakes, inaccuracies, decisions) in marked.items():
        share = (mistakes + inaccuracies) / max(decisions, 1)
        print(f"{level}: {decisions} decisions, {mistakes} mistakes, {inaccuracies} inaccuracies: {share:.1%} marked")


if __name__ == "__main__":
    main()
