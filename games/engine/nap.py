"""Nap (Napoleon): bid how many of the five tricks you will take; your first lead names trump
(docs/rules/nap.md).

The deal opens with one round of bids, left of the dealer first and the dealer last; every
seat bids exactly once (``pass`` included, also when nothing higher is left). The highest
bidder leads, and the suit of that first card is trump. Chips settle between the bidder and
each other player alone, so a deal's changes always sum to zero.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cards import Card, deck
from .game import Count, IllegalPlay, InvalidDeal, SeatName, Text
from .options import Option, gettext_noop, ngettext_noop, pgettext_noop
from .tricks.auction import AuctionGame
from .tricks.deal import DealState, Trick

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

PASS = "pass"
LADDER = ("bid:1", "bid:2", "bid:3", "bid:4", "nap", "wellington", "blucher")
NEEDED = {"bid:1": 1, "bid:2": 2, "bid:3": 3, "bid:4": 4, "nap": 5, "wellington": 5, "blucher": 5}
# (what each other player pays a bidder who makes it, what the bidder pays each one on failing)
STAKES = {"bid:1": (1, 1), "bid:2": (2, 2), "bid:3": (3, 3), "bid:4": (4, 4), "nap": (10, 5)}
STAKES |= {"wellington": (10, 10), "blucher": (10, 20)}
# Each of these may be bid only while the highest bid so far is the one named.
ONLY_AFTER = {"wellington": "nap", "blucher": "wellington"}


@dataclass(frozen=True, slots=True)
class NapOptions:
    wellington_blucher: bool = False
    rounds: int = 2  # every player deals this many times (thrown-in deals count)

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        return {"wellington_blucher": self.wellington_blucher} | ({"rounds": self.rounds} if self.rounds != 2 else {})


class Nap(AuctionGame):
    name = "nap"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Nap")
    summary = gettext_noop(
        "Bid how many of five tricks you will take; your first lead names trump. Chips change hands."
    )
    min_players = 2
    max_players = 6
    packets = (3, 2)
    counts_tricks = True

    options_schema = (
        Option(
            "wellington_blucher",
            "flag",
            False,
            gettext_noop("Wellington and Blücher"),
            gettext_noop("Two bids above Nap: Wellington (only after a Nap bid) and Blücher (only after Wellington)."),
        ),
        Option(
            "rounds",
            "number",
            2,
            gettext_noop("Rounds"),
            gettext_noop("Everyone deals this many times; then the highest balance of chips wins."),
            low=1,
            high=5,
        ),
    )

    def describe(self, options: NapOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [Count(options.rounds, *ngettext_noop("%(count)d round", "%(count)d rounds"))]
        if options.wellington_blucher:
            said.append(Text(gettext_noop("with Wellington and Blücher")))
        return tuple(said)

    def parse_options(self, raw: Mapping[str, Any] | None) -> NapOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"wellington_blucher", "rounds"}
        if unknown:
            raise InvalidDeal(f"unknown nap options: {', '.join(sorted(unknown))}")
        flag = raw.get("wellington_blucher", False)
        rounds = raw.get("rounds", 2)
        if not isinstance(flag, bool):
            raise InvalidDeal("wellington_blucher must be true or false")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 5:
            raise InvalidDeal("rounds must be a whole number from 1 to 5")
        return NapOptions(wellington_blucher=flag, rounds=rounds)

    def deck(self, players: int) -> tuple[Card, ...]:
        if not self.min_players <= players <= self.max_players:
            raise InvalidDeal(f"nap is for 2 to 6 players, not {players}")
        return deck("23456789TJQKA")

    # -- the auction ---------------------------------------------------------------

    def start_hands(
        self,
        *,
        dealt: Sequence[Sequence[Card]],
        dealer: int,
        options: NapOptions,
        trump: str | None = None,
        upcard: str | None = None,
    ) -> DealState:
        """The deal before its first bid: no trick yet (the highest bidder leads it)."""
        if trump is not None:
            raise InvalidDeal("in nap the bidder's first card names trump")
        return replace(super().start_hands(dealt=dealt, dealer=dealer, options=options, upcard=upcard), trick=None)

    def auction_to_act(self, state: DealState) -> int | None:
        bids = len(state.calls)
        return state.seat_after(state.dealer, bids + 1) if bids < len(state.seats) else None

    def legal_actions(self, state: DealState) -> list[str]:
        if state.is_over:
            return []
        if state.trick is None:
            return [PASS, *self._higher_bids(state)]
        return state.legal_cards()

    def _higher_bids(self, state: DealState) -> list[str]:
        ladder = LADDER if state.options.wellington_blucher else LADDER[:5]
        highest = _highest(state.calls)
        above = ladder[ladder.index(highest) + 1 :] if highest else ladder
        return [bid for bid in above if ONLY_AFTER.get(bid, highest) == highest]

    def call(self, state: DealState, action: str) -> DealState:
        legal = self.legal_actions(state)
        if action not in legal:
            raise IllegalPlay(
                _why_not(action, state), f"{action} is not a legal bid now", seat=state.to_act, card=action, legal=legal
            )
        calls = (*state.calls, action)
        if len(calls) < len(state.seats):
            return replace(state, calls=calls)
        highest = _highest(calls)
        if highest is None:
            return replace(state, calls=calls, thrown_in=True)
        bidder = state.seat_after(state.dealer, calls.index(highest) + 1)
        return replace(state, calls=calls, contract=(bidder, highest), trick=Trick(leader=bidder))

    def play(self, state: DealState, card: Card, seat: int | None = None) -> DealState:
        """The deal's first card names trump; after that, follow suit if you can."""
        if card == PASS or card in LADDER:
            raise IllegalPlay(
                "bidding_over", "the bidding is over: play a card", seat=state.to_act, card=card, legal=[]
            )
        if state.trump is None and state.trick is not None and not state.tricks and not state.trick.cards:
            to_act = state.to_act
            if card in state.hand(to_act) and (seat is None or seat == to_act):
                state = replace(state, trump=card[1])
        return super().play(state, card, seat)

    # -- words for the table --------------------------------------------------------

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        if action == PASS:
            return Text(gettext_noop("Pass")), None
        win, loss = STAKES[action]
        meaning = Text(
            gettext_noop(
                "Take at least %(tricks)s: each other player pays you %(win)s; if not, you pay each %(loss)s."
            ),
            (("tricks", _tricks(NEEDED[action])), ("win", _chips(win)), ("loss", _chips(loss))),
        )
        label = (
            Text(BID_NAMES[action], context="bid")
            if action in BID_NAMES
            else Text(gettext_noop("Bid %(tricks)d"), (("tricks", NEEDED[action]),))
        )
        return label, meaning

    def call_said(self, deal: DealState | SeatView, index: int) -> Text:
        call = deal.calls[index]
        if call == PASS:
            return Text(gettext_noop("%(name)s passes."))
        return Text(gettext_noop("%(name)s bids %(bid)s."), (("bid", bid_name(call)),))

    def duty_said(self, seen: SeatView) -> Text | None:
        """The bidder's first card names trump, and the prompt says so."""
        if seen.trump is None and seen.trick is not None and not seen.trick.cards and not seen.tricks:
            return Text(gettext_noop("Your lead: play any card; its suit becomes trump."))
        return None

    def auction_prompt(self, view: SeatView) -> Text:
        if view.actions == (PASS,):
            return Text(gettext_noop("Nothing higher is left to bid: pass."))
        return Text(gettext_noop("Your bid: how many of the five tricks will you take? Your first lead names trump."))

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        if view.contract is not None:
            bidder, bid = view.contract
            said = gettext_noop("%(name)s bid %(bid)s and must take %(tricks)s.")
            return (Text(said, (("name", SeatName(bidder)), ("bid", bid_name(bid)), ("tricks", _tricks(NEEDED[bid])))),)
        highest = _highest(view.calls)
        if highest is None:
            return (Text(gettext_noop("No bid yet.")),)
        bidder = (view.dealer + 1 + list(view.calls).index(highest)) % view.players
        return (
            Text(
                gettext_noop("Highest bid: %(bid)s by %(name)s."),
                (("bid", bid_name(highest)), ("name", SeatName(bidder))),
            ),
        )

    def deal_result(self, deal: DealState) -> Text:
        if deal.thrown_in:
            return Text(gettext_noop("Everyone passed: deal %(number)d is thrown in, the next player deals."))
        bidder, bid = deal.contract
        taken = sum(trick.winner == bidder for trick in deal.tricks)
        change = abs(self.chips(deal)[bidder]) // (len(deal.seats) - 1)
        params = (
            ("name", SeatName(bidder)),
            ("bid", bid_name(bid)),
            ("tricks", _tricks(taken)),
            ("chips", _chips(change)),
        )
        if taken >= NEEDED[bid]:
            return Text(
                gettext_noop(
                    "%(name)s made %(bid)s with %(tricks)s and gets %(chips)s from each player (deal %(number)d)."
                ),
                params,
            )
        return Text(
            gettext_noop(
                "%(name)s took %(tricks)s, not enough for %(bid)s, and pays each player %(chips)s (deal %(number)d)."
            ),
            params,
        )

    # -- settling -----------------------------------------------------------------

    def chips(self, state: DealState) -> tuple[int, ...]:
        """Each seat's change of chips from a finished deal (all zero when it was thrown in)."""
        if not state.is_over:
            raise InvalidDeal("the deal is not over")
        change = [0] * state.players
        if state.thrown_in:
            return tuple(change)
        bidder, bid = state.contract
        made = sum(trick.winner == bidder for trick in state.tricks) >= NEEDED[bid]
        win, loss = STAKES[bid]
        for other in state.seats:
            if other != bidder:
                amount = win if made else -loss
                change[bidder] += amount
                change[other] -= amount
        return tuple(change)

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        bidder, bid = state.contract
        return {
            "bidder": bidder,
            "contract": bid,
            "trump": state.trump,
            "tricks_won": [sum(t.winner == seat for t in state.tricks) for seat in range(state.players)],
            "chips": list(self.chips(state)),
        }

    def deal_score(self, state: DealState, seat: int) -> float:
        return float(self.chips(state)[seat] > 0)

    def seat_scores(self, match: NapMatch, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        return (Count(match.chips[seat], *ngettext_noop("%(count)d chip", "%(count)d chips")),)

    def ranking(self, match: NapMatch) -> tuple[float, ...]:
        return tuple(float(chips) for chips in match.chips)

    def new_match(self, *, players: int, options: NapOptions, rng: random.Random) -> NapMatch:
        self.deck(players)
        return NapMatch(players=players, options=options, dealer=rng.randrange(players), chips=(0,) * players)

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: NapOptions) -> NapMatch:
        chips = tuple(record["chips"])
        if len(chips) != players:
            raise InvalidDeal(f"the record holds chips for {len(chips)} seats, not {players}")
        return NapMatch(players, options, record["dealer"], chips, record.get("dealt", 0))

    # -- computer players --------------------------------------------------------

    bots_count_tricks = True

    bot_ranks = "23456789TJQKA"

    def makers(self, contract: Any) -> tuple[int, ...]:
        return () if contract is None else (contract[0],)

    def hand_tricks(self, hand: Sequence[Card], trump: str | None) -> float:
        """Tricks a bidder who leads first may expect: each card counts by how many higher cards of
        its suit are out (each about a one-in-three chance to sit with an opponent at four players);
        long trumps win once the others' are drawn. Without ``trump``, the best suit for trump."""
        if trump is None:
            return max((self.hand_tricks(hand, suit) for suit in {card[1] for card in hand}), default=0.0)
        tricks = 0.0
        for suit in {card[1] for card in hand}:
            ranks = sorted((self.bot_ranks.index(card[0]) for card in hand if card[1] == suit), reverse=True)
            for mine_above, rank in enumerate(ranks):
                missing = 12 - rank - mine_above  # higher cards of the suit in other hands or undealt
                if suit == trump:
                    # with the lead, my higher trumps draw theirs: length makes up for missing tops
                    missing = max(0, missing - (len(ranks) - 1 - mine_above) // 2)
                    tricks += 0.68**missing
                elif missing <= 1:
                    tricks += 0.8 * 0.68**missing
        return tricks

    def bot_call(self, view: Any) -> str:
        """Bid the highest number of tricks the hand is likely to make (Nap pays 10 and costs 5:
        worth bidding on a good chance; Wellington and Blücher only on a near certainty)."""
        expect = self.hand_tricks(view.hand, None)
        wanted = {"bid:1": 0.9, "bid:2": 2.0, "bid:3": 3.05, "bid:4": 4.0, "nap": 4.55}
        wanted |= {"wellington": 4.85, "blucher": 4.97}
        bids = [action for action in view.actions if action != PASS and expect >= wanted[action]]
        return max(bids, key=LADDER.index) if bids else PASS

    def bot_value(self, state: DealState, seat: int) -> float:
        return float(self.chips(state)[seat])


BID_NAMES = {  # the bids, not the game nor the generals: each language may call them its own way
    "nap": pgettext_noop("bid", "Nap"),
    "wellington": pgettext_noop("bid", "Wellington"),
    "blucher": pgettext_noop("bid", "Blücher"),
}


def bid_name(bid: str) -> Text | int:
    """A bid as players say it: 3, Nap."""
    return Text(BID_NAMES[bid], context="bid") if bid in BID_NAMES else NEEDED[bid]


def _tricks(count: int) -> Count:
    return Count(count, *ngettext_noop("%(count)d trick", "%(count)d tricks"))


def _chips(count: int) -> Count:
    return Count(count, *ngettext_noop("%(count)d chip", "%(count)d chips"))


def _highest(calls: Sequence[str]) -> str | None:
    bids = [call for call in calls if call in LADDER]
    return max(bids, key=LADDER.index) if bids else None


def _why_not(action: str, state: DealState) -> str:
    if action in LADDER:
        if action in ONLY_AFTER and state.options.wellington_blucher:
            return "bid_out_of_order"
        if action in ONLY_AFTER:
            return "option_off"
        return "bid_too_low"
    if len(action) == 2 and action[0] in "23456789TJQKA" and action[1] in "SHDC":
        return "bidding_first"
    return "unknown_action"


@dataclass(frozen=True, slots=True)
class NapMatch:
    """Chips over a number of rounds; tied leaders play on, all of them, until one leads alone."""

    players: int
    options: NapOptions
    dealer: int
    chips: tuple[int, ...]
    dealt: int = 0

    @property
    def finished(self) -> bool:
        if self.dealt < self.options.rounds * self.players:
            return False
        return self.chips.count(max(self.chips)) == 1

    @property
    def winners(self) -> tuple[int, ...]:
        return (self.chips.index(max(self.chips)),) if self.finished else ()

    @property
    def scores(self) -> tuple[int, ...]:
        return self.chips

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "chips": list(self.chips), "dealt": self.dealt}

    def deal(self, rng: random.Random) -> DealState:
        return NAP.deal(players=self.players, dealer=self.dealer, options=self.options, rng=rng)

    def settle(self, deal: DealState) -> NapMatch:
        if self.finished:
            raise InvalidDeal("the match is already over")
        if deal.dealer != self.dealer or deal.players != self.players:
            raise InvalidDeal("only this match's next deal can be settled")
        change = NAP.chips(deal)
        chips = tuple(have + got for have, got in zip(self.chips, change, strict=True))
        return replace(self, chips=chips, dealt=self.dealt + 1, dealer=(self.dealer + 1) % self.players)


NAP = Nap()
