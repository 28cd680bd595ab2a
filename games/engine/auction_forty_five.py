"""Auction Forty-Five (docs/rules/auction_forty_five.md §4, docs/rules/auction_forty_five.md §6 and
docs/rules/auction_forty_five.md §8): one continuous auction for the right to name trump, the dealer
may hold, a draw from the stock, and five tricks worth 5 each plus 5 for the highest trump. Two
sides of two or three, seated alternately; game to 120, the bidding side counting first.

The actions, in the rules' order (docs/rules/auction_forty_five.md §11): the auction (``pass``,
``bid:5`` … ``bid:30``, the dealer's ``hold``) going round the players still in until one is left
holding the highest bid; the bidder's ``call:S|H|D|C``; the draw, left of the dealer first and the
dealer last, each seat's ``discard:XX`` zero or more times then ``draw`` (with ``rob_the_pack``, the
dealer's ``take:XX`` after its draw, one per card discarded); then cards, the bidder's left-hand
neighbour leading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import BIT, INDEX, Card
from .forty_five_family import TRUMPS, FortyFives, best_suit, discard_value, hand_strength, is_trump, points_to_win
from .game import Area, CardName, CardNames, Count, IllegalPlay, InvalidDeal, Marks, SeatName, SuitName, Text
from .options import Option, gettext_noop, ngettext_noop
from .tricks.deal import DealState, Trick
from .tricks.sides import POINTS

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

PASS, HOLD, DRAW = "pass", "hold", "draw"
BIDS = (5, 10, 15, 20, 25, 30)
WINNING_SCORE = 120
# A shorter session, as players agree on one: 45, the score of the older game the name comes from
# (the short "45s" of Newfoundland and Nova Scotia tables), or 60, half a game: a few deals each.
TARGETS = (45, 60, WINNING_SCORE)
# A side with this many points may not bid or hold below 20. The rules say 100, and so does the site
# whatever the target: in a shorter session no side has 100 before a deal, so every bid is open.
HIGH_FLOOR = 100
FLOOR_BID = 20
CARDS_EACH = 5
CARD_COUNT = ngettext_noop("%(count)d card", "%(count)d cards")


@dataclass(frozen=True, slots=True)
class AuctionFortyFiveOptions:
    rob_the_pack: bool = False
    points: int = WINNING_SCORE  # to win the session
    set_out: bool = False  # a side at minus the target or below ends the session (not in the rules)

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        """The rules' 120 and no set-out are left out, so that records dealt before the choices read the same."""
        record: dict[str, Any] = {"rob_the_pack": self.rob_the_pack}
        if self.points != WINNING_SCORE:
            record["points"] = self.points
        if self.set_out:
            record["set_out"] = True
        return record


@dataclass(frozen=True, slots=True)
class Contract:
    """What the auction settled (public: the stock's cards are never in it)."""

    bidder: int
    bid: int
    trump: str | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """Where the deal's calls have got to: the step, who acts, and what the auction stands at."""

    step: str  # "bid", "call", "draw", "take", "play", "thrown_in"
    seat: int | None
    high: int = 0  # the highest bid so far (0: none yet)
    holder: int | None = None  # who holds it
    drawn: int = 0  # cards gone from the stock so far
    top: int = 0  # of them, drawn from the top (the others were taken by name, robbing the pack)
    count: int = 0  # "draw": cards the seat has discarded this turn; "take": takes still owed


