"""How much better than the medium field a last-trick player could be: two measurements
behind docs/bots.md's "Strength" section.

``ceiling``: the strong player shown every hidden hand (each sampled world is the true
deal), against a medium field. No honest player can expect more from the same play-outs;
the gap to the honest strong player is what the hidden cards are worth.

``agreement``: how predictable the medium player is. Eight medium players with their own
random sources decide the same positions; the share of the most chosen card, the chance
that two of them agree, and how often the rules of thumb name that most chosen card.

    .venv/bin/python -m tools.field_study ceiling --game femkort --deals 1000 --strong '{"mimic": [0.45, 0.65, 0.79]}'
    .venv/bin/python -m tools.field_study agreement --game femkort --deals 300
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from math import sqrt

from games.bots.tricks.knowledge import Knowledge, infer
from games.bots.tricks.medium import MediumPlayer, ranked
from games.bots.tricks.strong import StrongPlayer
from games.engine import GAMES, get_game
from games.engine.tricks.deal import DealState
from games.engine.tricks.seat_view import SeatView, view_for


class OpenHandStrong(StrongPlayer):
    """The strong player with every world set to the true deal: an upper bound, never a level."""

    deal: DealState

    def knowledge(self, view: SeatView) -> Knowledge:
        hands = {seat: self.deal.hands[seat] for seat in view.seats if seat != view.seat}
        sizes = {seat: hand.bit_count() for seat, hand in hands.items()}
        # The unseen cards stay as the seat sees them (cards never dealt among them): the
        # play-outs' field judges its odds by those, as the real one does.
        return Knowledge(seat=view.seat, unseen=infer(view).unseen, allowed=hands, sizes=sizes, known=hands)


def ceiling(game: str, players: int, deals: int, seed: int, strong: dict) -> dict:
    rules = get_game(game)
    options = rules.parse_options({})
    heroes = [OpenHandStrong(random.Random(f"{seed}:hero:{seat}"), **strong) for seat in range(players)]
    field = [MediumPlayer(random.Random(f"{seed}:field:{seat}")) for seat in range(players)]
    score = 0.0
    for number in range(deals):
        hero = number % players
        state = rules.deal(
            players=players,
            dealer=(number // players) % players,
            options=options,
            rng=random.Random(f"{seed}:deal:{number}"),
        )
        while not state.is_over:
            seat = state.to_act
            view = view_for(state, seat)
            if seat == hero:
                heroes[seat].deal = state
                state = state.apply(heroes[seat].choose(view))
            else:
                state = state.apply(field[seat].choose(view))
        score += rules.deal_score(state, hero)
    rate = score / deals
    half = 1.96 * sqrt(rate * (1 - rate) / deals)
    fair = 1 / players
    return {
        "game": game,
        "deals": deals,
        "measure": "deals won" if rules.wants_last_trick else "tokens lost",
        "rate": round(rate, 4),
        "multiple": round(rate / fair, 3),
        "ci95": [round((rate - half) / fair, 3), round((rate + half) / fair, 3)],
    }


def agreement(game: str, players: int, deals: int, seed: int) -> dict:
    rules = get_game(game)
    options = rules.parse_options({})
    seated = [MediumPlayer(random.Random(f"{seed}:seat:{seat}")) for seat in range(players)]
    judges = [MediumPlayer(random.Random(f"{seed}:judge:{k}")) for k in range(8)]
    totals: Counter = Counter()
    for number in range(deals):
        state = rules.deal(
            players=players, dealer=number % players, options=options, rng=random.Random(f"{seed}:deal:{number}")
        )
        while not state.is_over:
            view = view_for(state, state.to_act)
            if len(view.legal) > 1:
                kind = "two cards" if len(view.hand) == 2 else "following" if view.trick.cards else "leading"
                picks = Counter(judge.choose(view) for judge in judges).most_common()
                totals[kind, "positions"] += 1
                totals[kind, "modal"] += picks[0][1] / len(judges)
                totals[kind, "pair"] += sum(n * (n - 1) for _, n in picks) / (len(judges) * (len(judges) - 1))
                totals[kind, "rule"] += ranked(view)[0] == picks[0][0]
            state = state.apply(seated[state.to_act].choose(view))
    report = {}
    for kind in ("leading", "following", "two cards"):
        count = max(totals[kind, "positions"], 1)
        report[kind] = {
            "positions": totals[kind, "positions"],
            "most_chosen_share": round(totals[kind, "modal"] / count, 3),
            "two_agree": round(totals[kind, "pair"] / count, 3),
            "rule_names_most_chosen": round(totals[kind, "rule"] / count, 3),
        }
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.field_study", description=__doc__.split("\n\n")[0])
    parser.add_argument("study", choices=("ceiling", "agreement"))
    last_trick_games = [name for name, rules in GAMES.items() if not rules.bots_count_tricks]
    parser.add_argument("--game", choices=last_trick_games, default=last_trick_games[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strong", default="{}", help="the strong player's options as JSON (ceiling)")
    args = parser.parse_args(argv)
    if args.study == "ceiling":
        print(json.dumps(ceiling(args.game, args.players, args.deals, args.seed, json.loads(args.strong))))
    else:
        print(json.dumps(agreement(args.game, args.players, args.deals, args.seed)))


if __name__ == "__main__":
    main()
