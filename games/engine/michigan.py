"""Michigan (docs/rules/michigan.md §5): a stops game, played on the game protocol alone (no tricks).

The turn goes to whoever holds the next card of the running sequence, hands differ in size,
a widow is taken or sold, chips lie on four boodle cards and carry over from deal to deal, and
the first player out collects a chip for every card the others still hold.

Cards out of play (a hand swapped for the widow, an unsold widow) are never shown to anyone:
views, replays and public records leave them out; a public record lists that hand as ``[]`` and
replays it from the cards nobody else holds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from .cards import BIT, CARDS, INDEX, SUIT_MASK, SUITS, Card, NotationError, from_mask, parse_card
from .game import (
    EVERYONE,
    Area,
    CardName,
    CardNames,
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
    SuitName,
    Text,
    View,
    Viewer,
)
from .options import Option, gettext_noop, ngettext_noop

BOODLES: tuple[Card, ...] = ("AH", "KC", "QD", "JS")  # the layout, from a second deck
BOODLE_OF: dict[int, int] = {INDEX[card]: place for place, card in enumerate(BOODLES)}
BOODLE_CARDS = sum(BIT[card] for card in BOODLES)
ANTE = 2  # chips per boodle from every player, each deal
SPREAD = ANTE * len(BOODLES)  # what a player spreads with ``ante_spread``
TOP_BID = 10
DECK_MASK = (1 << 52) - 1

ANTE_PHASE, WIDOW_PHASE, BIDDING_PHASE, PLAY_PHASE, OVER_PHASE = "ante", "widow", "bidding", "play", "over"
TAKE, SELL, PASS = "take", "sell", "pass"
WIDOW = "widow"  # the record's key, and what the extra hand is called


def _spreads() -> tuple[str, ...]:
    """Every ``ante:a,b,c,d`` (whole numbers summing to 8), the even spread first."""
    parts = [p for p in product(range(SPREAD + 1), repeat=4) if sum(p) == SPREAD]
    even = (ANTE,) * 4
    parts.sort(key=lambda p: (p != even, p))
    return tuple("ante:" + ",".join(map(str, p)) for p in parts)


SPREADS = _spreads()
EVEN_SPREAD = SPREADS[0]
BIDS = tuple(f"bid:{n}" for n in range(1, TOP_BID + 1))


def spread_of(action: str) -> tuple[int, int, int, int] | None:
    """The four chips of an ``ante:a,b,c,d`` action, or None if it is not one."""
    if action not in _SPREAD_SET:
        return None
    a, b, c, d = (int(part) for part in action[5:].split(","))
    return a, b, c, d


_SPREAD_SET = frozenset(SPREADS)


def deal_sizes(players: int, dealer: int) -> tuple[tuple[int, ...], int]:
    """Cards each seat and the widow get: one at a time, the widow first (at the dealer's left),
    then the seats from the dealer's left round to the dealer."""
    hands = players + 1
    base, extra = divmod(52, hands)
    order = [WIDOW, *((dealer + 1 + step) % players for step in range(players))]
    sizes = dict.fromkeys(range(players), base)
    widow = base
    for place in order[:extra]:
        if place == WIDOW:
            widow += 1
        else:
            sizes[place] += 1
    return tuple(sizes[seat] for seat in range(players)), widow


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _suit_order(cards: int) -> tuple[Card, ...]:
    """A hand as shown: hearts, clubs, diamonds, spades (the layout's order), low to high."""
    return tuple(card for suit in (1, 3, 2, 0) for card in from_mask(cards & SUIT_MASK[suit]))


# -- options ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MichiganOptions:
    ante_spread: bool = False
    rounds: int = 1

    def as_record(self) -> dict[str, Any]:
        return {"ante_spread": self.ante_spread, "rounds": self.rounds}


# -- the deal -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MichiganState:
    """One deal at one moment. Masks of cards throughout; ``history`` is the deal's actions as
    (seat, action), kept for views and records but not part of the position (perft merges it)."""

    players: int
    dealer: int
    options: MichiganOptions
    dealt: tuple[int, ...]  # each seat's hand as dealt
    widow: int  # the widow as dealt
    carried: tuple[int, ...]  # chips on the boodles before this deal's antes
    phase: str
    hands: tuple[int, ...]  # the hands in play now (the widow once someone has it)
    layout: tuple[int, ...]  # chips on the boodles now
    chips: tuple[int, ...]  # each seat's gain this deal so far (antes paid are negative)
    to_act: int | None
    dead: int = 0  # out of play
    gone: int = 0  # played
    anted: int = 0  # spread antes put so far
    best: int = 0  # the best offer for the widow so far
    bidder: int | None = None
    asked: int = 0  # seats asked for an offer so far
    taker: int | None = None  # who has the widow
    price: int = 0
    run: int = -1  # the last card of the running sequence; -1: a new one is to start
    run_from: int = -1  # its first card
    barred: int = -1  # the suit a new sequence may not start in (the one just stopped)
    passes: int = 0  # passes in a row by seats that may not start
    went_out: int | None = None
    won: tuple[int | None, ...] = (None, None, None, None)  # who took each boodle this deal
    unrecorded: int = -1  # a public record left this hand out (a seat, or ``players`` for the widow)
    history: tuple[tuple[int, str], ...] = field(default=(), compare=False)

    # -- the protocol ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER_PHASE

    @property
    def action_count(self) -> int:
        return len(self.history)

    @property
    def game(self) -> str:
        return MICHIGAN.name

    def legal_actions(self) -> list[str]:
        phase = self.phase
        if phase == PLAY_PHASE:
            if self.run >= 0:
                return [CARDS[self.run + 1]]
            return [CARDS[card] for card in self._starts()] or [PASS]
        if phase == ANTE_PHASE:
            return list(SPREADS)
        if phase == WIDOW_PHASE:
            return [SELL, TAKE]
        if phase == BIDDING_PHASE:
            return [PASS, *BIDS[self.best :]]
        return []

    def _starts(self) -> list[int]:
        """The cards the seat to act may start a sequence with: its lowest of each suit it may start."""
        hand = self.hands[self.to_act]
        return [_lowest(hand & SUIT_MASK[suit]) for suit in range(4) if suit != self.barred and hand & SUIT_MASK[suit]]

    def apply(self, action: str, seat: int | None = None) -> MichiganState:
        to_act = self.to_act
        if to_act is None:
            raise _refused("deal_over", "The deal is over.", seat, action, [])
        if seat is not None and seat != to_act:
            raise _refused("not_your_turn", "It is not your turn.", seat, action, [])
        legal = self.legal_actions()
        if action not in legal:
            raise self._refusal(action, legal)
        phase = self.phase
        if phase == PLAY_PHASE:
            state = self._pass() if action == PASS else self._play(to_act, INDEX[action])
        elif phase == ANTE_PHASE:
            state = self._ante(to_act, spread_of(action))
        elif phase == WIDOW_PHASE:
            state = self._take() if action == TAKE else replace(self, phase=BIDDING_PHASE, to_act=self._left(to_act))
        else:
            state = self._offer(to_act, action)
        if state.unrecorded >= 0 and state.phase == PLAY_PHASE and not self._unrecorded_out(state):
            raise _refused("unrecorded_hand", "The record leaves out a hand that stays in play.", to_act, action, legal)
        return replace(state, history=(*self.history, (to_act, action)))

    def _left(self, seat: int) -> int:
        return (seat + 1) % self.players

    # -- antes and the widow ----------------------------------------------------------

    def _ante(self, seat: int, spread: tuple[int, int, int, int]) -> MichiganState:
        layout = tuple(chips + put for chips, put in zip(self.layout, spread, strict=True))
        chips = _add(self.chips, seat, -SPREAD)
        anted = self.anted + 1
        if anted < self.players:
            return replace(self, layout=layout, chips=chips, anted=anted, to_act=self._left(seat))
        return replace(self, layout=layout, chips=chips, anted=anted, phase=WIDOW_PHASE, to_act=self.dealer)

    def _take(self) -> MichiganState:
        dealer = self.dealer
        hands = list(self.hands)
        dead, hands[dealer] = hands[dealer], self.widow
        return self._to_play(hands, dead, taker=dealer, price=0)

    def _offer(self, seat: int, action: str) -> MichiganState:
        best, bidder = self.best, self.bidder
        if action != PASS:
            best, bidder = int(action[4:]), seat
        asked = self.asked + 1
        if asked < self.players - 1:
            return replace(self, best=best, bidder=bidder, asked=asked, to_act=self._left(seat))
        state = replace(self, best=best, bidder=bidder, asked=asked)
        hands = list(self.hands)
        if bidder is None:
            return state._to_play(hands, self.widow, taker=None, price=0)
        dead, hands[bidder] = hands[bidder], self.widow
        chips = _add(_add(self.chips, bidder, -best), self.dealer, best)
        return replace(state, chips=chips)._to_play(hands, dead, taker=bidder, price=best)

    def _to_play(self, hands: list[int], dead: int, *, taker: int | None, price: int) -> MichiganState:
        return replace(
            self,
            phase=PLAY_PHASE,
            hands=tuple(hands),
            dead=dead,
            taker=taker,
            price=price,
            to_act=self._left(self.dealer),
        )

    def _unrecorded_out(self, state: MichiganState) -> bool:
        """Whether the hand a public record left out went out of play, as it must have."""
        left_out = self.widow if self.unrecorded == self.players else self.dealt[self.unrecorded]
        return state.dead == left_out

    # -- play ---------------------------------------------------------------------

    def _play(self, seat: int, card: int) -> MichiganState:
        bit = 1 << card
        hands = list(self.hands)
        hands[seat] ^= bit
        layout, chips, won = self.layout, self.chips, self.won
        if bit & BOODLE_CARDS:
            place = BOODLE_OF[card]
            chips = _add(chips, seat, layout[place])
            layout = _set(layout, place, 0)
            won = _set(won, place, seat)
        played = replace(self, hands=tuple(hands), gone=self.gone | bit, layout=layout, chips=chips, won=won)
        run_from = card if self.run < 0 else self.run_from
        if not hands[seat]:
            paid = [hand.bit_count() for hand in hands]
            chips = tuple(c + (sum(paid) if s == seat else -paid[s]) for s, c in enumerate(chips))
            return replace(
                played, chips=chips, phase=OVER_PHASE, to_act=None, went_out=seat, run=card, run_from=run_from
            )
        holder = None
        if card % 13 != 12:
            after = bit << 1
            holder = next((s for s, hand in enumerate(hands) if hand & after), None)
        if holder is not None:
            return replace(played, run=card, run_from=run_from, to_act=holder, passes=0)
        # A stop: the player of the stopping card starts again, in another suit.
        return replace(played, run=-1, run_from=-1, to_act=seat, barred=card // 13, passes=0)

    def _pass(self) -> MichiganState:
        passes = self.passes + 1
        barred = -1 if passes == self.players else self.barred  # back to the stopper: the bar is dropped
        return replace(self, passes=passes, barred=barred, to_act=self._left(self.to_act))

    # -- refusals ---------------------------------------------------------------------

    def _run_start(self, legal: list[str]) -> Text:
        """Why a card may not start the new run, in words true of every card refused here: the
        page has one sentence for all of them (a card's own reason would name the wrong card for
        another), so it lists the cards that may start it."""
        cards = (("legal", CardNames(tuple(card for card in legal if card in INDEX))),)
        if self.barred < 0:
            return Text(gettext_noop("A run starts with your lowest card of a suit: %(legal)s."), cards)
        return Text(
            gettext_noop(
                "A new run starts with your lowest card of a suit but %(suit)s, the suit just stopped: %(legal)s."
            ),
            (("suit", SuitName(SUITS[self.barred])), *cards),
        )

    def _refusal(self, action: str, legal: list[str]) -> IllegalPlay:
        seat, phase = self.to_act, self.phase
        if phase == PLAY_PHASE:
            if action in INDEX and not self.hands[seat] & BIT[action]:
                return _refused("not_in_hand", "That card is not in your hand.", seat, action, legal)
            if self.run >= 0:
                wanted = CARDS[self.run + 1]
                return _refused(
                    "next_in_sequence",
                    f"Only the {wanted} may be played now: it is the next card of the run.",
                    seat,
                    action,
                    legal,
                    Text(
                        gettext_noop("Only the %(card)s may be played now: it is the next card of the run."),
                        (("card", CardName(wanted)),),
                    ),
                )
            if legal == [PASS]:
                suit = SUITS[self.barred]
                return _refused(
                    "stopped_suit",
                    "You hold only the suit just stopped: pass.",
                    seat,
                    action,
                    legal,
                    Text(
                        gettext_noop("You hold only %(suit)s, the suit just stopped: pass."),
                        (("suit", SuitName(suit)),),
                    ),
                )
            if self.barred >= 0 and action in INDEX and BIT[action] & SUIT_MASK[self.barred]:
                return _refused(
                    "stopped_suit",
                    "A new run may not start in the suit just stopped.",
                    seat,
                    action,
                    legal,
                    self._run_start(legal),
                )
            if action in INDEX:
                lowest = CARDS[_lowest(self.hands[seat] & SUIT_MASK[INDEX[action] // 13])]
                return _refused(
                    "lowest_of_suit",
                    f"A run starts with your lowest card of the suit: the {lowest}.",
                    seat,
                    action,
                    legal,
                    self._run_start(legal),
                )
            return _refused("play_a_card", "Play a card now.", seat, action, legal)
        if phase == ANTE_PHASE:
            return _refused(
                "ante_spread",
                "Spread 8 chips over the four boodles: ante:a,b,c,d, whole numbers summing to 8.",
                seat,
                action,
                legal,
                Text(gettext_noop("Spread 8 chips over the four boodles, whole numbers that add up to 8.")),
            )
        if phase == WIDOW_PHASE:
            return _refused(
                "take_or_sell",
                "The dealer takes the widow or sells it.",
                seat,
                action,
                legal,
                Text(gettext_noop("Take the widow or sell it.")),
            )
        if action.startswith("bid:") and action[4:].isdigit() and int(action[4:]) <= TOP_BID and self.best:
            return _refused(
                "offer_higher",
                f"Offer more than {self.best} chips, or pass.",
                seat,
                action,
                legal,
                Text(
                    gettext_noop("Offer more than the best offer so far (%(count)s), or pass."),
                    (("count", _chips(self.best)),),
                ),
            )
        return _refused(
            "offer_for_the_widow",
            "Offer 1 to 10 chips for the widow, or pass.",
            seat,
            action,
            legal,
            Text(gettext_noop("Offer 1 to 10 chips for the widow, or pass.")),
        )

    # -- the end --------------------------------------------------------------------

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise ValueError("the deal is not over")
        # Each seat's chips against the table's (the others' mean): a session is won by the best balance.
        total, others = sum(self.chips), self.players - 1
        values = tuple(chips - (total - chips) / others for chips in self.chips)
        return Outcome(values=values, winners=(self.went_out,))

    def result(self) -> dict[str, Any]:
        """The deal's result as docs/rules/michigan.md §11 words it (the record's ``result``)."""
        return {
            "went_out": self.went_out,
            "widow": {"taker": self.taker, "price": self.price},
            "cards_left": [bin(hand).count("1") for hand in self.hands],
            "boodles_won": dict(zip(BOODLES, self.won, strict=True)),
            "boodles": dict(zip(BOODLES, self.layout, strict=True)),
            "chips": list(self.chips),
        }

    def plays(self) -> list[dict[str, Any]]:
        return [{"seat": seat, "card": action} for seat, action in self.history if action in INDEX]

    # -- views ----------------------------------------------------------------------

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
        dead = self.dead
        return {
            "game": MICHIGAN.name,
            "options": self.options.as_record(),
            "dealer": self.dealer,
            "hands": [[] if hand == dead else from_mask(hand) for hand in self.dealt],
            WIDOW: [] if self.widow == dead else from_mask(self.widow),
            "boodles": dict(zip(BOODLES, self.carried, strict=True)),
            "actions": [action for _, action in self.history],
        }


def _add(values: tuple[int, ...], place: int, amount: int) -> tuple[int, ...]:
    return tuple(value + amount if i == place else value for i, value in enumerate(values))


def _set(values: tuple, place: int, value: Any) -> tuple:
    return tuple(value if i == place else old for i, old in enumerate(values))


def _chips(count: int) -> Count:
    return Count(count, *ngettext_noop("%(count)d chip", "%(count)d chips"))


def _refused(
    rule: str, message: str, seat: int | None, action: str, legal: list[str], text: Text | None = None
) -> IllegalPlay:
    return IllegalPlay(
        rule, message, seat=seat, card=action, legal=sorted(legal), text=text or Text(gettext_noop(message))
    )


# -- what a viewer sees ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clues:
    """What one seat knows of the deal, for its computer player (``View.detail``): the deal's
    public position (other hands, the widow and the cards out of play emptied) and what the
    rules told everyone of where the hidden cards lie."""

    position: MichiganState
    seat: int
    sizes: tuple[int, ...]  # cards in each hand now
    widow_size: int  # the widow, while it is still on the table
    dead_size: int
    known_dead: int  # out of play, as this seat knows (a stop with the next card unplayed; its own old hand)
    only_suit: tuple[int, ...]  # per seat: the suit it holds only (it had to pass), or -1
    not_below: tuple[tuple[int, ...], ...]  # per seat and suit: it holds no card of the suit below this index


def _view(state: MichiganState, viewer: Viewer, final: MichiganState) -> View:
    everyone = viewer == EVERYONE
    mine = isinstance(viewer, int) and 0 <= viewer < state.players
    shown_hands = state.phase != ANTE_PHASE  # nobody sees their cards before the antes are in
    sizes = _sizes(state)
    seats = tuple(
        SeatShown(
            seat=seat,
            in_hand=sizes[seat],
            tally=_tally(state, seat),
            cards=_suit_order(state.hands[seat] & ~final.dead) if everyone else (),
        )
        for seat in range(state.players)
    )
    to_act = state.to_act
    my_turn = mine and to_act == viewer
    legal = state.legal_actions() if my_turn else []
    hand = _suit_order(state.hands[viewer]) if mine and shown_hands else ()
    refusal = None
    if my_turn:  # the widow and the offers show the hand too: a card tapped then says why as well
        refused = next((card for card in hand if card not in legal), None)
        if refused is not None:
            refusal = state._refusal(refused, legal).text
    return View(
        game=MICHIGAN.name,
        viewer=viewer,
        players=state.players,
        dealer=state.dealer,
        to_act=to_act,
        seats=seats,
        hand=hand,
        playable=frozenset(action for action in legal if action in INDEX),
        choices=tuple(_choice(action) for action in legal if action not in INDEX),
        areas=_areas(state),
        log=_log(state),
        facts=_facts(state),
        prompt=_prompt(state, viewer, legal),
        refusal=refusal,
        fresh=not state.history,
        just_settled=state.phase == PLAY_PHASE and state.run < 0 and bool(state.gone),
        over=state.is_over,
        result=_result(state),
        detail=_clues(state, viewer) if mine else None,
    )


def _sizes(state: MichiganState) -> tuple[int, ...]:
    return tuple(bin(hand).count("1") for hand in state.hands)


def _tally(state: MichiganState, seat: int) -> tuple[Count, ...]:
    if not state.is_over:
        return ()
    change = state.chips[seat]
    if change < 0:
        return (Count(-change, *ngettext_noop("-%(count)d chip this deal", "-%(count)d chips this deal")),)
    return (Count(change, *ngettext_noop("+%(count)d chip this deal", "+%(count)d chips this deal")),)


def _choice(action: str) -> Choice:
    if action == TAKE:
        return Choice(
            action,
            Text(gettext_noop("Take the widow")),
            Text(gettext_noop("Your hand goes out of play and the widow becomes your hand.")),
        )
    if action == SELL:
        return Choice(
            action,
            Text(gettext_noop("Sell the widow")),
            Text(gettext_noop("The others may offer chips for it; the best offer pays you and swaps hands.")),
        )
    if action == PASS:
        return Choice(action, Text(gettext_noop("Pass")))
    if action.startswith("bid:"):
        return Choice(action, _chips(int(action[4:])))
    return Choice(action, _spread_said(spread_of(action)), primary=action == EVEN_SPREAD)


def _spread_said(spread: tuple[int, ...]) -> Text:
    """Chips on each boodle, named by its card: "A♥ 2 · K♣ 2 · Q♦ 2 · J♠ 2"."""
    return Text(
        gettext_noop("%(first)s %(a)d · %(second)s %(b)d · %(third)s %(c)d · %(fourth)s %(d)d"),
        (
            *zip(("first", "second", "third", "fourth"), (CardName(card) for card in BOODLES), strict=True),
            *zip("abcd", spread, strict=True),
        ),
    )


def _areas(state: MichiganState) -> tuple[Area, ...]:
    """The boodles with their chips, the widow and the cards out of play beside the header (counts
    only), and the cards played laid out by suit, the running sequence marked."""
    running = 0
    if state.run >= 0:
        running = ((1 << (state.run + 1)) - 1) ^ ((1 << state.run_from) - 1)
    boodles = tuple(Shown(card, counters=chips) for card, chips in zip(BOODLES, state.layout, strict=True))
    areas = [Area("row", "boodles", Text(gettext_noop("Boodles")), cards=boodles, beside=True)]
    if state.phase in (ANTE_PHASE, WIDOW_PHASE, BIDDING_PHASE):
        areas.append(Area("pile", WIDOW, Text(gettext_noop("Widow")), count=state.widow.bit_count(), beside=True))
    if state.dead:
        areas.append(
            Area("pile", "out-of-play", Text(gettext_noop("Out of play")), count=state.dead.bit_count(), beside=True)
        )
    played = tuple(
        Shown(CARDS[index], marked=bool(running >> index & 1))
        for suit in (1, 3, 2, 0)
        for index in range(13 * suit, 13 * suit + 13)
        if state.gone >> index & 1
    )
    areas.append(Area("layout", "played", Text(gettext_noop("Cards played, by suit")), cards=played))
    return tuple(areas)


def _log(state: MichiganState) -> tuple[Text, ...]:
    """The deal's public record: antes spread, the widow's fate, offers, passes, boodles taken."""
    said: list[Text] = []
    offers = 0  # offers still to come for a widow on sale
    for seat, action in state.history:
        name = (("name", SeatName(seat)),)
        if action.startswith("ante:"):
            spread = (("spread", _spread_said(spread_of(action))),)
            said.append(Text(gettext_noop("%(name)s puts chips on the boodles: %(spread)s."), (*name, *spread)))
        elif action == TAKE:
            said.append(Text(gettext_noop("%(name)s takes the widow."), name))
        elif action == SELL:
            said.append(Text(gettext_noop("%(name)s sells the widow."), name))
            offers = state.players - 1
        elif offers:
            offers -= 1
            if action == PASS:
                said.append(Text(gettext_noop("%(name)s passes."), name))
            else:
                said.append(
                    Text(gettext_noop("%(name)s offers %(count)s."), (*name, ("count", _chips(int(action[4:])))))
                )
        elif action == PASS:
            said.append(Text(gettext_noop("%(name)s cannot start a new run and passes."), name))
        elif BIT[action] & BOODLE_CARDS:
            said.append(
                Text(
                    gettext_noop("%(name)s plays the %(card)s and takes its boodle."),
                    (*name, ("card", CardName(action))),
                )
            )
    return tuple(said)


def _facts(state: MichiganState) -> tuple[tuple[str, Text], ...]:
    if state.phase in (ANTE_PHASE, WIDOW_PHASE, BIDDING_PHASE):
        return ()
    if state.taker is None:
        return ((WIDOW, Text(gettext_noop("Nobody bought the widow: it is out of play."))),)
    if state.taker == state.dealer and not state.price:
        return ((WIDOW, Text(gettext_noop("%(name)s took the widow."), (("name", SeatName(state.taker)),))),)
    return (
        (
            WIDOW,
            Text(
                gettext_noop("%(name)s bought the widow for %(count)s."),
                (("name", SeatName(state.taker)), ("count", _chips(state.price))),
            ),
        ),
    )


def _prompt(state: MichiganState, viewer: Viewer, legal: list[str]) -> Text | None:
    seat = state.to_act
    if seat is None:
        return None
    mine = viewer == seat
    name = (("name", SeatName(seat)),)
    phase = state.phase
    if phase == ANTE_PHASE:
        if mine:
            return Text(gettext_noop("Spread your 8 chips over the four boodles, before you see your cards."))
        return Text(gettext_noop("%(name)s is putting chips on the boodles."), name)
    if phase == WIDOW_PHASE:
        if mine:
            return Text(gettext_noop("Take the widow (your hand goes out of play) or sell it to the others."))
        return Text(gettext_noop("%(name)s decides whether to take the widow or sell it."), name)
    if phase == BIDDING_PHASE:
        if mine:
            return Text(gettext_noop("Offer chips for the widow, or pass."))
        return Text(gettext_noop("%(name)s may offer chips for the widow."), name)
    if state.run >= 0:
        card = (("card", CardName(CARDS[state.run + 1])),)
        if mine:
            return Text(gettext_noop("Play the %(card)s: it is the next card of the run."), card)
        return Text(gettext_noop("%(name)s holds the %(card)s."), (*name, *card))
    if mine and legal == [PASS]:
        return Text(
            gettext_noop("You hold only %(suit)s, the suit just stopped: pass."),
            (("suit", SuitName(SUITS[state.barred])),),
        )
    if mine and state.barred >= 0:
        return Text(
            gettext_noop("Start a new run: your lowest card of any suit but %(suit)s."),
            (("suit", SuitName(SUITS[state.barred])),),
        )
    if mine:
        return Text(gettext_noop("Start a run: your lowest card of any suit."))
    return Text(gettext_noop("%(name)s starts a new run."), name)


def _result(state: MichiganState) -> Text | None:
    if not state.is_over:
        return None
    collected = sum(bin(hand).count("1") for hand in state.hands)
    return Text(
        gettext_noop(
            "%(name)s went out first in deal %(number)d and collects %(count)s for the cards left. "
            "This deal: %(changes)s."
        ),
        (("name", SeatName(state.went_out)), ("count", _chips(collected)), ("changes", _settlement(state))),
    )


def _settlement(state: MichiganState) -> Text:
    """Each seat's chips won or lost in the deal, in seat order: "Anna +14, Bo -3, Cleo -9"."""
    said = None
    for seat in reversed(range(state.players)):
        change = Text(
            gettext_noop("%(name)s %(change)s"), (("name", SeatName(seat)), ("change", f"{state.chips[seat]:+d}"))
        )
        said = (
            change if said is None else Text(gettext_noop("%(first)s, %(rest)s"), (("first", change), ("rest", said)))
        )
    return said


def _clues(state: MichiganState, seat: int) -> Clues:
    """What the rules have told ``seat``: every pass says the passer holds only the stopped suit, every
    start that the starter held nothing lower in that suit, every stop that the next card is out of
    play (unless it was played); and a seat that swapped its hand for the widow knows its old one."""
    players = state.players
    only = [-1] * players
    below = [[0, 0, 0, 0] for _ in range(players)]
    known_dead = state.dead if state.taker == seat and state.phase in (PLAY_PHASE, OVER_PHASE) else 0
    cards = [(actor, INDEX[action]) for actor, action in state.history if action in INDEX]
    gone, barred, starting, at = 0, -1, True, 0
    for actor, action in state.history:
        if action == PASS and gone and starting:
            only[actor] = barred
        if action not in INDEX:
            continue
        card = INDEX[action]
        if starting:
            below[actor][card // 13] = max(below[actor][card // 13], card % 13)
        gone |= 1 << card
        at += 1
        following = cards[at][1] if at < len(cards) else None
        stopped = state.run < 0 if following is None else following != card + 1 or card % 13 == 12
        starting = stopped
        if stopped:
            barred = card // 13
            if card % 13 != 12 and not gone & (1 << (card + 1)):
                known_dead |= 1 << (card + 1)
    hidden = tuple(hand if s == seat and state.phase != ANTE_PHASE else 0 for s, hand in enumerate(state.hands))
    on_table = state.phase in (ANTE_PHASE, WIDOW_PHASE, BIDDING_PHASE)
    position = replace(state, hands=hidden, dead=0, widow=0, dealt=(0,) * players)
    return Clues(
        position=position,
        seat=seat,
        sizes=_sizes(state),
        widow_size=bin(state.widow).count("1") if on_table else 0,
        dead_size=bin(state.dead).count("1"),
        known_dead=known_dead,
        only_suit=tuple(only),
        not_below=tuple(tuple(row) for row in below),
    )


# -- the session -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MichiganMatch:
    players: int
    options: MichiganOptions
    dealer: int
    balances: tuple[int, ...]
    boodles: tuple[int, ...] = (0, 0, 0, 0)  # chips lying on the layout between deals
    deals: int = 0

    @property
    def leaders(self) -> tuple[int, ...]:
        top = max(self.balances)
        return tuple(seat for seat, chips in enumerate(self.balances) if chips == top)

    @property
    def finished(self) -> bool:
        """Everyone has dealt ``rounds`` times and one balance leads alone (a tie plays on)."""
        return self.deals >= self.options.rounds * self.players and len(self.leaders) == 1

    @property
    def winners(self) -> tuple[int, ...]:
        return self.leaders

    @property
    def scores(self) -> tuple[int, ...]:
        return self.balances

    def deal(self, rng: random.Random) -> MichiganState:
        return MICHIGAN.start(MICHIGAN.setup(self, rng))

    def settle(self, deal: MichiganState) -> MichiganMatch:
        return replace(
            self,
            balances=tuple(chips + gain for chips, gain in zip(self.balances, deal.chips, strict=True)),
            boodles=deal.layout,
            dealer=(self.dealer + 1) % self.players,
            deals=self.deals + 1,
        )

    def to_record(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "balances": list(self.balances),
            "boodles": list(self.boodles),
            "deals": self.deals,
        }


def _chips_said(balance: int) -> Count:
    if balance < 0:
        return Count(-balance, *ngettext_noop("-%(count)d chip", "-%(count)d chips"))
    return _chips(balance)


class Michigan(Game):
    name = "michigan"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Michigan")
    summary = gettext_noop(
        "Play the next card of the run, whoever holds it: take the chips on the boodles and be first out."
    )
    seat_counts = frozenset(range(3, 9))
    options_schema = (
        Option(
            "rounds",
            "number",
            1,
            gettext_noop("Rounds"),
            gettext_noop("How many times each player deals in the session."),
            low=1,
            high=4,
        ),
        Option(
            "ante_spread",
            "flag",
            False,
            gettext_noop("Spread the ante"),
            gettext_noop("Each player spreads 8 chips over the boodles as they like, before seeing their cards."),
        ),
    )
    # The leaderboard counts sessions won and chips; a deal's winner is only who went out first.
    counts_deals_won = False
    deal_winner_label = gettext_noop("Went out first")

    def parse_options(self, raw: Mapping[str, Any] | None) -> MichiganOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"ante_spread", "rounds"}
        if unknown:
            raise InvalidDeal(f"unknown michigan options: {', '.join(sorted(unknown))}")
        spread, rounds = raw.get("ante_spread", False), raw.get("rounds", 1)
        if not isinstance(spread, bool):
            raise InvalidDeal("ante_spread must be true or false")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 4:
            raise InvalidDeal("rounds must be a whole number from 1 to 4")
        return MichiganOptions(ante_spread=spread, rounds=rounds)

    def describe(self, options: MichiganOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [
            Count(options.rounds, *ngettext_noop("each deals %(count)d time", "each deals %(count)d times"))
        ]
        if options.ante_spread:
            said.append(Text(gettext_noop("antes spread")))
        return tuple(said)

    # -- a session -------------------------------------------------------------------

    def new_match(self, *, players: int, options: MichiganOptions, rng: random.Random) -> MichiganMatch:
        if players not in self.seat_counts:
            raise InvalidDeal("Michigan is played by 3 to 8 players")
        return MichiganMatch(players=players, options=options, dealer=rng.randrange(players), balances=(0,) * players)

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: MichiganOptions) -> MichiganMatch:
        return MichiganMatch(
            players=players,
            options=options,
            dealer=record["dealer"],
            balances=tuple(record.get("balances", (0,) * players)),
            boodles=tuple(record.get("boodles", (0, 0, 0, 0))),
            deals=record.get("deals", 0),
        )

    def setup(self, match: MichiganMatch, rng: random.Random) -> dict[str, Any]:
        """The whole deck, one card at a time: the widow first, then from the dealer's left round."""
        cards = list(CARDS)
        rng.shuffle(cards)
        players, dealer = match.players, match.dealer
        places = [WIDOW, *((dealer + 1 + step) % players for step in range(players))]
        hands: dict[Any, list[Card]] = {place: [] for place in places}
        for count, card in enumerate(cards):
            hands[places[count % len(places)]].append(card)
        return {
            "game": self.name,
            "options": match.options.as_record(),
            "dealer": dealer,
            "hands": [hands[seat] for seat in range(players)],
            WIDOW: hands[WIDOW],
            "boodles": dict(zip(BOODLES, match.boodles, strict=True)),
        }

    def start(self, setup: Mapping[str, Any]) -> MichiganState:
        options = self.parse_options(setup.get("options"))
        hands, widow, dealer = setup.get("hands"), setup.get(WIDOW), setup.get("dealer")
        if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
            raise InvalidDeal("hands must be a list of lists of cards, from seat 0")
        players = len(hands)
        if players not in self.seat_counts:
            raise InvalidDeal("Michigan is played by 3 to 8 players")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise InvalidDeal(f"dealer must be a seat from 0 to {players - 1}")
        if not isinstance(widow, list):
            raise InvalidDeal("widow must list its cards")
        try:
            masks = [_mask_of([parse_card(card) for card in hand]) for hand in (*hands, widow)]
        except NotationError as error:
            raise InvalidDeal(str(error)) from None
        sizes, widow_size = deal_sizes(players, dealer)
        wanted = (*sizes, widow_size)
        every = 0
        for mask in masks:
            if every & mask:
                raise InvalidDeal("every card is dealt once")
            every |= mask
        unrecorded = -1
        if every != DECK_MASK:
            empty = [place for place, mask in enumerate(masks) if not mask]
            if len(empty) != 1 or bin(DECK_MASK & ~every).count("1") != wanted[empty[0]]:
                raise InvalidDeal("the hands and the widow hold the whole deck (one hand out of play may be [])")
            unrecorded = empty[0]
            masks[unrecorded] = DECK_MASK & ~every
        if tuple(bin(mask).count("1") for mask in masks) != wanted:
            raise InvalidDeal(
                f"dealt one at a time from the widow at the dealer's left: hands of {list(sizes)}, a widow of "
                f"{widow_size}"
            )
        carried = _boodles(setup.get("boodles"))
        dealt = tuple(masks[:players])
        first = MichiganState(
            players=players,
            dealer=dealer,
            options=options,
            dealt=dealt,
            widow=masks[players],
            carried=carried,
            phase=ANTE_PHASE,
            hands=dealt,
            layout=carried,
            chips=(0,) * players,
            to_act=dealer,
            unrecorded=unrecorded,
        )
        if options.ante_spread:
            return first
        return replace(
            first,
            phase=WIDOW_PHASE,
            layout=tuple(chips + ANTE * players for chips in carried),
            chips=(-SPREAD,) * players,
            anted=players,
        )

    # -- the site's words --------------------------------------------------------------

    def seat_scores(self, match: MichiganMatch, seat: int, deal: MichiganState | None = None) -> tuple[Count, ...]:
        """The balance, with this deal's gains so far while it is played (boodles taken, a sale)."""
        balance = match.balances[seat]
        if deal is not None and not deal.is_over and len(deal.chips) == match.players:
            balance += deal.chips[seat]
        return (_chips_said(balance),)

    def match_facts(self, match: MichiganMatch) -> tuple[Text, ...]:
        """At the end, why chips still lie on the boodles: nobody takes them."""
        left = sum(match.boodles)
        if not match.finished or not left:
            return ()
        return (
            Text(
                gettext_noop("%(count)s stay on the boodles: they are not shared out, since everyone put in the same."),
                (("count", _chips(left)),),
            ),
        )

    def pot(self, match: MichiganMatch, deal: MichiganState | None) -> int | None:
        return sum(deal.layout) if deal is not None and not deal.is_over else sum(match.boodles)

    def extra_deal(self, match: MichiganMatch) -> tuple[int, ...] | None:
        if match.deals >= match.options.rounds * match.players and len(match.leaders) > 1:
            return match.leaders
        return None

    def ranking(self, match: MichiganMatch) -> tuple[float, ...]:
        return tuple(float(chips) for chips in match.balances)

    # -- computer players -----------------------------------------------------------------

    has_rule_of_thumb = True

    def thumb_decides(self, view: View) -> bool:
        """Antes are spread evenly: before anyone sees a card, every spread is worth the same."""
        return view.detail is not None and view.detail.position.phase == ANTE_PHASE

    def rule_of_thumb(self, state: MichiganState) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat, phase = state.to_act, state.phase
        hand = state.hands[seat]
        if phase == ANTE_PHASE:
            return EVEN_SPREAD
        if phase == WIDOW_PHASE:
            return TAKE if _hand_worth(hand, state) < _widow_worth(state) else SELL
        if phase == BIDDING_PHASE:
            offer = state.best + 1
            gain = _widow_worth(state) - _hand_worth(hand, state)
            return f"bid:{offer}" if offer <= min(TOP_BID, int(gain * CHIPS_PER_RUN)) else PASS
        return max(legal, key=lambda card: _start_worth(state, hand, INDEX[card]))

    def resample(self, view: View, rng: random.Random) -> MichiganState:
        """Deal the cards ``view``'s seat cannot see anew, as the rules have placed them: the next card
        of the run with the seat to play it, a passer's hand in the stopped suit, nothing below a
        starter's start card in its suit, the cards a stop showed out of play out of play."""
        known: Clues = view.detail
        position, seat = known.position, known.seat
        hands = list(position.hands)
        pool = DECK_MASK & ~hands[seat] & ~position.gone & ~known.known_dead
        open_seats = [s for s in range(position.players) if known.sizes[s] and not hands[s]]
        if position.phase == PLAY_PHASE and position.run >= 0 and position.to_act != seat:
            forced = 1 << (position.run + 1)
            hands[position.to_act] |= forced
            pool &= ~forced
        allowed = [_allowed(known, s) for s in range(position.players)]
        dealt = _deal_under(hands, open_seats, allowed, known.sizes, pool, rng)
        if dealt is None:  # the rules' hints could not all be kept (they always can in a true deal)
            dealt = _deal_under(hands, open_seats, [DECK_MASK] * position.players, known.sizes, pool, rng)
        hands, rest = dealt
        if position.phase in (ANTE_PHASE, WIDOW_PHASE, BIDDING_PHASE):
            return replace(position, hands=tuple(hands), widow=rest, dealt=tuple(hands))
        return replace(position, hands=tuple(hands), dead=rest | known.known_dead)

    def replay_result(self, record: Mapping[str, Any], first: MichiganState, last: MichiganState) -> dict[str, Any]:
        """What ``python -m games.engine replay`` prints: the cards played and, once over, the result."""
        return {"plays": last.plays(), "result": last.result() if last.is_over else None}


CHIPS_PER_RUN = 1.5  # what a run fewer in the hand is worth, roughly: a bid's ceiling


def _runs(hand: int) -> int:
    """Runs of consecutive cards in ``hand``: each needs a start of its own to be got rid of."""
    return bin(hand & ~(hand << 1 & ~SUITS_LOW)).count("1")


SUITS_LOW = sum(1 << (13 * suit) for suit in range(4))  # the twos: a run below them is another suit's


def _expected_runs(cards: int) -> float:
    """Runs in a random hand of ``cards`` cards: a card starts one unless the card below is held too."""
    return cards * (1 / 13 + 12 / 13 * (1 - (cards - 1) / 51))


def _hand_worth(hand: int, state: MichiganState) -> float:
    """A hand's promise, in runs it saves against an average hand; boodles held count for their chips."""
    size = bin(hand).count("1")
    boodles = sum(chips for place, chips in enumerate(state.layout) if hand & BIT[BOODLES[place]])
    return _expected_runs(size) - _runs(hand) + boodles / (2 * SPREAD)


def _widow_worth(state: MichiganState) -> float:
    """An unseen widow is an average hand of its size."""
    return 0.0


def _start_worth(state: MichiganState, hand: int, card: int) -> float:
    """How good a start ``card`` is: the run it lets this hand play by itself, a stop it keeps (an
    ace, or the next card already played), and the chips on boodles on the way."""
    worth, gone = 0.0, state.gone
    while True:
        worth += 1 + (state.layout[BOODLE_OF[card]] / 2 if card in BOODLE_OF else 0)
        if card % 13 == 12 or gone & (1 << (card + 1)):
            return worth + 3  # a stop this hand makes: it starts again
        if not hand & (1 << (card + 1)):
            return worth - _boodles_above(state, card) / 4
        card += 1


def _boodles_above(state: MichiganState, card: int) -> int:
    """Chips on a boodle of the suit above ``card`` that someone else may take as the run goes on."""
    return sum(
        state.layout[BOODLE_OF[boodle]]
        for boodle in BOODLE_OF
        if boodle // 13 == card // 13 and boodle > card and not state.gone & (1 << boodle)
    )


def _allowed(known: Clues, seat: int) -> int:
    mask = DECK_MASK if known.only_suit[seat] < 0 else SUIT_MASK[known.only_suit[seat]]
    for suit, rank in enumerate(known.not_below[seat]):
        mask &= ~(((1 << rank) - 1) << (13 * suit))
    return mask


def _deal_under(
    hands: list[int], seats: list[int], allowed: list[int], sizes: tuple[int, ...], pool: int, rng: random.Random
) -> tuple[list[int], int] | None:
    """Fill ``seats`` up to their sizes from ``pool`` within ``allowed``, most constrained first; what is
    left over is returned beside the hands. None if the constraints cannot be met in a few tries."""
    for _ in range(12):
        dealt, left = list(hands), pool
        order = sorted(seats, key=lambda s: ((allowed[s] & pool).bit_count() - sizes[s], rng.random()))
        for seat in order:
            need = sizes[seat] - dealt[seat].bit_count()
            choices = [i for i in range(52) if (allowed[seat] & left) >> i & 1]
            if len(choices) < need:
                break
            for index in rng.sample(choices, need):
                dealt[seat] |= 1 << index
                left &= ~(1 << index)
        else:
            return dealt, left
    return None


def _mask_of(cards: list[Card]) -> int:
    mask = 0
    for card in cards:
        if mask & BIT[card]:
            raise InvalidDeal(f"{card} is dealt twice")
        mask |= BIT[card]
    return mask


def _boodles(raw: Any) -> tuple[int, ...]:
    if raw is None:
        return (0, 0, 0, 0)
    if not isinstance(raw, Mapping) or set(raw) - set(BOODLES):
        raise InvalidDeal('boodles maps AH, KC, QD and JS to the chips on them, e.g. {"AH": 2}')
    chips = tuple(raw.get(card, 0) for card in BOODLES)
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in chips):
        raise InvalidDeal("the chips on a boodle are a whole number, 0 or more")
    return chips


MICHIGAN = Michigan()
