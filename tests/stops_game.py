"""A game that exists only for the tests, and has no tricks: proof that the game protocol, not
the trick library, is what the site plays.

"Crown Stops": three players, twelve cards (nine to ace of spades and hearts). The seat after
the dealer gets four cards, the next three, the dealer three; two lie face down as a dead hand
nobody ever sees. The seat after the dealer starts a run with any card; then whoever holds the
next card of that suit plays it (so the turn jumps about the table); when nobody can (the card
is dead, or the run reached the ace) the run stops and the last player starts a new one with
any card. The first seat out of cards wins the deal and gets a chip for every card the others
still hold. Everyone antes a chip onto the boodle (an ace of clubs from another pack, face up
beside the table) each deal; whoever plays the crown (the ace of hearts) and goes out takes
the chips on it, else they stay there for the next deal.
Nothing outside this file knows it: the test registers it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.engine.game import (
    EVERYONE,
    Area,
    CardName,
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
DECK = tuple(rank + suit for suit in "SH" for rank in RANKS)
CROWN = "AH"  # whoever plays it and goes out takes the chips on the boodle
BOODLE = "AC"  # from another pack, face up beside the table: the chips lie on it
PACKETS = (4, 3, 3)  # from the dealer's left; the dealer gets the last
CHIPS = 10


def _next(card: str) -> str | None:
    """The card after ``card`` in its suit's run, or None after the ace."""
    index = RANKS.index(card[0])
    return RANKS[index + 1] + card[1] if index + 1 < len(RANKS) else None


def _order(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda card: (card[1], RANKS.index(card[0]))))


@dataclass(frozen=True, slots=True)
class StopsOptions:
    deals: int = 2


@dataclass(frozen=True, slots=True)
class StopsState:
    dealer: int
    dealt: tuple[tuple[str, ...], ...]
    hands: tuple[tuple[str, ...], ...]
    chips: tuple[int, ...]  # each seat's chips before the deal, antes paid
    crown: int  # chips on the crown
    leader: int  # who starts the run being played (or the next one)
    played: tuple[tuple[int, str], ...] = ()  # (seat, card), in order
    run: tuple[str, ...] = ()  # the run being played

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return any(not hand for hand in self.hands)

    @property
    def action_count(self) -> int:
        return len(self.played)

    @property
    def to_act(self) -> int | None:
        if self.is_over:
            return None
        if not self.run:
            return self.leader
        wanted = _next(self.run[-1])
        return next(seat for seat, hand in enumerate(self.hands) if wanted in hand)

    def legal_actions(self) -> list[str]:
        seat = self.to_act
        if seat is None:
            return []
        return list(self.hands[seat]) if not self.run else [_next(self.run[-1])]

    def apply(self, action: str, seat: int | None = None) -> StopsState:
        to_act = self.to_act
        if to_act is None:
            raise _refused("deal_over", "The deal is over.", seat, action)
        if seat is not None and seat != to_act:
            raise _refused("not_your_turn", "It is not your turn.", seat, action)
        legal = self.legal_actions()
        if action not in legal:
            text = Text("Only the %(card)s may be played now.", (("card", CardName(legal[0])),))
            raise _refused("next_in_run", "", to_act, action, legal, text)
        hands = tuple(
            tuple(c for c in hand if c != action) if s == to_act else hand for s, hand in enumerate(self.hands)
        )
        run = (*self.run, action)
        after = _next(action)
        if after is None or not any(after in hand for hand in hands):
            run = ()  # a stop: nobody holds the next card, and the last player starts a new run
        leader = to_act if not run else self.leader
        return replace(self, hands=hands, played=(*self.played, (to_act, action)), run=run, leader=leader)

    @property
    def winner(self) -> int | None:
        return next((seat for seat, hand in enumerate(self.hands) if not hand), None)

    def chips_won(self) -> tuple[int, ...]:
        """What each seat gains this deal: the winner a chip per card left in the others' hands,
        and the crown's chips if the winner played it."""
        winner = self.winner
        left = [len(hand) for hand in self.hands]
        gains = [-count for count in left]
        gains[winner] = sum(left)
        if (winner, CROWN) in self.played:
            gains[winner] += self.crown
        return tuple(gains)

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise ValueError("the deal is not over")
        return Outcome(values=tuple(float(g) for g in self.chips_won()), winners=(self.winner,))

    def view(self, viewer: Viewer, scores: tuple[int, ...] = ()) -> View:
        if viewer == EVERYONE and not self.is_over:
            raise HiddenCards("every hand is shown only once the deal is over")
        return _view(self, viewer, self)

    def replay(self, actions: Sequence[tuple[int | None, str]]) -> tuple[View, ...]:
        states = [self]
        for seat, action in actions:
            states.append(states[-1].apply(action, seat=seat))
        if not states[-1].is_over:
            raise HiddenCards("a deal is shown whole only once it is over")
        return tuple(_view(state, EVERYONE, states[-1]) for state in states)

    def public_record(self) -> dict[str, Any]:
        if not self.is_over:
            raise HiddenCards("a deal is shown whole only once it is over")
        setup = {"dealer": self.dealer, "hands": [list(h) for h in self.dealt], "chips": list(self.chips)}
        return {
            "game": STOPS.name,
            "setup": setup | {"crown": self.crown},
            "actions": [[seat, card] for seat, card in self.played],
        }


