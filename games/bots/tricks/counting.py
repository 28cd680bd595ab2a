"""Computer players for games that count tricks against a contract (``bots_count_tricks``: Nap, Euchre).

The game answers the questions that differ between games through its hooks (``TrickGame``:
``suit_in_play``, ``card_power``, ``makers``, ``hand_tricks``, ``bot_call``, ``known_cards``,
``bot_value``); nothing here asks which game it is playing.

- ``medium_action``: the auction by the game's rules of thumb (``bot_call``), card play by
  habits every trick-taker knows: win as cheaply as will hold, never overtake a partner who
  is winning, shed the lowest card from the shortest side suit, lead a sure winner, and as
  maker draw trumps. The bidder's first lead with no trump yet names the best suit.
- ``strong_action``: deal the hidden cards many ways consistent with the view (voids shown by
  failing to follow, the game's own rule for which suit a card follows; cards played; cards
  the game places, such as Euchre's upcard), play every legal action out in each world with
  the medium habits for every seat, and take the action worth most in the game's own currency
  (``bot_value``). The effort is a fixed number of play-outs, so a seeded choice repeats.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache

from games.engine import get_game
from games.engine.cards import BIT, Card, from_mask
from games.engine.tricks.deal import DealState, Trick, TrickGame, playing_order
from games.engine.tricks.seat_view import HIDDEN_DISCARD, SeatView

from ..partners import COURTESY, courteous_best
from .knowledge import Knowledge
from .sampler import sample_world

# -- medium: rules of thumb ------------------------------------------------------------


def medium_action(view: SeatView) -> str:
    rules = get_game(view.game)
    if view.trick is None:
        return rules.bot_call(view)
    return medium_card(rules, view)


@lru_cache(maxsize=512)
def _powers(rules: TrickGame, trump: str | None, led: str, deck: tuple[Card, ...]) -> dict[Card, int]:
    return {card: rules.card_power(card, led, trump) for card in deck}


@lru_cache(maxsize=64)
def _deck(rules: TrickGame, players: int) -> tuple[Card, ...]:
    return rules.deck(players)


@lru_cache(maxsize=64)
def _suits(rules: TrickGame, trump: str | None, deck: tuple[Card, ...]) -> dict[Card, str]:
    return {card: rules.suit_in_play(card, trump) for card in deck}


def played_cards(view: SeatView) -> set[Card]:
    return {card for trick in view.tricks for card in trick.cards} | set(view.trick.cards if view.trick else ())


def medium_card(rules: TrickGame, view: SeatView) -> Card:
    makers = rules.makers(view.contract)
    trick = view.trick
    return habit_card(
        rules, view.players, list(view.hand), list(view.legal), view.trump, view.seats, view.seat,
        trick.leader, trick.cards, played_cards(view), makers,
    )  # fmt: skip


def habit_card(
    rules: TrickGame,
    players: int,
    hand: list[Card],
    legal: list[Card],
    trump: str | None,
    seats: tuple[int, ...],
    seat: int,
    leader: int,
    cards: tuple[Card, ...],
    played: set[Card],
    makers: tuple[int, ...],
) -> Card:
    """The medium habits for one card, from plain facts (the view's, or a play-out's)."""
    if len(legal) == 1:
        return legal[0]
    deck = _deck(rules, players)
    suit_of = _suits(rules, trump, deck)
    gone = played | set(hand)
    unseen = [card for card in deck if card not in gone]
    allies = set(makers) if seat in makers else set(seats) - set(makers)

    def own_power(card: Card) -> int:
        return _powers(rules, trump, suit_of[card], deck)[card]

    def boss(card: Card) -> bool:
        """No unseen card of its suit (as played) beats it when it is led."""
        suit = suit_of[card]
        table = _powers(rules, trump, suit, deck)
        return not any(suit_of[other] == suit and table[other] > table[card] for other in unseen)

    def length(card: Card) -> int:
        return sum(suit_of[c] == suit_of[card] for c in hand)

    def shed(cards: list[Card]) -> Card:
        """The least useful card: no trump if possible, the lowest, from the shortest suit."""
        return min(cards, key=lambda c: (suit_of[c] == trump, own_power(c), length(c), c))

    if cards:
        led = suit_of[cards[0]]
        table = _powers(rules, trump, led, deck)
        order = playing_order(seats, leader)
        best = max(range(len(cards)), key=lambda i: table[cards[i]])
        bar = table[cards[best]]
        after = [s for s in order[len(cards) + 1 :] if s not in allies]
        if order[best] in allies:
            return shed(legal)  # a partner is winning: never overtake
        beaters = [card for card in legal if table[card] > bar]
        if not beaters:
            return shed(legal)
        if after:
            holding = [card for card in beaters if not any(table[u] > table[card] for u in unseen)]
            if holding:
                return min(holding, key=lambda c: table[c])
        return min(beaters, key=lambda c: table[c])
    if trump is None:  # the bidder's first lead names trump: the best suit, its top card
        suits = {card[1] for card in hand}
        suit = max(sorted(suits), key=lambda s: rules.hand_tricks(hand, s))
        return max((card for card in legal if card[1] == suit), key=lambda c: rules.card_power(c, suit, suit))
    trumps = [card for card in legal if suit_of[card] == trump]
    others = [card for card in legal if suit_of[card] != trump]
    trumps_out = any(suit_of[card] == trump for card in unseen)
    if seat in makers and trumps and trumps_out:
        top = max(trumps, key=own_power)
        if boss(top) or len(trumps) >= 2:
            return top if boss(top) else min(trumps, key=own_power)
    sure = [card for card in others if boss(card)]
    if sure:
        return min(sure, key=lambda c: (length(c), -own_power(c)))
    if not others:
        return max(trumps, key=own_power)
    return min(others, key=lambda c: (length(c), own_power(c)))


# -- strong: sampled worlds, played out ---------------------------------------------


def knowledge(view: SeatView) -> tuple[Knowledge, dict[int, int]]:
    """What ``view``'s seat can infer of the other active hands, and the cards it knows some
    seat holds (taken out of the pool, added back to each world)."""
    rules = get_game(view.game)
    deck = _deck(rules, view.players)
    suit_of = _suits(rules, view.trump, deck)
    mine = sum(BIT[card] for card in view.hand)
    played = sum(BIT[card] for card in played_cards(view))
    unseen = sum(BIT[card] for card in deck) & ~mine & ~played
    voids: dict[int, set[str]] = {seat: set() for seat in view.seats if seat != view.seat}
    for trick in (*view.tricks, *([view.trick] if view.trick else [])):
        if not trick.cards:
            continue
        led = suit_of[trick.cards[0]]
        for seat, card in zip(playing_order(view.seats, trick.leader), trick.cards, strict=False):
            if seat in voids and suit_of[card] != led and rules.shows_void(card, led, view.trump):
                voids[seat].add(led)
    allowed = {seat: unseen & ~sum(BIT[card] for card in deck if suit_of[card] in gone) for seat, gone in voids.items()}
    sizes = {seat: view.hand_sizes[seat] for seat in voids}
    forced: dict[int, int] = {}
    for seat, cards in rules.known_cards(view).items():
        mask = sum(BIT[card] for card in cards) & unseen
        if seat in allowed:
            mask &= allowed[seat]  # a void shown later says the card left the hand some other way
            forced[seat] = mask
            sizes[seat] -= mask.bit_count()
        unseen &= ~mask
    allowed = {seat: mask & unseen for seat, mask in allowed.items()}
    return Knowledge(seat=view.seat, unseen=unseen, allowed=allowed, sizes=sizes), forced


def world_state(view: SeatView, world: dict[int, int], left_over: int) -> DealState:
    """The deal as it would stand if the other hands were ``world`` (bitmasks)."""
    rules = get_game(view.game)
    hands = [world.get(seat, 0) for seat in range(view.players)]
    hands[view.seat] = sum(BIT[card] for card in view.hand)
    spare = from_mask(left_over)
    calls = tuple(
        f"{HIDDEN_DISCARD}:{spare[0] if spare else view.hand[0]}" if call == HIDDEN_DISCARD else call
        for call in view.calls
    )
    dealt = tuple(("",) * sum(rules.packets) for _ in range(view.players))  # only its length is read
    return DealState(
        game=view.game,
        rules=view.rules,
        options=rules.parse_options(view.options),
        dealer=view.dealer,
        dealt=dealt,
        trump=view.trump,
        hands=tuple(hands),
        tricks=view.tricks,
        trick=view.trick,
        seats=view.seats,
        calls=calls,
        contract=view.contract,
        upcard=view.upcard,
    )


def seat_view(state: DealState, seat: int) -> SeatView:
    """A quick view for the play-outs: what the medium habits read (no per-seat played lists)."""
    actions = tuple(state.legal_actions())
    calls = state.calls
    if seat != state.dealer:
        calls = tuple(HIDDEN_DISCARD if c.startswith(HIDDEN_DISCARD + ":") else c for c in calls)
    return SeatView(
        game=state.game,
        rules=state.rules,
        options={},
        players=state.players,
        seat=seat,
        dealer=state.dealer,
        trump=state.trump,
        seats=state.seats,
        hand=tuple(state.hand(seat)),
        legal=actions if state.trick is not None else (),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        played=(),
        tricks=state.tricks,
        trick=state.trick,
        to_act=seat,
        winner=None,
        actions=actions,
        calls=calls,
        contract=state.contract,
        upcard=state.upcard,
    )


def play_out(state: DealState) -> DealState:
    """Finish the deal with the medium habits for every seat: the auction and a first lead that
    names trump through the engine, then the tricks on plain lists (the game's ``suit_in_play``
    and ``card_power`` give following and winning; a test holds this to the engine's rules)."""
    while not state.is_over and (state.trick is None or state.trump is None):
        state = state.apply(medium_action(seat_view(state, state.to_act)))
    if state.is_over:
        return state
    rules = state.rules
    deck = _deck(rules, state.players)
    trump = state.trump
    suit_of = _suits(rules, trump, deck)
    makers = rules.makers(state.contract)
    seats = state.seats
    hands = {seat: state.hand(seat) for seat in seats}
    played = set(state.plays)
    tricks = list(state.tricks)
    leader, cards = state.trick.leader, list(state.trick.cards)
    while len(tricks) < state.tricks_per_deal:
        order = playing_order(seats, leader)
        for seat in order[len(cards) :]:
            hand = hands[seat]
            led = suit_of[cards[0]] if cards else None
            legal = [card for card in hand if suit_of[card] == led] or hand
            facts = (trump, seats, seat, leader, tuple(cards), played, makers)
            card = habit_card(rules, state.players, hand, legal, *facts)
            hand.remove(card)
            played.add(card)
            cards.append(card)
        table = _powers(rules, trump, suit_of[cards[0]], deck)
        winner = order[max(range(len(cards)), key=lambda i: table[cards[i]])]
        tricks.append(Trick(leader=leader, cards=tuple(cards), winner=winner))
        leader, cards = winner, []
    return replace(state, hands=(0,) * state.players, tricks=tuple(tricks), trick=None)


def strong_action(view: SeatView, rng: random.Random, *, playouts: int = 240, min_worlds: int = 12) -> str:
    actions = list(view.legal) if view.trick is not None else list(view.actions)
    if len(actions) == 1:
        return actions[0]
    first = medium_action(view)
    actions.sort(key=lambda action: action != first)  # ties go to the rules of thumb
    rules = get_game(view.game)
    known, forced = knowledge(view)
    playouts = playouts * 4 // max(4, len(view.seats))  # longer play-outs at five or six seats: fewer
    worlds = max(min_worlds, playouts // len(actions))
    total = dict.fromkeys(actions, 0.0)
    for _ in range(worlds):
        world = sample_world(known, rng)
        held = 0
        for seat, mask in forced.items():
            world[seat] |= mask
        for mask in world.values():
            held |= mask
        state = world_state(view, world, known.unseen & ~held)
        for action in actions:
            total[action] += rules.bot_value(play_out(state.apply(action)), view.seat)
    # A near-tie goes to the card a partner would rather see (partners.py): no overtaking, no lead into a void.
    return courteous_best(state, view.seat, total, tolerance=COURTESY * rules.call_margin * worlds)
