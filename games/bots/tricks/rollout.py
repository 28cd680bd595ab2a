"""Quick play-outs: finish a sampled deal with simple habits instead of searching it.

``quick_playouts`` (the medium player's check): the other seats play at random.
``habit_playouts`` (the strong player): every seat plays the rules of thumb (``habits``),
so each sampled world plays out one way, as it would against a field of plausible players.
"""

from __future__ import annotations

import random

from games.engine import get_game
from games.engine.cards import BIT, INDEX
from games.engine.tricks.masks import NO_TRUMP, advance, follow_mask, standing
from games.engine.tricks.seat_view import SeatView

from .habits import habit_card, keeper, observed_plays, world_weight
from .knowledge import Knowledge, infer
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


def habit_playouts(
    view: SeatView,
    cards: list[str],
    *,
    worlds: int,
    rng: random.Random,
    knowledge: Knowledge | None = None,
    trust: float | None = None,
    noise: float = 0.0,
    mimic: tuple[float, float, float] | None = None,
) -> dict[str, float]:
    """For each candidate card, in how many sampled worlds it went this seat's way when
    every seat (this one too, for its later cards) follows the rules of thumb.

    With ``trust``, each world counts as much as the other seats' plays so far fit it, if
    each played the rules-of-thumb card with that chance (``habits.world_weight``). With
    ``noise``, the other seats play a random legal card instead with that chance.
    """
    rules = get_game(view.game)
    overtake = rules.overtake(rules.parse_options(view.options))
    trump = NO_TRUMP if view.trump is None else "SHDC".index(view.trump)
    avoid = not rules.wants_last_trick
    knowledge = knowledge or infer(view)
    seats = list(view.seats)
    me = seats.index(view.seat)
    leader = seats.index(view.trick.leader)
    played = [INDEX[card] for card in view.trick.cards]
    mine = sum(BIT[card] for card in view.hand)
    plays = observed_plays(view) if trust is not None else []
    deck = sum(BIT[card] for card in rules.deck(len(seats)))
    score = dict.fromkeys(cards, 0.0)
    for _ in range(worlds):
        world = sample_world(knowledge, rng)
        weight = 1.0
        if plays:
            weight = world_weight(
                plays, world, deck=deck, trump=trump, overtake=overtake, avoid=avoid, trust=trust, mimic=mimic
            )
        for card in cards:
            hands = [mine if seat == view.seat else world[seat] for seat in seats]
            hands[me] ^= BIT[card]
            remaining = (knowledge.unseen | mine) & ~BIT[card]
            taker = _habit_play_out(
                hands,
                remaining,
                leader,
                [*played, INDEX[card]],
                trump,
                overtake,
                avoid,
                me=me,
                noise=noise,
                mimic=mimic,
                rng=rng,
            )
            score[card] += weight * ((taker != me) if avoid else (taker == me))
    return score


def _habit_play_out(
    hands: list[int],
    remaining: int,
    leader: int,
    cards: list[int],
    trump: int,
    overtake: bool,
    avoid: bool,
    *,
    me: int,
    noise: float,
    mimic: tuple[float, float, float] | None = None,
    rng: random.Random,
) -> int:
    """Who takes the last trick when every seat plays the rules of thumb from here.

    ``remaining``: the cards not yet played, in a hand or never dealt.
    """
    players = len(hands)
    step = len(cards)
    state = standing(cards, leader, players, trump)
    sizes = [hand.bit_count() for hand in hands]
    total = sum(sizes)
    while True:
        while step < players:
            position = (leader + step) % players
            hand = hands[position]
            led, bar, best, _ = state
            moves = follow_mask(hand, led, bar, best != NO_TRUMP, overtake) if step else hand
            if noise and position != me and moves & (moves - 1) and rng.random() < noise:
                card = rng.choice([index for index in range(52) if moves >> index & 1])
            else:
                card = habit_card(
                    hand,
                    moves,
                    unseen=remaining & ~hand,
                    held=total - sizes[position],
                    later=sum(sizes[(leader + s) % players] for s in range(step + 1, players)),
                    step=step,
                    led=led,
                    bar=bar,
                    best=best,
                    trump=trump,
                    avoid=avoid,
                )
                if mimic and position != me and moves & (moves - 1):
                    share = mimic[2] if sizes[position] == 2 else mimic[0] if step == 0 else mimic[1]
                    if rng.random() >= share:
                        kept = keeper(
                            hand, unseen=remaining & ~hand, held=total - sizes[position], trump=trump, avoid=avoid
                        )
                        rest = moves & ~(1 << card) & ~(1 << kept)
                        if rest:
                            card = rng.choice([index for index in range(52) if rest >> index & 1])
            hands[position] = hand ^ (1 << card)
            remaining &= ~(1 << card)
            sizes[position] -= 1
            total -= 1
            state = advance(step, card, position, *state, trump)
            step += 1
        winner = state[3]
        if not total:
            return winner
        leader, step, state = winner, 0, (0, 0, NO_TRUMP, winner)