def _refused(rule: str, message: str, seat, action, legal=(), text: Text | None = None) -> IllegalPlay:
    return IllegalPlay(rule, message or rule, seat=seat, card=action, legal=list(legal), text=text or Text(message))


def _view(state: StopsState, viewer: Viewer, final: StopsState) -> View:
    everyone = viewer == EVERYONE
    mine = isinstance(viewer, int) and 0 <= viewer < state.players
    seats = tuple(
        SeatShown(
            seat=seat,
            in_hand=len(hand),
            played=tuple(Shown(card, seat) for s, card in state.played if s == seat),
            cards=_order(hand) if everyone else (),
        )
        for seat, hand in enumerate(state.hands)
    )
    areas = (
        Area("row", "run", Text("The run"), cards=tuple(Shown(card) for card in state.run)),
        Area("row", "crown", Text("The crown's chips"), cards=(Shown(BOODLE, counters=state.crown),)),
        Area("pile", "dead", Text("Dead hand"), count=12 - sum(len(hand) for hand in state.dealt)),
    )
    to_act = state.to_act
    legal = state.legal_actions() if mine and to_act == viewer else []
    if to_act is None:
        prompt = None
    elif mine and to_act == viewer:
        prompt = Text("Start a run: play any card.") if not state.run else Text("Play the next card of the run.")
    else:
        prompt = Text("Waiting for %(name)s.", (("name", SeatName(to_act)),))
    refusal = None
    if mine and state.hands[viewer] and len(legal) != len(state.hands[viewer]):
        refused = next(card for card in state.hands[viewer] if card not in legal)
        try:
            state.apply(refused, seat=viewer)
        except IllegalPlay as error:
            refusal = error.text
    winner = state.winner
    result = (
        Text("%(name)s went out and won deal %(number)d.", (("name", SeatName(winner)),))
        if winner is not None
        else None
    )
    return View(
        game=STOPS.name,
        viewer=viewer,
        players=state.players,
        dealer=state.dealer,
        to_act=to_act,
        seats=seats,
        hand=_order(state.hands[viewer]) if mine else (),
        playable=frozenset(legal),
        areas=areas,
        prompt=prompt,
        refusal=refusal,
        fresh=not state.played,
        over=state.is_over,
        result=result,
    )


@dataclass(frozen=True, slots=True)
class StopsMatch:
    players: int
    options: StopsOptions
    dealer: int
    chips: tuple[int, ...]
    crown: int = 0
    deals: int = 0

    @property
    def finished(self) -> bool:
        return self.deals >= self.options.deals

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, chips in enumerate(self.chips) if chips == max(self.chips))

    @property
    def scores(self) -> tuple[int, ...]:
        return self.chips

    def deal(self, rng: random.Random) -> StopsState:
        return STOPS.start(STOPS.setup(self, rng))

    def settle(self, deal: StopsState) -> StopsMatch:
        gains = deal.chips_won()
        taken = (deal.winner, CROWN) in deal.played
        return replace(
            self,
            chips=tuple(chips + gain for chips, gain in zip(deal.chips, gains, strict=True)),
            crown=0 if taken else deal.crown,
            dealer=(self.dealer + 1) % self.players,
            deals=self.deals + 1,
        )

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "chips": list(self.chips), "crown": self.crown, "deals": self.deals}


