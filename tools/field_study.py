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
    .venv/bin/python -m tools.field_study open-hand --game seven_up --options '{"partnerships": true}' --deals 2000

``open-hand``: the same ceiling for the games whose players follow a rule of thumb (``open_hand``).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import replace
from math import sqrt

from games.bots import seat_player
from games.bots.arena import _mean_ci
from games.bots.deal_analysis import played_out_by_rule
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


def open_hand(game: str, players: int, deals: int, seed: int, options: dict) -> dict:
    """The ceiling for a game whose players follow its rule of thumb (Seven Up, the Forty-Fives):
    the hero's side tries every action on the true deal, played out by the rule for every seat (the
    strong player's worlds, all of them the true deal), against a medium field; seats and dealers
    rotate deal by deal. The arena's measures: the share of the deals' wins and the value per deal."""
    rules = get_game(game)
    parsed = rules.parse_options(options)
    field = [seat_player(game, "medium", random.Random(f"{seed}:field:{seat}")) for seat in range(players)]
    match = rules.new_match(players=players, options=parsed, rng=random.Random(f"{seed}:match"))
    shares: list[float] = []
    values: list[float] = []
    side = len(rules.partners(0, players, parsed))
    for number in range(deals):
        heroes = rules.partners(number % players, players, parsed)
        setup = rules.setup(
            replace(match, dealer=(number // players) % players), random.Random(f"{seed}:deal:{number}")
        )
        state = rules.start(setup)
        while not state.is_over:
            seat = state.to_act
            if seat in heroes and len(state.legal_actions()) > 1:
                action = max(
                    state.legal_actions(),
                    key=lambda a: played_out_by_rule(rules, state.apply(a, seat=seat), seat, None),
                )
            else:
                action = field[seat].choose(state.view(seat))
            state = state.apply(action, seat=seat)
        outcome = state.outcome()
        if outcome.thrown_in or outcome.again:
            continue
        top = [s for s, value in enumerate(outcome.values) if value == max(outcome.values)]
        shares.append(sum(s in heroes for s in top) / len(top))
        values.append(outcome.values[heroes[0]])
    fair = side / players
    share, low, high = _mean_ci(shares)
    value, value_low, value_high = _mean_ci(values)
    return {
        "game": game,
        "players": players,
        "options": options,
        "deals": len(shares),
        "split_multiple": round(share / fair, 3),
        "split_multiple_ci95": [round(low / fair, 3), round(high / fair, 3)],
        "value_per_deal": round(value, 3),
        "value_ci95": [round(value_low, 3), round(value_high, 3)],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.field_study", description=__doc__.split("\n\n")[0])
    parser.add_argument("study", choices=("ceiling", "agreement", "open-hand"))
    last_trick_games = [
        name for name, rules in GAMES.items() if rules.computer_players == "tricks" and not rules.bots_count_tricks
    ]
    ruled = [name for name, rules in GAMES.items() if rules.has_rule_of_thumb]
    parser.add_argument("--game", choices=sorted({*last_trick_games, *ruled}), default=last_trick_games[0])
    parser.add_argument("--options", default="{}", help="the table's options as JSON (open-hand)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strong", default="{}", help="the strong player's options as JSON (ceiling)")
    args = parser.parse_args(argv)
    if args.study == "open-hand":
        if args.game not in ruled:
            parser.error(f"open-hand is for games with a rule of thumb: {', '.join(ruled)}")
        print(json.dumps(open_hand(args.game, args.players, args.deals, args.seed, json.loads(args.options))))
    elif args.study == "ceiling":
        print(json.dumps(ceiling(args.game, args.players, args.deals, args.seed, json.loads(args.strong))))
    else:
        print(json.dumps(agreement(args.game, args.players, args.deals, args.seed)))


if __name__ == "__main__":
    main()