@lru_cache(maxsize=65536)
def progress(players: int, dealer: int, rob: bool, calls: tuple[str, ...]) -> Progress:
    """Read the calls from the start (they are few): the auction, the call, then each seat's draw."""
    passed: set[int] = set()
    high, holder = 0, None
    seat = (dealer + 1) % players
    i = 0
    while True:
        if i == len(calls):
            return Progress("bid", seat, high, holder)
        call = calls[i]
        i += 1
        if call == PASS:
            passed.add(seat)
        elif call == HOLD:
            holder = seat
        else:
            high, holder = int(call[4:]), seat
        left = [other for other in range(players) if other not in passed]
        if not left:
            return Progress("thrown_in", None)
        if left == [holder]:
            break
        seat = next((seat + step) % players for step in range(1, players + 1) if (seat + step) % players in left)
    if i == len(calls):
        return Progress("call", holder, high, holder)
    i += 1
    drawn = top = 0
    for step in range(1, players + 1):
        seat = (dealer + step) % players
        discarded = 0
        while i < len(calls) and calls[i].startswith("discard"):
            discarded, i = discarded + 1, i + 1
        if i == len(calls):
            return Progress("draw", seat, high, holder, drawn, top, discarded)
        i += 1  # the draw
        if rob and seat == dealer and discarded:
            taken = 0
            while i < len(calls) and calls[i].startswith("take"):
                taken, i = taken + 1, i + 1
            drawn += taken
            if taken < discarded:
                return Progress("take", seat, high, holder, drawn, top, discarded - taken)
        else:
            drawn += discarded
            top += discarded
    return Progress("play", None, high, holder, drawn, top)


