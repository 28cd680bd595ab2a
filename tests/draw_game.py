"""A game that exists only for the tests, of a family with neither tricks nor stops: seats draw
and discard. Proof that a new game is its module, its registry line and its rules page.

"Knock Rummy": two or three players, twenty-four cards (nine to ace of four suits), three cards
each; one card turned up starts the discard pile, the rest is the stock, face down. On a turn a
seat draws the top card of the stock or takes the top discard, then discards a card (not the
one it just took from the pile). A seat whose three cards then form a set (three of a rank) or a
run (three in a row in a suit) knocks and wins the deal; if the stock is empty after a discard
and nobody knocked, the deal is drawn. The first to ``target`` deals wins the session.
Nothing outside this file knows it: the test registers it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from games.engine.game import (
    EVERYONE,
    Area,
    CardName,
    Choice,
    Count,
    Game,
    HiddenCards,
    IllegalPlay,
    InvalidDeal,
    Outcome,
    SeatName,
    SeatShown,
    Shown,
    Text,
    View,
    Viewer,
)
from games.engine.options import Option

RANKS = "9TJQKA"
SUITS = "SHDC"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
HAND = 3
DRAW, TAKE = "draw", "take"
TAKEN_BACK = "The card taken from the discard pile cannot go straight back."


def _order(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda card: (SUITS.index(card[1]), RANKS.index(card[0]))))


def is_goal(cards: Sequence[str]) -> bool:
    """Three of a rank, or three in a row in one suit."""
    if len(cards) != HAND:
        return False
    if len({card[0] for card in cards}) == 1:
        return True
    ranks = sorted(RANKS.index(card[0]) for card in cards)
    return len({card[1] for card in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + HAND))


def _ties(card: str, others: Sequence[str]) -> int:
    """How many of ``others`` could make a set or a run with ``card``: the rule of thumb's measure."""
    rank = RANKS.index(card[0])
    return sum(
        other[0] == card[0] or (other[1] == card[1] and abs(RANKS.index(other[0]) - rank) <= 2) for other in others
    )


@dataclass(frozen=True, slots=True)
class DrawOptions:
    target: int = 2


