"""Quick play-outs: finish a sampled deal with simple habits instead of searching it."""

from __future__ import annotations

import random

from games.engine import get_game
from games.engine.cards import BIT, INDEX
from games.engine.tricks import NO_TRUMP, advance, follow_mask, standing
from games.engine.views import SeatView

from .knowledge import infer
from .sampler import sample_world


def quick_playouts(view: SeatView, cards: list[str], *, worlds: int, rng: random.Random) -> dict[str, int]:
    """For each candidate card, in how many sampled worlds the play-out went this seat's way."""
    rules = get_game(view.game)
    overtake = rules.overtake(rules.parse_options(view.options))
    trump = NO_TRUMP if view.trump is None else "SHDC".index(view.trump)
    avoid = not rules.wants_last_trick
    knowledge = infer(view)
    seats = list(view.seats)
    me = seats.index(view.seat)
    leader = seats.index(view.trick.leader)
    played = [INDEX[card] for card in view.trick.cards]
    mine = sum(BIT[card] for card in view.hand)
    score = dict.fromkeys(cards, 0)
    for _ in range(worlds):
        world = sample_world(knowledge, rng)
        for card in cards:
            hands = [mine if seat == view.seat else world[seat] for seat in seats]
            hands[me] ^= BIT[card]
            taker = _play_out(hands, leader, [*played, INDEX[card]], me, trump, overtake, avoid, rng)
            score[card] += (taker != me) if avoid else (taker == me)
    return score


def _play_out(
    hands: list[int],
    leader: int,
    cards: list[int],
    me: int,
    trump: int,
    overtake: bool,
    avoid: bool,
    rng: random.Random,
) -> int:
    players = len(hands)
    step = len(cards)
    state = standing(cards, leader, players, trump)
    while True:
        while step < players:
            position = (leader + step) % players
            hand = hands[position]
            led, bar, best, _ = state
            moves = follow_mask(hand, led, bar, best != NO_TRUMP, overtake) if step else hand
            options = [index for index in range(52) if moves >> index & 1]
            if position == me:
                # Femkort keeps its highest cards for last; Letzter Stich its lowest.
                card = max(options, key=_rank) if avoid else min(options, key=_rank)
            else:
                card = rng.choice(options)
            hands[position] ^= 1 << card
            state = advance(step, card, position, *state, trump)
            step += 1
        winner = state[3]
        if not any(hands):
            return winner
        leader, step, state = winner, 0, (0, 0, NO_TRUMP, winner)


def _rank(index: int) -> int:
    return index % 13
