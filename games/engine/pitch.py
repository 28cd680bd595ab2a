"""Pitch (auction pitch, docs/rules/pitch.md §3 and docs/rules/pitch.md §6): one round of bids for
the right to name trump by leading it; the pitcher must make the bid or lose it. 2-7 players, each
for themselves.

The actions, in the rules' order (docs/rules/pitch.md §9): one ``pass`` or ``bid:N`` from every
seat, left of the dealer first and the dealer last (``pass`` is still sent once the top bid is
made); then cards, the highest bidder (the pitcher) leading, and the suit of that first card is
trump.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from .all_fours import CATEGORIES, POINTS, TARGET, AllFours
from .cards import INDEX, Card
from .game import Count, IllegalPlay, InvalidDeal, SeatName, Text
from .options import Option, gettext_noop, ngettext_noop
from .tricks.deal import DealState, Trick

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

PASS = "pass"


@dataclass(frozen=True, slots=True)
class PitchOptions:
    set_out: bool = False  # a player at minus 7 or below ends the session (not in the rules)

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        """Left out when off, so that a table by the rules writes its records as before the option."""
        return {"set_out": True} if self.set_out else {}


@dataclass(frozen=True, slots=True)
class Contract:
    pitcher: int
    bid: str  # "bid:3", or "smudge"
    value: int  # the points the pitcher must make


class Pitch(AllFours):
    name = "pitch"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Pitch")
    summary = gettext_noop("All Fours with bids: the highest bidder leads the trump and must make the bid; first to 7.")
    min_players = 2
    max_players = 7
    low_to_holder = False
    bids: ClassVar[tuple[str, ...]] = ("bid:1", "bid:2", "bid:3", "bid:4")

    # Not in the rules: a pitcher who keeps failing is set back without end, and a session that
    # may last for ever is a table's own choice to cut short (random or reckless bidding drifts down).
    options_schema = (
        Option(
            "set_out",
            "flag",
            False,
            gettext_noop("End when a player is set back to minus 7"),
            gettext_noop(
                "Not in the rules: after a deal that leaves a player at minus 7 or below, the session is over "
                "and the player then leading alone wins (while several share the lead, play goes on)."
            ),
        ),
    )

    def parse_options(self, raw: Mapping[str, Any] | None) -> PitchOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"set_out"}
        if unknown:
            raise InvalidDeal(f"unknown {self.name} options: {', '.join(sorted(unknown))}")
        set_out = raw.get("set_out", False)
        if not isinstance(set_out, bool):
            raise InvalidDeal("set_out must be true or false")
        return PitchOptions(set_out=set_out)

    def describe(self, options: PitchOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [
            Count(TARGET, *ngettext_noop("first to %(count)d point", "first to %(count)d points"))
        ]
        if options.set_out:
            said.append(Text(gettext_noop("ends when a player is set back to minus 7")))
        return tuple(said)

    def bid_value(self, bid: str) -> int:
        return self.bids.index(bid) + 1

    # -- the bidding -------------------------------------------------------------------

    def auction_to_act(self, state: DealState) -> int | None:
        done = len(state.calls)
        return (state.dealer + 1 + done) % state.players if done < state.players else None

    def highest(self, calls: tuple[str, ...]) -> tuple[int, str] | None:
        """The highest bid so far, as (its place among the calls, the bid)."""
        best = None
        for place, call in enumerate(calls):
            if call != PASS and (best is None or self.bid_value(call) > self.bid_value(best[1])):
                best = (place, call)
        return best

    def legal_actions(self, state: DealState) -> list[str]:
        if state.is_over:
            return []
        if state.trick is not None:
            return state.legal_cards()
        best = self.highest(state.calls)
        floor = 0 if best is None else self.bid_value(best[1])
        return [PASS, *(bid for bid in self.bids if self.bid_value(bid) > floor)]

    def call(self, state: DealState, action: str) -> DealState:
        legal = self.legal_actions(state)
        if action not in legal:
            rule = "bid_too_low" if action in self.bids else "not_now"
            raise IllegalPlay(
                rule, f"{action} is not one of this step's actions", seat=state.to_act, card=action, legal=legal
            )
        state = replace(state, calls=(*state.calls, action))
        if len(state.calls) < state.players:
            return state
        best = self.highest(state.calls)
        if best is None:
            return replace(state, thrown_in=True)
        place, bid = best
        pitcher = (state.dealer + 1 + place) % state.players
        return replace(state, contract=Contract(pitcher, bid, self.bid_value(bid)), trick=Trick(leader=pitcher))

    def play(self, state: DealState, card: Card, seat: int | None = None) -> DealState:
        """The pitch: the first card led names trump."""
        pitch = state.trump is None and state.trick is not None and not state.tricks and not state.trick.cards
        if pitch and card in INDEX:
            return super().play(replace(state, trump=card[1]), card, seat)
        return super().play(state, card, seat)

    # -- scoring -------------------------------------------------------------------

    def deal_points(self, state: DealState) -> tuple[tuple[int, ...], int | None]:
        """Each seat's points (a pitcher short of the bid loses it instead) and the winner: the
        pitcher counting first, then the others' points in the order high, low, jack, game; else,
        with the table option ``set_out``, the one leading alone once a pitcher is at minus 7."""
        players = state.players
        if state.thrown_in:
            return (0,) * players, None
        found = self.categories(state)
        contract: Contract = state.contract
        pitcher = contract.pitcher
        won = [0] * players
        for category in CATEGORIES:
            side = found.winner_of(category)
            if side is not None:
                won[side] += 1
        made = won[pitcher] >= contract.value
        points = list(won)
        if not made:
            points[pitcher] = -contract.value
        running = list(state.standing)
        running[pitcher] += points[pitcher]
        if made and self.wins_at_once(state):
            return tuple(points), pitcher
        if made and running[pitcher] >= TARGET:
            return tuple(points), pitcher
        for category in CATEGORIES:
            side = found.winner_of(category)
            if side is None or side == pitcher:
                continue
            running[side] += 1
            if running[side] >= TARGET:
                return tuple(points), side
        return tuple(points), self.leader_once_set_out(state, points) if state.options.set_out else None

    def wins_at_once(self, state: DealState) -> bool:
        """A made bid that ends the game whatever the score (Smudge's smudge)."""
        return False

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        contract: Contract = state.contract
        points, winner = self.deal_points(state)
        return {
            "pitcher": contract.pitcher,
            "contract": contract.bid,
            "trump": state.trump,
            **self.category_result(state),
            "made": points[contract.pitcher] >= contract.value,
            "points": list(points),
            "scores": [have + got for have, got in zip(state.standing, points, strict=True)],
            "winner": winner,
        }

    # -- words for the table ---------------------------------------------------------

    def bid_label(self, bid: str) -> Text:
        """A bid's button: "Bid 2"."""
        return Text(gettext_noop("Bid %(count)d"), (("count", self.bid_value(bid)),))

    def bid_said(self, bid: str) -> Text | int:
        """A bid as players say it in a sentence ("Dag bids 2"), not its button's words."""
        return self.bid_value(bid)

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        if action == PASS:
            return Text(gettext_noop("Pass")), None
        value = self.bid_value(action)
        return self.bid_label(action), Text(
            gettext_noop("Win at least %(count)d of high, low, jack and game, leading trump first; or lose %(count)d."),
            (("count", value),),
        )

    def call_said(self, deal: DealState | SeatView, index: int) -> Text:
        call = deal.calls[index]
        if call == PASS:
            return Text(gettext_noop("%(name)s passes."))
        return Text(gettext_noop("%(name)s bids %(bid)s."), (("bid", self.bid_said(call)),))

    def auction_prompt(self, view: SeatView) -> Text:
        best = self.highest(view.calls)
        if best is None:
            return Text(gettext_noop("Bid for the pitch (you lead, and your first card names trump), or pass?"))
        bidder = (view.dealer + 1 + best[0]) % view.players
        if len(view.actions) == 1:
            return Text(
                gettext_noop("%(name)s bid %(bid)s, the top bid: you can only pass."),
                (("name", SeatName(bidder)), ("bid", self.bid_said(best[1]))),
            )
        return Text(
            gettext_noop("%(name)s bids %(bid)s: bid higher, or pass?"),
            (("name", SeatName(bidder)), ("bid", self.bid_said(best[1]))),
        )

    def duty_said(self, seen: SeatView) -> Text | None:
        """The pitch: the pitcher's first card names trump, and the prompt says so."""
        if seen.trump is None and seen.trick is not None and not seen.trick.cards and not seen.tricks:
            return Text(gettext_noop("Your lead: play any card; its suit becomes trump."))
        return super().duty_said(seen)

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        contract: Contract | None = view.contract
        if contract is None:
            return ()
        won = (("name", SeatName(contract.pitcher)), ("bid", self.bid_said(contract.bid)))
        if view.trump is None:
            return (
                Text(
                    gettext_noop("%(name)s won the bidding with %(bid)s and pitches: the first card led names trump."),
                    won,
                ),
            )
        return (Text(gettext_noop("%(name)s won the bidding with %(bid)s."), won),)

    def deal_result(self, deal: DealState) -> Text:
        if deal.thrown_in:
            return Text(gettext_noop("Everyone passed: deal %(number)d is thrown in, the next player deals."))
        contract: Contract = deal.contract
        points, _ = self.deal_points(deal)
        pitcher = (("name", SeatName(contract.pitcher)), ("bid", self.bid_said(contract.bid)))
        if points[contract.pitcher] < 0:
            lost = ("points", Count(contract.value, *POINTS))
            made = Text(gettext_noop("%(name)s bid %(bid)s and fell short, losing %(points)s."), (*pitcher, lost))
        else:
            made = Text(gettext_noop("%(name)s bid %(bid)s and made it."), pitcher)
        return Text(
            gettext_noop("Deal %(number)d: %(made)s %(categories)s"),
            (("made", made), ("categories", self.categories_said(deal))),
        )

    # -- computer players ------------------------------------------------------------

    def bot_call_state(self, state: DealState) -> str:
        """Bid what the hand's best suit is likely to win (counting high, jack, low and some game)."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        hand = state.hand(state.to_act)
        expect = max(_pitch_points(hand, suit, state.players) for suit in "SHDC")
        bids = [action for action in actions if action != PASS and self.bid_value(action) <= expect]
        return bids[-1] if bids else PASS


def _pitch_points(hand: list[Card], suit: str, players: int) -> float:
    """Points a pitch in ``suit`` may bring: the ace is high, a king or queen often; the jack if
    held with a guard; low with the two or three; game from tens and length."""
    from .cards import RANKS

    ranks = sorted((RANKS.index(card[0]) for card in hand if card[1] == suit), reverse=True)
    if not ranks:
        return 0.0
    top = RANKS[ranks[0]]
    crowd = 0.1 * (players - 2)
    points = {"A": 1.0, "K": 0.65, "Q": 0.4}.get(top, 0.15) - crowd / 2
    if RANKS.index("J") in ranks:
        points += 0.75 if len(ranks) >= 2 else 0.4
    if ranks[-1] <= RANKS.index("3"):
        points += 0.7 - crowd / 2
    tens = sum(card[0] == "T" for card in hand)
    points += 0.2 * tens + 0.1 * len(ranks) + 0.1 * sum(card[0] == "A" for card in hand if card[1] != suit)
    return points


PITCH = Pitch()