class AuctionFortyFive(FortyFives):
    name = "auction_forty_five"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Auction Forty-Five")
    summary = gettext_noop(
        "Two sides bid for trump in one auction, draw new cards, and race to 120; the five of trumps is highest."
    )
    min_players = 4
    max_players = 6
    seat_counts = frozenset({4, 6})
    target = WINNING_SCORE
    uses_stock = True

    options_schema = (
        Option(
            "rob_the_pack",
            "flag",
            False,
            gettext_noop("Dealer robs the pack"),
            gettext_noop("In the draw the dealer looks through the stock and chooses the new cards."),
        ),
        points_to_win(WINNING_SCORE, TARGETS),
        # Not in the rules: a bidding side that keeps failing is set back without end, and a session
        # that may last for ever is a table's own choice to cut short.
        Option(
            "set_out",
            "flag",
            False,
            gettext_noop("End when a side is set back to minus the target"),
            gettext_noop(
                "Not in the rules: after a deal that leaves a side at minus the points to win or below, "
                "the session is over and the side then leading wins."
            ),
        ),
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> AuctionFortyFiveOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"rob_the_pack", "points", "set_out"}
        if unknown:
            raise InvalidDeal(f"unknown {self.name} options: {', '.join(sorted(unknown))}")
        rob, set_out = raw.get("rob_the_pack", False), raw.get("set_out", False)
        if not isinstance(rob, bool):
            raise InvalidDeal("rob_the_pack must be true or false")
        if not isinstance(set_out, bool):
            raise InvalidDeal("set_out must be true or false")
        return AuctionFortyFiveOptions(rob_the_pack=rob, points=self.parse_target(raw, TARGETS), set_out=set_out)

    def target_for(self, options: AuctionFortyFiveOptions) -> int:
        return options.points

    def describe(self, options: AuctionFortyFiveOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [self.describe_target(options)]
        if options.rob_the_pack:
            said.append(Text(gettext_noop("the dealer robs the pack")))
        if options.set_out:
            said.append(
                Text(gettext_noop("ends when a side is set back to minus %(count)d"), (("count", options.points),))
            )
        return tuple(said)

    # -- the auction and the draw ------------------------------------------------------

    def progress(self, state: DealState | SeatView) -> Progress:
        options = state.options
        rob = options["rob_the_pack"] if isinstance(options, dict) else options.rob_the_pack
        return progress(state.players, state.dealer, rob, tuple(state.calls))

    def auction_to_act(self, state: DealState) -> int | None:
        return self.progress(state).seat

    def callers(self, state: DealState) -> tuple[int, ...]:
        """From the calls alone (each prefix is read once and remembered), with no state copied."""
        calls, rob = state.calls, state.options.rob_the_pack
        return tuple(progress(state.players, state.dealer, rob, calls[:i]).seat for i in range(len(calls)))

    def floor(self, state: DealState | SeatView, seat: int) -> int:
        """The lowest bid or hold the seat's side may make (20 for a side at 100 or more)."""
        return FLOOR_BID if state.standing[seat % 2] >= HIGH_FLOOR else BIDS[0]

    def stock_left(self, state: DealState) -> tuple[Card, ...]:
        """The stock now: below the cards drawn from the top, less those the dealer took by name."""
        taken = {call[5:] for call in state.calls if call.startswith("take:")}
        return tuple(card for card in state.stock[self.progress(state).top :] if card not in taken)

    def stock_count(self, state: DealState | SeatView) -> int:
        """How many cards the stock holds now (everyone may know it)."""
        return 52 - CARDS_EACH * state.players - self.progress(state).drawn

    def legal_actions(self, state: DealState) -> list[str]:
        if state.is_over:
            return []
        if state.trick is not None:
            return state.legal_cards()
        at = self.progress(state)
        if at.step == "bid":
            floor = self.floor(state, at.seat)
            bids = [f"bid:{bid}" for bid in BIDS if bid > at.high and bid >= floor]
            hold = at.seat == state.dealer and at.high and at.holder != state.dealer and at.high >= floor
            return [PASS, *bids, *([HOLD] if hold else [])]
        if at.step == "call":
            return [f"call:{suit}" for suit in "SHDC"]
        if at.step == "draw":
            more = at.count < self.stock_count(state)
            return [*(f"discard:{card}" for card in state.hand(at.seat) if more), DRAW]
        return [f"take:{card}" for card in sorted(self.stock_left(state), key=INDEX.__getitem__)]

    def call(self, state: DealState, action: str) -> DealState:
        legal = self.legal_actions(state)
        if action not in legal:
            rule = "bid_too_low" if action.startswith("bid:") and action[4:] in {str(b) for b in BIDS} else "not_now"
            raise IllegalPlay(
                rule, f"{action} is not one of this step's actions", seat=state.to_act, card=action, legal=legal
            )
        at = self.progress(state)
        seat = at.seat
        stock = self.stock_left(state)
        state = replace(state, calls=(*state.calls, action))
        hands = list(state.hands)
        if at.step == "call":
            state = replace(state, trump=action[5:], contract=replace(state.contract, trump=action[5:]))
        elif action.startswith("discard:"):
            hands[seat] ^= BIT[action[8:]]
        elif action == DRAW and not (state.options.rob_the_pack and seat == state.dealer):
            for card in stock[: at.count]:
                hands[seat] |= BIT[card]
        elif action.startswith("take:"):
            hands[seat] |= BIT[action[5:]]
        state = replace(state, hands=tuple(hands))
        after = self.progress(state)
        if after.step == "thrown_in":
            return replace(state, thrown_in=True)
        if at.step == "bid" and after.step == "call":
            return replace(state, contract=Contract(after.holder, after.high))
        if after.step == "play":
            contract: Contract = state.contract
            leader = (contract.bidder + 1) % state.players
            return replace(state, trick=Trick(leader=leader))
        return state

    def secret_word(self, call: str) -> str | None:
        """A discard and a card taken from the stock are seen by their player alone."""
        if call.startswith("take:"):
            return "take"
        return super().secret_word(call)

    def discard_shown_after(self, state: DealState, seat: int) -> bool:
        """The record gives every hand as dealt and the stock as drawn: what each seat discarded and
        took follows from it and the cards played, so it is no secret once the deal is over."""
        return True

    def stock_shown(self, state: DealState) -> tuple[Card, ...]:
        """The cards drawn from the top, in order; the rest (never drawn, or taken by name) in the
        deck's order, since nobody saw how they lay."""
        top = self.progress(state).top
        return (*state.stock[:top], *sorted(state.stock[top:], key=INDEX.__getitem__))

    def known_gone(self, seen: SeatView) -> tuple[Card, ...]:
        """Besides the viewer's own discards, the stock itself while the viewer robs the pack."""
        return (*super().known_gone(seen), *self._stock_seen(seen))

    def likely(self, seen: SeatView) -> dict[int, tuple[int, int]]:
        """Once the draw is over the bidder, who named trump and drew to it, holds three trumps or so."""
        contract: Contract | None = seen.contract
        if seen.trick is None or contract is None or contract.bidder == seen.seat:
            return {}
        played = sum(is_trump(card, seen.trump) for card in seen.played[contract.bidder])
        return {contract.bidder: (TRUMPS[seen.trump], max(0, 3 - played))}

    def _stock_seen(self, seen: SeatView) -> tuple[Card, ...]:
        return tuple(action[5:] for action in seen.actions if action.startswith("take:"))

    def world(self, seen: SeatView, hands: list[list[Card]], rest: list[Card]) -> DealState:
        """The stock as the viewer cannot tell it from the true one: the cards it holds now below as
        many drawn from the top (which nobody will read again)."""
        left = self.stock_count(seen)
        stock = self._stock_seen(seen) or tuple(rest[:left])
        gone = rest[left:] if not self._stock_seen(seen) else rest
        drawn = (*gone, *(card for hand in hands for card in hand), *stock)[: self.progress(seen).top]
        state = super().world(seen, hands, list(gone))
        return replace(state, stock=(*drawn, *stock))

    # -- scoring -------------------------------------------------------------------

    def deal_points(self, state: DealState) -> tuple[tuple[int, ...], int | None]:
        """Each side's points (a bidding side short of its bid loses it; a made 30 scores 60) and the
        side that reached the target, the bidding side counting first; else, with the table option
        ``set_out``, the side leading once a side is at minus the target."""
        if state.thrown_in:
            return (0, 0), None
        contract: Contract = state.contract
        bidders = contract.bidder % 2
        taken, high = self.trick_points(state)
        points = [5 * tricks + (5 if high == side else 0) for side, tricks in enumerate(taken)]
        made = points[bidders] >= contract.bid
        if not made:
            points[bidders] = -contract.bid
        elif contract.bid == 30:
            points[bidders] = 60
        for side in (bidders, 1 - bidders):
            if state.standing[side] + points[side] >= state.options.points:
                return tuple(points), side
        return tuple(points), self.leader_once_set_out(state, points) if state.options.set_out else None

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        contract: Contract = state.contract
        taken, high = self.trick_points(state)
        points, winner = self.deal_points(state)
        return {
            "bidder": contract.bidder,
            "bid": contract.bid,
            "trump": state.trump,
            "tricks_won": list(taken),
            "high_trump": high,
            "made": points[contract.bidder % 2] >= 0,
            "points": list(points),
            "scores": [have + got for have, got in zip(state.standing, points, strict=True)],
            "winner": winner,
        }

    # -- words for the table ---------------------------------------------------------

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        at = self.progress(view)
        if action == PASS:
            return Text(gettext_noop("Pass")), None
        if action.startswith("bid:"):
            bid = int(action[4:])
            label = Text(gettext_noop("Bid %(count)d"), (("count", bid),))
            if bid == 30:
                return label, Text(gettext_noop("Your side must take all 30 points (it then scores 60), or lose 30."))
            return label, Text(
                gettext_noop("Your side must take at least %(count)d of the 30 points, or lose %(count)d."),
                (("count", bid),),
            )
        if action == HOLD:
            return Text(gettext_noop("Hold %(count)d"), (("count", at.high),)), Text(
                gettext_noop("As the dealer, take the bid at %(count)d; the others may bid again."),
                (("count", at.high),),
            )
        if action.startswith("call:"):
            return Text(gettext_noop("Call %(suit)s"), (("suit", SuitName(action[5:])),)), None
        if action.startswith("discard:"):
            return Text(gettext_noop("Discard %(card)s"), (("card", CardName(action[8:])),)), None
        if action == DRAW:
            if not at.count:
                return Text(gettext_noop("Keep my cards")), None
            return Text(gettext_noop("Draw %(count)s"), (("count", Count(at.count, *CARD_COUNT)),)), None
        return Text("%(card)s", (("card", CardName(action[5:])),)), None  # the prompt says "take"

    def marks(self, action: str, view: SeatView) -> Marks | None:
        """The cards to discard are marked in the hand (a button per card would cover the table),
        and the draw takes their discards first; no more may be marked than the stock holds."""
        if action != DRAW:
            return None
        at = self.progress(view)
        most = min(len(view.hand), self.stock_count(view) - at.count)
        if most <= 0:
            return None
        counted = [self.action_text(DRAW, view)[0]]
        counted += [
            Text(gettext_noop("Discard %(count)d, draw %(drawn)d"), (("count", count), ("drawn", at.count + count)))
            for count in range(1, most + 1)
        ]
        return Marks(Text(gettext_noop("Discard the marked cards")), tuple(counted))

    def call_said(self, deal: DealState | SeatView, index: int) -> Text | None:
        call = deal.calls[index]
        if call == PASS:
            return Text(gettext_noop("%(name)s passes."))
        if call.startswith("bid:"):
            return Text(gettext_noop("%(name)s bids %(count)d."), (("count", int(call[4:])),))
        if call == HOLD:
            high = progress(deal.players, deal.dealer, False, tuple(deal.calls[:index])).high
            return Text(gettext_noop("%(name)s holds at %(count)d."), (("count", high),))
        if call.startswith("call:"):
            return Text(gettext_noop("%(name)s names %(suit)s trump."), (("suit", SuitName(call[5:])),))
        if call.startswith("discard:"):
            return Text(gettext_noop("%(name)s discards %(card)s."), (("card", CardName(call[8:])),))
        if call.startswith("discard"):
            return None  # face down: the draw after it says how many
        if call == DRAW:
            count = 0
            while index - count - 1 >= 0 and deal.calls[index - count - 1].startswith("discard"):
                count += 1
            if not count:
                return Text(gettext_noop("%(name)s keeps their cards."))
            return Text(gettext_noop("%(name)s draws %(count)s."), (("count", Count(count, *CARD_COUNT)),))
        if call.startswith("take:"):
            return Text(gettext_noop("%(name)s takes %(card)s from the stock."), (("card", CardName(call[5:])),))
        return None  # a card taken face down: the dealer's draw said how many

    def auction_prompt(self, view: SeatView) -> Text:
        at = self.progress(view)
        if at.step == "bid":
            if view.actions == (PASS,):
                if at.high:
                    return Text(
                        gettext_noop("%(name)s holds the top bid, %(count)d: you can only pass."),
                        (("name", SeatName(at.holder)), ("count", at.high)),
                    )
                return Text(gettext_noop("You can only pass."))
            floor = ""
            if self.floor(view, view.seat) == FLOOR_BID:
                floor = Text(gettext_noop("Your side has 100 or more: no bid below 20."))
            if not at.high:
                return Text(gettext_noop("Bid for the right to name trump, or pass? %(floor)s"), (("floor", floor),))
            if HOLD in view.actions:
                return Text(
                    gettext_noop("%(name)s bids %(count)d: hold it as the dealer, bid higher, or pass? %(floor)s"),
                    (("name", SeatName(at.holder)), ("count", at.high), ("floor", floor)),
                )
            return Text(
                gettext_noop("%(name)s holds the top bid, %(count)d: bid higher, or pass? %(floor)s"),
                (("name", SeatName(at.holder)), ("count", at.high), ("floor", floor)),
            )
        if at.step == "call":
            return Text(gettext_noop("You won the bidding at %(count)d: name trump."), (("count", at.high),))
        if at.step == "draw":
            left = self.stock_count(view)
            if at.count:  # the seat's own discards this turn, named to it alone
                mine = tuple(call[8:] for call in view.calls[-at.count :])
                return Text(
                    gettext_noop(
                        "Trump is %(suit)s. You have discarded %(cards)s face down: discard more, or draw as many "
                        "(the stock has %(count)s)."
                    ),
                    (("suit", SuitName(view.trump)), ("cards", CardNames(mine)), ("count", Count(left, *CARD_COUNT))),
                )
            return Text(
                gettext_noop(
                    "Trump is %(suit)s. Discard the cards you do not want, face down, then draw as many "
                    "(the stock has %(count)s)."
                ),
                (("suit", SuitName(view.trump)), ("count", Count(left, *CARD_COUNT))),
            )
        return Text(
            gettext_noop("You rob the pack: take %(count)s from the stock, any you like."),
            (("count", Count(at.count, *CARD_COUNT)),),
        )

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        at = self.progress(view)
        if at.step == "bid":
            if not at.high:
                return ()
            return (
                Text(
                    gettext_noop("Top bid: %(count)d, held by %(name)s."),
                    (("count", at.high), ("name", SeatName(at.holder))),
                ),
            )
        contract: Contract = view.contract
        return (
            Text(
                gettext_noop("%(name)s won the bidding at %(count)d."),
                (("name", SeatName(contract.bidder)), ("count", contract.bid)),
            ),
        )

    def match_facts(self, match) -> tuple[Text, ...]:
        return self.side_facts(match)

    def table_areas(self, state: DealState, seen: SeatView) -> tuple:
        if state.is_over:
            return ()
        return (Area("pile", "stock", Text(gettext_noop("Stock")), count=self.stock_count(state), beside=True),)

    def deal_result(self, deal: DealState) -> Text:
        if deal.thrown_in:
            return Text(gettext_noop("Everyone passed: deal %(number)d is thrown in, the next player deals."))
        contract: Contract = deal.contract
        points, _ = self.deal_points(deal)
        bidders = contract.bidder % 2
        params = (
            ("side", self.side_name(deal, bidders)),
            ("count", contract.bid),
            ("points", Count(points[bidders], *POINTS)),
            ("lost", Count(contract.bid, *POINTS)),
            ("others", self.side_name(deal, 1 - bidders)),
            ("other_points", Count(points[1 - bidders], *POINTS)),
        )
        if points[bidders] < 0:
            return Text(
                gettext_noop(
                    "Deal %(number)d: %(side)s bid %(count)d and fell short, losing %(lost)s; "
                    "%(others)s score %(other_points)s."
                ),
                params,
            )
        return Text(
            gettext_noop(
                "Deal %(number)d: %(side)s bid %(count)d and made it, scoring %(points)s; "
                "%(others)s score %(other_points)s."
            ),
            params,
        )

    # -- computer players ------------------------------------------------------------

    def bot_call_state(self, state: DealState) -> str:
        """Bid what the hand's best suit is worth with a partner's help, the dealer holding on a bit
        less; call that suit; discard every card but trumps and plain kings; take the best trumps."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.to_act
        hand = state.hand(seat)
        at = self.progress(state)
        if at.step == "bid":
            # my tricks, a partner's share, and the draw's help; each trick is 5 and the top trump 5 more
            strength = max(hand_strength(hand, suit) for suit in "SHDC")
            limit = 5 * int(strength + 1.0 + (0.4 if len(state.seats) == 4 else 0.2))
            if HOLD in actions and at.high <= limit:
                return HOLD
            if not at.high and self.floor(state, seat) == FLOOR_BID and limit + 5 >= FLOOR_BID:
                # Near game the lowest bid is 20: stretch one step for it rather than pass, or at
                # tables where both sides are near game every deal is thrown in, over and over.
                return f"bid:{FLOOR_BID}"
            bids = [action for action in actions if action.startswith("bid:") and int(action[4:]) <= limit]
            return bids[0] if bids else PASS
        if at.step == "call":
            return f"call:{best_suit(hand)}"
        trump = state.contract.trump
        if at.step == "draw":
            junk = [card for card in hand if discard_value(card, trump) < 150]
            discards = [action for action in actions if action.startswith("discard:") and action[8:] in junk]
            if discards:
                return min(discards, key=lambda action: discard_value(action[8:], trump))
            return DRAW
        return max(actions, key=lambda action: discard_value(action[5:], trump))


AUCTION_FORTY_FIVE = AuctionFortyFive()
