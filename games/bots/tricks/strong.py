"""The strong player: many sampled worlds, played out as a plausible field would.

Worlds are deals of the hidden cards consistent with what this seat can infer (the
turned-up trump card, voids, and under must-overtake the caps shown by low follows).
Each candidate card is played out in every world with all seats following the medium
player's first rule of thumb (``habits``), and the card that does best is played. Real
opponents follow rules of thumb; the earlier forms treated them as adversaries (max^n,
still here with ``exact_from``) or as random players (``field="random"``); neither
was better against the medium field (docs/bots.md, "Strength"). ``mimic`` plays the others as
the medium field was measured to play (the rule's card with its share, else any card but
the one it keeps for last) and, with ``trust``, weighs the worlds by that model: it makes
the open-hand ceiling higher (``tools.field_study``) but not the honest player. The effort
is counted in cards played out, not a clock, so play is repeatable for a seed.
"""

from __future__ import annotations

import random

from games.engine import get_game
from games.engine.cards import BIT, INDEX
from games.engine.tricks.seat_view import SeatView

from .counting import strong_action
from .knowledge import Knowledge, infer
from .medium import ranked
from .rollout import habit_playouts, quick_playouts
from .sampler import sample_world
from .solver import OutOfNodes, Solver


class StrongPlayer:
    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        playout_worlds: int = 256,
        playout_budget: int = 25_600,
        exact_from: int = 0,
        field: str = "habit",
        trust: float | None = None,
        noise: float = 0.0,
        mimic: tuple[float, float, float] | None = None,
        node_budget: int = 30_000,
        node_limit: int = 120_000,
        min_worlds: int = 8,
        max_worlds: int = 64,
        counting_playouts: int = 240,
    ):
        self.counting_playouts = counting_playouts
        self.rng = rng or random.SystemRandom()
        self.playout_worlds = playout_worlds
        self.playout_budget = playout_budget
        self.exact_from = exact_from
        self.field = field
        self.trust = trust
        self.noise = noise
        self.mimic = mimic
        self.node_budget = node_budget
        self.node_limit = node_limit
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def choose(self, view: SeatView) -> str:
        if get_game(view.game).bots_count_tricks:
            return strong_action(view, self.rng, playouts=self.counting_playouts)
        order = ranked(view)
        if len(order) == 1:
            return order[0]
        if len(view.hand) > self.exact_from:
            if self.field == "habit":
                # The budget counts cards played out: longer deals (more seats, Letzter Stich's
                # eight cards) and more candidates get fewer worlds, within bounds.
                cards_left = sum(view.hand_sizes[seat] for seat in view.seats)
                worlds = min(self.playout_worlds, max(32, self.playout_budget // (len(order) * cards_left)))
                score = habit_playouts(
                    view,
                    order,
                    worlds=worlds,
                    rng=self.rng,
                    knowledge=self.knowledge(view),
                    trust=self.trust,
                    noise=self.noise,
                    mimic=self.mimic,
                )
            else:
                score = quick_playouts(view, order, worlds=self.playout_worlds, rng=self.rng)
            return max(order, key=lambda card: score[card])
        return self._solve_worlds(view, order)

    def knowledge(self, view: SeatView) -> Knowledge:
        """What the worlds are drawn from (``tools.field_study`` shows this player the true hands)."""
        return infer(view)

    def _solve_worlds(self, view: SeatView, order: list[str]) -> str:
        rules = get_game(view.game)
        knowledge = self.knowledge(view)
        seats = list(view.seats)
        me = seats.index(view.seat)
        trick = view.trick
        leader = seats.index(trick.leader)
        played = [INDEX[card] for card in trick.cards]
        trump = -1 if view.trump is None else "SHDC".index(view.trump)
        overtake = rules.overtake(rules.parse_options(view.options))
        avoid = not rules.wants_last_trick
        mine = sum(BIT[card] for card in view.hand)
        wins = dict.fromkeys(order, 0)
        nodes = worlds = 0
        while worlds < self.max_worlds and (worlds < self.min_worlds or nodes < self.node_budget):
            world = sample_world(knowledge, self.rng)
            hands = [mine if seat == view.seat else world[seat] for seat in seats]
            solver = Solver(
                players=len(seats),
                trump=trump,
                overtake=overtake,
                root=me,
                avoid=avoid,
                node_limit=self.node_limit - nodes,
            )
            try:
                outcome = {}
                for card in order:
                    hands[me] = mine ^ BIT[card]
                    outcome[card] = solver.good(me, solver.taker(hands, leader, [*played, INDEX[card]]))
            except OutOfNodes:
                break  # too big to search to the end: keep the worlds already solved
            for card, good in outcome.items():
                wins[card] += good
            nodes += solver.nodes
            worlds += 1
        # With no world solved this is the rules-of-thumb order; ties keep that order too.
        return max(order, key=lambda card: wins[card])