@dataclass(frozen=True, slots=True)
class DrawState:
    dealer: int
    dealt: tuple[tuple[str, ...], ...]
    stock_dealt: tuple[str | None, ...]  # top first; None: a card nobody saw (a public record's undrawn stock)
    upcard: str
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str | None, ...]
    discards: tuple[str, ...]  # bottom first: the last is the top, face up
    turn: int
    taken: str | None = None  # the discard the seat to act took this turn: it may not go straight back
    drawn: bool = False  # the seat to act has drawn or taken, and must discard
    actions: tuple[tuple[int, str], ...] = ()
    knocked: int | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return self.knocked is not None or (not self.stock and not self.drawn and bool(self.actions))

    @property
    def action_count(self) -> int:
        return len(self.actions)

    @property
    def to_act(self) -> int | None:
        return None if self.is_over else self.turn

    def legal_actions(self) -> list[str]:
        if self.is_over:
            return []
        if not self.drawn:
            return [DRAW, *([TAKE] if self.discards else [])]
        return [card for card in self.hands[self.turn] if card != self.taken]

    def apply(self, action: str, seat: int | None = None) -> DrawState:
        if self.is_over:
            raise _refused("deal_over", "The deal is over.", seat, action)
        if seat is not None and seat != self.turn:
            raise _refused("not_your_turn", "It is not your turn.", seat, action)
        seat = self.turn
        hand = self.hands[seat]
        if not self.drawn:
            if action == DRAW and self.stock:
                card, stock, discards, taken = self.stock[0], self.stock[1:], self.discards, None
            elif action == TAKE and self.discards:
                card, stock, discards, taken = self.discards[-1], self.stock, self.discards[:-1], self.discards[-1]
            else:
                raise _refused("draw_first", "Draw from the stock or take the top discard first.", seat, action, self)
            if card is None:
                raise InvalidDeal("the record's stock does not show a card that was drawn")
            return replace(
                self,
                hands=self._with(seat, (*hand, card)),
                stock=stock,
                discards=discards,
                taken=taken,
                drawn=True,
                actions=(*self.actions, (seat, action)),
            )
        if action not in hand:
            raise _refused("discard_from_hand", "Discard a card of your hand.", seat, action, self)
        if action == self.taken:
            raise _refused("taken_card", TAKEN_BACK, seat, action, self)
        kept = tuple(card for card in hand if card != action)
        return replace(
            self,
            hands=self._with(seat, kept),
            discards=(*self.discards, action),
            taken=None,
            drawn=False,
            turn=seat if is_goal(kept) else (seat + 1) % self.players,
            actions=(*self.actions, (seat, action)),
            knocked=seat if is_goal(kept) else None,
        )

    def _with(self, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        return tuple(hand if s == seat else h for s, h in enumerate(self.hands))

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise ValueError("the deal is not over")
        if self.knocked is None:
            return Outcome(values=(0.0,) * self.players)
        values = tuple(float(self.players - 1 if s == self.knocked else -1) for s in range(self.players))
        return Outcome(values=values, winners=(self.knocked,))

    def view(self, viewer: Viewer, scores: tuple[int, ...] = ()) -> View:
        if viewer == EVERYONE and not self.is_over:
            raise HiddenCards("every hand is shown only once the deal is over")
        return _view(self, viewer)

    def replay(self, actions: Sequence[tuple[int | None, str]]) -> tuple[View, ...]:
        states = [self]
        for seat, action in actions:
            states.append(states[-1].apply(action, seat=seat))
        if not states[-1].is_over:
            raise HiddenCards("a deal is shown whole only once it is over")
        return tuple(_view(state, EVERYONE) for state in states)

    def public_record(self) -> dict[str, Any]:
        """The deal as dealt, but the stock only as far as it was drawn: the rest nobody saw."""
        if not self.is_over:
            raise HiddenCards("a deal is shown whole only once it is over")
        drawn = len(self.stock_dealt) - len(self.stock)
        stock = [*self.stock_dealt[:drawn], *[None] * len(self.stock)]
        setup = {"dealer": self.dealer, "hands": [list(h) for h in self.dealt], "upcard": self.upcard, "stock": stock}
        return {"game": RUMMY.name, "setup": setup, "actions": [[seat, action] for seat, action in self.actions]}


def _refused(rule: str, message: str, seat, action, state: DrawState | None = None) -> IllegalPlay:
    legal = state.legal_actions() if state is not None else []
    return IllegalPlay(rule, message, seat=seat, card=action, legal=legal, text=Text(message))


def _view(state: DrawState, viewer: Viewer) -> View:
    everyone = viewer == EVERYONE
    mine = isinstance(viewer, int) and 0 <= viewer < state.players
    seats = tuple(
        SeatShown(seat=seat, in_hand=len(hand), cards=_order(hand) if everyone else ())
        for seat, hand in enumerate(state.hands)
    )
    top = state.discards[-1] if state.discards else None
    areas = (
        Area("pile", "stock", Text("Stock"), count=len(state.stock)),
        Area(
            "pile",
            "discards",
            Text("Discard pile"),
            cards=(Shown(top),) if top else (),
            count=max(len(state.discards) - 1, 0),
        ),
    )
    to_act = state.to_act
    acting = mine and to_act == viewer
    choices: tuple[Choice, ...] = ()
    playable: frozenset[str] = frozenset()
    refusal = None
    if acting and not state.drawn:
        choices = (Choice(DRAW, Text("Draw from the stock"), primary=True),)
        if top:
            choices += (Choice(TAKE, Text("Take the %(card)s", (("card", CardName(top)),))),)
        prompt = Text("Draw from the stock or take the top discard.")
    elif acting:
        playable = frozenset(state.legal_actions())
        prompt = Text("Discard a card: three of a rank or three in a row in a suit knocks.")
        if state.taken:
            refusal = Text(TAKEN_BACK)
    elif to_act is not None:
        prompt = Text("Waiting for %(name)s.", (("name", SeatName(to_act)),))
    else:
        prompt = None
    log = tuple(
        Text("%(name)s took the %(card)s.", (("name", SeatName(seat)), ("card", CardName(_taken_card(state, i)))))
        for i, (seat, action) in enumerate(state.actions)
        if action == TAKE
    )
    if state.knocked is not None:
        result = Text("%(name)s knocked and won deal %(number)d.", (("name", SeatName(state.knocked)),))
    elif state.is_over:
        result = Text("The stock ran out: deal %(number)d is drawn.")
    else:
        result = None
    return View(
        game=RUMMY.name,
        viewer=viewer,
        players=state.players,
        dealer=state.dealer,
        to_act=to_act,
        seats=seats,
        hand=_order(state.hands[viewer]) if mine else (),
        playable=playable,
        choices=choices,
        areas=areas,
        log=log,
        prompt=prompt,
        refusal=refusal,
        fresh=not state.actions,
        over=state.is_over,
        result=result,
    )


def _taken_card(state: DrawState, index: int) -> str:
    """The discard a ``take`` at ``index`` picked up: the card discarded just before it (or the upcard)."""
    return state.actions[index - 1][1] if index else state.upcard


@dataclass(frozen=True, slots=True)
class DrawMatch:
    players: int
    options: DrawOptions
    dealer: int
    wins: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return max(self.wins) >= self.options.target

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, wins in enumerate(self.wins) if wins >= self.options.target)

    @property
    def scores(self) -> tuple[int, ...]:
        return self.wins

    def deal(self, rng: random.Random) -> DrawState:
        return RUMMY.start(RUMMY.setup(self, rng))

    def settle(self, deal: DrawState) -> DrawMatch:
        wins = tuple(w + (seat == deal.knocked) for seat, w in enumerate(self.wins))
        return replace(self, wins=wins, dealer=(self.dealer + 1) % self.players)

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "wins": list(self.wins)}


