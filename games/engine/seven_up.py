"""Seven Up (All Fours, docs/rules/seven_up.md §3 and docs/rules/seven_up.md §4): a turned card
proposes trump; eldest stands or begs, the dealer gives a point or refuses and runs the cards from
the stock until another suit turns up; then everyone discards back to six and eldest leads. 2-4
players, partnerships at four (docs/rules/seven_up.md §1).

The actions, in the rules' order (docs/rules/seven_up.md §8): eldest's ``stand``/``beg``; after a
beg the dealer's ``give``/``refuse``; after a refusal the runs happen at once (no action), then each
player's ``discard:XX`` until they hold six, eldest first and the dealer last; then cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .all_fours import TARGET, AllFours, AllFoursMatch
from .cards import BIT, INDEX, Card
from .game import CardName, Count, IllegalPlay, InvalidDeal, SeatName, SuitName, Text
from .options import Option, gettext_noop, ngettext_noop
from .tricks.deal import DealState, Trick

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

STAND, BEG, GIVE, REFUSE = "stand", "beg", "give", "refuse"
TEAMS = ((0, 2), (1, 3))
HAND = 6


@dataclass(frozen=True, slots=True)
class SevenUpOptions:
    partnerships: bool = False

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        return {"partnerships": self.partnerships}


@dataclass(frozen=True, slots=True)
class Trumping:
    """What the turn-up, the beg and the runs settled, once trump is fixed."""

    trump: str
    turned: tuple[Card, ...]  # every card turned, in order: the first, those set aside, the one that fixed trump
    gift: bool = False
    runs: int = 0
    early: tuple[
        tuple[int, str], ...
    ] = ()  # points before play as they arose: (side, "turned_jack" | "gift" | "run_jack")
    settled: bool = False  # False: the first turn-up still waits on eldest (and the dealer)


class SevenUp(AllFours):
    name = "seven_up"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Seven Up")
    summary = gettext_noop("All Fours: high, low, jack and game from a turned-up trump; beg for a point; first to 7.")
    min_players = 2
    max_players = 4
    low_to_holder = True
    lowest_score = 0
    uses_stock = True

    options_schema = (
        Option(
            "partnerships",
            "flag",
            False,
            gettext_noop("Partnerships"),
            gettext_noop("Four players only: partners sit opposite and score together."),
        ),
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> SevenUpOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"partnerships"}
        if unknown:
            raise InvalidDeal(f"unknown seven_up options: {', '.join(sorted(unknown))}")
        partnerships = raw.get("partnerships", False)
        if not isinstance(partnerships, bool):
            raise InvalidDeal("partnerships must be true or false")
        return SevenUpOptions(partnerships=partnerships)

    def describe(self, options: SevenUpOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [
            Count(TARGET, *ngettext_noop("first to %(count)d point", "first to %(count)d points"))
        ]
        if options.partnerships:
            said.append(Text(gettext_noop("partnerships")))
        return tuple(said)

    def sides(self, players: int, options: Any = None) -> tuple[tuple[int, ...], ...]:
        if options is not None and options.partnerships:
            if players != 4:
                raise InvalidDeal("partnerships need four players")
            return TEAMS
        return tuple((seat,) for seat in range(players))

    def dealer_after_throw_in(self, match: AllFoursMatch) -> int:
        return match.dealer  # the stock ran out: the same dealer deals again

    def with_stock(self, state: DealState, stock: Any) -> DealState:
        """The stock's top card is turned: its suit is proposed, and a jack scores for the dealer's side."""
        state = super().with_stock(state, stock)
        first = state.stock[0]
        jack = ((self.side_of(state, state.dealer), "turned_jack"),) if first[0] == "J" else ()
        return replace(state, contract=Trumping(first[1], (first,), early=jack))

    # -- the turn-up, the beg and the runs -----------------------------------------

    def eldest(self, state: DealState | SeatView) -> int:
        return (state.dealer + 1) % state.players

    def auction_to_act(self, state: DealState) -> int | None:
        calls = state.calls
        if not calls:
            return self.eldest(state)
        if calls == (BEG,):
            return state.dealer
        trumping: Trumping = state.contract
        if not trumping.runs:
            return None
        each = 3 * trumping.runs
        done = len(calls) - 2  # the discards so far (after beg and refuse)
        turn = done // each
        return (self.eldest(state) + turn) % state.players if turn < state.players else None

    def legal_actions(self, state: DealState) -> list[str]:
        if state.is_over:
            return []
        if state.trick is not None:
            return state.legal_cards()
        if not state.calls:
            return [STAND, BEG]
        if state.calls == (BEG,):
            return [REFUSE] if self.gift_would_win(state) else [GIVE, REFUSE]
        seat = self.auction_to_act(state)
        return [f"discard:{card}" for card in state.hand(seat)]

    def gift_would_win(self, state: DealState) -> bool:
        """Eldest's side has 6: the gift would end the game, so the dealer must refuse."""
        return state.standing[self.side_of(state, self.eldest(state))] >= TARGET - 1

    def call(self, state: DealState, action: str) -> DealState:
        legal = self.legal_actions(state)
        if action not in legal:
            raise IllegalPlay(
                "not_now", f"{action} is not one of this step's actions", seat=state.to_act, card=action, legal=legal
            )
        before = state
        state = replace(state, calls=(*state.calls, action))
        proposed: Trumping = state.contract
        if action == BEG:
            return state
        if action == STAND:
            return self._play(replace(state, contract=replace(proposed, settled=True)))
        if action == GIVE:
            gift = (*proposed.early, (self.side_of(state, self.eldest(state)), "gift"))
            return self._play(replace(state, contract=replace(proposed, gift=True, early=gift, settled=True)))
        if action == REFUSE:
            return self._run(state, proposed.turned[0], proposed.early)
        hands = list(state.hands)
        seat = before.to_act
        hands[seat] ^= BIT[action[8:]]
        state = replace(state, hands=tuple(hands))
        return self._play(state) if self.auction_to_act(state) is None else state

    def _run(self, state: DealState, first: Card, early: tuple[tuple[int, str], ...]) -> DealState:
        """Run the cards: three more to each from the stock, eldest first, and turn the next; a card
        of the refused suit is set aside and the cards run again. A stock too short throws the deal in."""
        refused = first[1]
        stock = list(state.stock[1:])
        hands = list(state.hands)
        turned = [first]
        runs = 0
        players = state.players
        while True:
            if len(stock) < 3 * players + 1:  # thrown in: what was run and turned is told, nothing counts
                told = Trumping(refused, tuple(turned), runs=runs, early=early)
                return replace(state, thrown_in=True, contract=told)
            for step in range(1, players + 1):
                seat = (state.dealer + step) % players
                for card in stock[:3]:
                    hands[seat] |= BIT[card]
                del stock[:3]
            runs += 1
            card = stock.pop(0)
            turned.append(card)
            if card[1] != refused:
                break
        if card[0] == "J":
            early += ((self.side_of(state, state.dealer), "run_jack"),)
        settled = Trumping(card[1], tuple(turned), runs=runs, early=early, settled=True)
        return replace(state, hands=tuple(hands), trump=card[1], contract=settled)

    def _play(self, state: DealState) -> DealState:
        return replace(state, trump=state.contract.trump, trick=Trick(leader=self.eldest(state)))

    # -- scoring -------------------------------------------------------------------

    def deal_points(self, state: DealState) -> tuple[tuple[int, ...], int | None]:
        """Points per side, counted in the rules' order (the points before play as they arose, then
        high, low, jack, game), and the first side to reach 7 that way."""
        sides = len(self.sides(state.players, state.options))
        if state.thrown_in:
            return (0,) * sides, None
        found = self.categories(state)
        scored = [side for side, _ in state.contract.early]
        scored += [found.winner_of(category) for category in ("high", "low", "jack", "game")]
        points = [0] * sides
        running = list(state.standing)
        winner = None
        for side in scored:
            if side is None:
                continue
            points[side] += 1
            running[side] += 1
            if winner is None and running[side] >= TARGET:
                winner = side
        return tuple(points), winner

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        trumping: Trumping = state.contract
        points, winner = self.deal_points(state)
        return {
            "trump": state.trump,
            "gift": trumping.gift,
            "runs": trumping.runs,
            "turned_jacks": sum(kind != "gift" for _, kind in trumping.early),
            **self.category_result(state),
            "points": list(points),
            "scores": [have + got for have, got in zip(state.standing, points, strict=True)],
            "winner": winner,
        }

    # -- what the table shows --------------------------------------------------------

    def table_areas(self, state: DealState, seen: SeatView) -> tuple:
        from .game import Area, Shown

        if state.is_over and state.thrown_in:
            return ()
        trumping: Trumping = state.contract
        turned = trumping.turned
        used = len(turned) + 3 * state.players * trumping.runs
        areas = [
            Area("row", "turn-up", Text(gettext_noop("Turned up:")), cards=(Shown(turned[-1]),), beside=True),
            Area(
                "pile",
                "stock",
                Text(gettext_noop("Stock")),
                count=len(state.stock) - used,
                beside=True,
            ),
        ]
        if len(turned) > 1:
            areas.insert(
                1,
                Area(
                    "row",
                    "set-aside",
                    Text(gettext_noop("Refused and set aside:")),
                    cards=tuple(Shown(card) for card in turned[:-1]),
                    beside=True,
                ),
            )
        return tuple(areas)

    def stock_shown(self, state: DealState) -> tuple[Card, ...]:
        """The turn-ups and the runs as they lay; the cards below them, never drawn, in the deck's order."""
        each = 3 * state.players + 1
        if state.thrown_in:  # every run turned the refused suit until fewer than a run's cards were left
            used = 1 + each * ((len(state.stock) - 1) // each)
        else:
            trumping: Trumping = state.contract
            used = 1 + each * trumping.runs
        return (*state.stock[:used], *sorted(state.stock[used:], key=INDEX.__getitem__))

    def public_cards(self, seen: SeatView) -> tuple[Card, ...]:
        trumping: Trumping = seen.contract
        return trumping.turned

    def stock_for(
        self, seen: SeatView, held: list[list[Card]], discarded: list[Card], unseen: list[Card]
    ) -> tuple[Card, ...]:
        """As the real stock lies: the first turn-up on top; after runs, each run's cards (drawn by
        the seats: any of theirs beyond six, or discarded) and its turn-up, then the cards unseen."""
        trumping: Trumping = seen.contract
        drawn = [card for cards in held for card in cards[HAND:]] + discarded
        stock = [trumping.turned[0]]
        for run in range(trumping.runs):
            each = 3 * seen.players
            stock += drawn[run * each : (run + 1) * each]
            stock.append(trumping.turned[run + 1])
        return (*stock, *unseen)

    def discard_shown_after(self, state: DealState, seat: int) -> bool:
        """Every hand plays all six and the stock is in the record: a discard is no secret afterwards."""
        return True

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        turned = _turned(view)
        up = (("suit", SuitName(turned[1])), ("card", CardName(turned)))
        if action == STAND:
            return Text(gettext_noop("Stand")), Text(gettext_noop("Keep %(suit)s as trump and play."), up)
        if action == BEG:
            return Text(gettext_noop("Beg")), Text(
                gettext_noop("Ask the dealer for a point, or a new trump from the stock."), up
            )
        if action == GIVE:
            return Text(gettext_noop("Give a point")), Text(
                gettext_noop("%(name)s scores 1 and %(suit)s stays trump."),
                (*up, ("name", SeatName(self.eldest(view)))),
            )
        if action == REFUSE:
            return Text(gettext_noop("Refuse")), Text(
                gettext_noop(
                    "Run the cards: three more to everyone and a new card turned, until another suit than %(suit)s."
                ),
                up,
            )
        return Text(gettext_noop("Discard %(card)s"), (("card", CardName(action[8:])),)), None

    def call_said(self, deal: DealState | SeatView, index: int) -> Text:
        call = deal.calls[index]
        if call == STAND:
            return Text(gettext_noop("%(name)s stands."))
        if call == BEG:
            return Text(gettext_noop("%(name)s begs."))
        if call == GIVE:
            return Text(gettext_noop("%(name)s gives a point."))
        if call == REFUSE:
            trumping: Trumping = deal.contract
            runs = trumping.runs
            if not runs:
                return Text(gettext_noop("%(name)s refuses; the stock is too short to run the cards."))
            return Text(
                gettext_noop("%(name)s refuses and runs the cards: %(runs)s, and %(card)s turned."),
                (
                    ("runs", Count(runs, *ngettext_noop("%(count)d run", "%(count)d runs"))),
                    ("card", CardName(trumping.turned[-1])),
                ),
            )
        if call.startswith("discard:") and len(call) > 8 and call[8:] != "?":
            return Text(gettext_noop("%(name)s discards %(card)s."), (("card", CardName(call[8:])),))
        return Text(gettext_noop("%(name)s discards a card face down."))

    def auction_prompt(self, view: SeatView) -> Text:
        turned = _turned(view)
        up = (("suit", SuitName(turned[1])), ("card", CardName(turned)))
        if not view.calls:
            return Text(gettext_noop("The %(card)s is turned: stand on %(suit)s, or beg?"), up)
        if view.calls == (BEG,) and GIVE not in view.actions:
            return Text(gettext_noop("Your opponent has 6: you must refuse the point and run the cards."), up)
        if view.calls == (BEG,):
            return Text(
                gettext_noop("%(name)s begs: give a point, or refuse and run the cards?"),
                (
                    *up,
                    ("name", SeatName(self.eldest(view))),
                ),
            )
        left = len(view.hand) - HAND
        return Text(
            gettext_noop("Trump is %(suit)s: discard %(count)s face down."),
            (*up, ("count", Count(left, *ngettext_noop("%(count)d card", "%(count)d cards")))),
        )

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        """The jacks turned up, which no bid or call in the header says (the beg and the gift are said there)."""
        trumping: Trumping = view.contract
        return tuple(
            Text(gettext_noop("A jack turned up: 1 point to %(side)s."), (("side", self.side_name(view, side)),))
            for side, kind in trumping.early
            if kind != "gift"
        )

    def match_facts(self, match: AllFoursMatch) -> tuple[Text, ...]:
        if not match.options.partnerships:
            return ()
        return tuple(
            Text(
                gettext_noop("%(name)s and %(partner)s: %(points)s"),
                (("name", SeatName(a)), ("partner", SeatName(b)), ("points", Count(match.points[side], *_POINTS))),
            )
            for side, (a, b) in enumerate(TEAMS)
        )

    def deal_result(self, deal: DealState) -> Text:
        if deal.thrown_in:
            return Text(
                gettext_noop(
                    "The stock ran out before another suit turned up: deal %(number)d is thrown in, "
                    "the same dealer deals again."
                )
            )
        return Text(gettext_noop("Deal %(number)d: %(categories)s"), (("categories", self._points_said(deal)),))

    def _points_said(self, deal: DealState) -> Text:
        """Every point of the deal in the order it counts: those scored before play as they arose (a
        turned jack, the gift), then high, low, jack and game; so the points add up."""
        trumping: Trumping = deal.contract
        said = self.categories_said(deal)
        for side, kind in reversed(trumping.early):
            early = gettext_noop("Gift: %(side)s.") if kind == "gift" else gettext_noop("Jack turned up: %(side)s.")
            text = Text(early, (("side", self.side_name(deal, side)),))
            said = Text("%(first)s %(rest)s", (("first", text), ("rest", said)))
        return said

    # -- computer players ------------------------------------------------------------

    def bot_call_state(self, state: DealState) -> str:
        seat = state.to_act
        actions = state.legal_actions()
        hand = state.hand(seat)
        first = state.contract.turned[0]
        if STAND in actions:
            return STAND if _trump_strength(hand, first[1]) >= 2.5 else BEG
        if GIVE in actions:
            # give while the point does not decide the game and my own hand likes the trump
            return GIVE if _trump_strength(hand, first[1]) >= 2.0 else REFUSE
        if len(actions) == 1:
            return actions[0]
        trump = state.trump
        return min(actions, key=lambda action: _keep_value(action[8:], trump))


def _turned(view: SeatView) -> Card:
    """The card on show as the proposed trump (the last turned, once the cards were run)."""
    trumping: Trumping = view.contract
    return trumping.turned[-1]


def _trump_strength(hand: list[Card], trump: str) -> float:
    """A rough worth of a hand with ``trump``: trumps by rank, the jack and ten most."""
    worth = 0.0
    for card in hand:
        if card[1] == trump:
            worth += 1.0 + {"A": 1.0, "K": 0.6, "J": 0.8, "T": 0.5, "Q": 0.3}.get(card[0], 0.0)
        elif card[0] == "A":
            worth += 0.4
    return worth


def _keep_value(card: Card, trump: str) -> float:
    """How much a card is worth keeping: trumps, then aces and tens, then by rank."""
    from .cards import RANKS

    value = RANKS.index(card[0]) / 13
    if card[1] == trump:
        value += 10
    if card[0] in "AT":
        value += 2
    return value


_POINTS = ngettext_noop("%(count)d point", "%(count)d points")

SEVEN_UP = SevenUp()