class CrownStops(Game):
    name = "crown-stops"
    title = "Crown Stops"
    summary = "Play the next card of the run, whoever holds it; first out wins."
    seat_counts = frozenset({3})
    options_schema = (Option("deals", "number", 2, "Deals", "How many deals the session has.", low=1, high=5),)

    def parse_options(self, raw: Mapping[str, Any] | None) -> StopsOptions:
        deals = dict(raw or {}).get("deals", 2)
        if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= 5:
            raise InvalidDeal("deals must be a whole number from 1 to 5")
        return StopsOptions(deals=deals)

    def describe(self, options: StopsOptions) -> tuple[Count, ...]:
        return (Count(options.deals, "%(count)d deal", "%(count)d deals"),)

    def seat_scores(self, match: StopsMatch, seat: int, deal: StopsState | None = None) -> tuple[Count, ...]:
        return (Count(match.chips[seat], "%(count)d chip", "%(count)d chips"),)

    def pot(self, match: StopsMatch, deal: StopsState | None) -> int | None:
        return deal.crown if deal is not None else match.crown

    def new_match(self, *, players: int, options: StopsOptions, rng: random.Random) -> StopsMatch:
        return StopsMatch(players=players, options=options, dealer=rng.randrange(players), chips=(CHIPS,) * players)

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: StopsOptions) -> StopsMatch:
        return StopsMatch(
            players=players,
            options=options,
            dealer=record["dealer"],
            chips=tuple(record["chips"]),
            crown=record.get("crown", 0),
            deals=record.get("deals", 0),
        )

    def setup(self, match: StopsMatch, rng: random.Random) -> dict[str, Any]:
        cards = list(DECK)
        rng.shuffle(cards)
        hands: list[list[str]] = [[] for _ in range(3)]
        for offset, size in enumerate(PACKETS):
            seat = (match.dealer + 1 + offset) % 3
            hands[seat] = cards[:size]
            del cards[:size]
        antes = tuple(chips - 1 for chips in match.chips)
        return {"dealer": match.dealer, "hands": hands, "chips": list(antes), "crown": match.crown + 3}

    def start(self, setup: Mapping[str, Any]) -> StopsState:
        try:
            hands = tuple(tuple(hand) for hand in setup["hands"])
            dealer, chips, crown = setup["dealer"], tuple(setup["chips"]), setup["crown"]
        except (KeyError, TypeError) as error:
            raise InvalidDeal(f"a crown stops setup needs dealer, hands, chips and crown ({error})") from None
        cards = [card for hand in hands for card in hand]
        if len(hands) != 3 or len(set(cards)) != len(cards) or not set(cards) <= set(DECK) or dealer not in range(3):
            raise InvalidDeal("three hands of distinct cards from the deck, and a dealer among them")
        return StopsState(dealer=dealer, dealt=hands, hands=hands, chips=chips, crown=crown, leader=(dealer + 1) % 3)

    def resample(self, view: View, rng: random.Random) -> StopsState:
        """Deal the cards the viewer cannot see (the others' hands and the dead hand) anew,
        keeping what everyone saw: who played what, and how many cards each holds."""
        seat = view.viewer
        seen = set(view.hand) | {p.card for s in view.seats for p in s.played}
        unseen = [card for card in DECK if card not in seen]
        rng.shuffle(unseen)
        hands = []
        for other in view.seats:
            if other.seat == seat:
                hands.append(tuple(view.hand))
            else:
                hands.append(tuple(unseen[: other.in_hand]))
                del unseen[: other.in_hand]
        run = tuple(p.card for p in view.area("run").cards)
        # The order of earlier plays does not change what is left to play: the run and the hands do.
        played = tuple((s.seat, p.card) for s in view.seats for p in s.played)
        return StopsState(
            dealer=view.dealer,
            dealt=tuple(hands),
            hands=tuple(hands),
            chips=(0,) * 3,
            crown=view.area("crown").cards[0].counters,
            leader=view.to_act,
            played=played,
            run=run,
        )


STOPS = CrownStops()