class KnockRummy(Game):
    name = "knock-rummy"
    title = "Knock Rummy"
    summary = "Draw, discard, and knock with three of a rank or three in a row."
    seat_counts = frozenset({2, 3})
    options_schema = (Option("target", "number", 2, "Deals to win", "First to this many deals wins.", low=1, high=3),)
    has_rule_of_thumb = True
    rules_text = (
        "Twenty-four cards, nine to ace of each suit; three cards each. One card turned up starts "
        "the discard pile; the rest is the stock.\n\n"
        "On your turn draw the top card of the stock or take the top discard, then discard a card "
        "(not the one you just took). If your three cards then make three of a rank or three in a "
        "row in one suit, you knock and win the deal. If the stock runs out, the deal is drawn.\n\n"
        "The first to win as many deals as the table chose wins the session."
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> DrawOptions:
        target = dict(raw or {}).get("target", 2)
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 3:
            raise InvalidDeal("target must be a whole number from 1 to 3")
        return DrawOptions(target=target)

    def describe(self, options: DrawOptions) -> tuple[Text, ...]:
        return (Text("first to %(target)d deals", (("target", options.target),)),)

    def seat_scores(self, match: DrawMatch, seat: int, deal: DrawState | None = None) -> tuple[Count, ...]:
        return (Count(match.wins[seat], "%(count)d knock", "%(count)d knocks"),)

    def new_match(self, *, players: int, options: DrawOptions, rng: random.Random) -> DrawMatch:
        return DrawMatch(players=players, options=options, dealer=rng.randrange(players), wins=(0,) * players)

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: DrawOptions) -> DrawMatch:
        return DrawMatch(players=players, options=options, dealer=record["dealer"], wins=tuple(record["wins"]))

    def setup(self, match: DrawMatch, rng: random.Random) -> dict[str, Any]:
        cards = list(DECK)
        rng.shuffle(cards)
        hands = [cards[seat * HAND : (seat + 1) * HAND] for seat in range(match.players)]
        rest = cards[match.players * HAND :]
        return {"dealer": match.dealer, "hands": hands, "upcard": rest[0], "stock": rest[1:]}

    def start(self, setup: Mapping[str, Any]) -> DrawState:
        try:
            hands = tuple(tuple(hand) for hand in setup["hands"])
            dealer, upcard, stock = setup["dealer"], setup["upcard"], tuple(setup["stock"])
        except (KeyError, TypeError) as error:
            raise InvalidDeal(f"a knock rummy setup needs dealer, hands, upcard and stock ({error})") from None
        cards = [card for hand in hands for card in hand] + [upcard] + [card for card in stock if card is not None]
        players = len(hands)
        if (
            players not in self.seat_counts
            or any(len(hand) != HAND for hand in hands)
            or len(set(cards)) != len(cards)
            or not set(cards) <= set(DECK)
            or len(cards) + stock.count(None) != len(DECK)
            or None in stock[: len(stock) - stock.count(None)]
            or dealer not in range(players)
        ):
            raise InvalidDeal("three cards a seat, an upcard and the stock: the deck once over, and a dealer")
        return DrawState(
            dealer=dealer,
            dealt=hands,
            stock_dealt=stock,
            upcard=upcard,
            hands=hands,
            stock=stock,
            discards=(upcard,),
            turn=(dealer + 1) % players,  # the dealer's left starts
        )

    def resample(self, view: View, rng: random.Random) -> DrawState:
        """Deal what the viewer cannot see (the others' hands, the stock, the discards under the
        top) anew, keeping the counts and the top discard."""
        seat = view.viewer
        pile = view.area("discards")
        top = pile.cards[0].card if pile.cards else None
        unseen = [card for card in DECK if card not in view.hand and card != top]
        rng.shuffle(unseen)
        hands = []
        for other in view.seats:
            if other.seat == seat:
                hands.append(tuple(view.hand))
            else:
                hands.append(tuple(unseen[: other.in_hand]))
                del unseen[: other.in_hand]
        under = tuple(unseen[: pile.count])
        stock = tuple(unseen[pile.count :])
        drawn = len(view.hand) > HAND
        taken = next((card for card in view.hand if card not in view.playable), None) if drawn else None
        return DrawState(
            dealer=view.dealer,
            dealt=tuple(hands),
            stock_dealt=stock,
            upcard=top or "",  # a played-out world keeps no record
            hands=tuple(hands),
            stock=stock,
            discards=(*under, top) if top else under,
            turn=view.to_act,
            taken=taken,
            drawn=drawn,
            actions=((seat, DRAW),) if drawn else (),
        )

    def rule_of_thumb(self, state: DrawState) -> str:
        """Take the top discard when it goes with the hand; discard what goes with least of it."""
        hand = state.hands[state.turn]
        if not state.drawn:
            top = state.discards[-1] if state.discards else None
            return TAKE if top and (is_goal_with(hand, top) or _ties(top, hand) >= 2) else DRAW
        legal = state.legal_actions()
        knocking = [card for card in legal if is_goal([c for c in hand if c != card])]
        if knocking:
            return knocking[0]
        return min(legal, key=lambda card: (_ties(card, [c for c in hand if c != card]), card))


def is_goal_with(hand: Sequence[str], card: str) -> bool:
    """Whether ``card`` with two of ``hand`` makes a set or a run."""
    return any(is_goal((card, *pair)) for pair in combinations(hand, HAND - 1))


RUMMY = KnockRummy()
