"""Forty-Five (docs/rules/forty_five.md §5 and docs/rules/forty_five.md §7): the card turned up
after the deal is trump; an ace turned up may be robbed by the dealer, any other by the player
dealt the ace of trumps; five tricks, 3 or 4 of them score 5 and all five 10; game to 45. Two, four
or six players, two sides seated alternately.

The actions, in the rules' order (docs/rules/forty_five.md §9): if anyone may rob, that player's
``rob`` or ``pass``; after ``rob`` the robber's ``discard:XX`` (one of the five cards dealt, face
down); then cards, left of the dealer leading.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cards import BIT, Card, parse_card
from .forty_five_family import ACE_OF_HEARTS, FortyFives, discard_value, points_to_win
from .game import CardName, Count, IllegalPlay, InvalidDeal, SeatName, SuitName, Text
from .options import gettext_noop, ngettext_noop
from .tricks.deal import DealState, Trick
from .tricks.sides import POINTS, SidesMatch

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

ROB, PASS = "rob", "pass"
WINNING_SCORE = 45
# A shorter session: 25, the score of Twenty-Five, the Irish game Forty-Five extends to 45 (the
# same five tricks, played to the older, shorter target).
TARGETS = (25, WINNING_SCORE)


@dataclass(frozen=True, slots=True)
class FortyFiveOptions:
    points: int = WINNING_SCORE  # to win the session

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        """The rules' 45 is left out, so that records dealt before the choice read the same."""
        return {"points": self.points} if self.points != WINNING_SCORE else {}


@dataclass(frozen=True, slots=True)
class Robbing:
    """Who may rob the turned card (None: nobody, the ace of trumps was not dealt)."""

    robber: int | None


def ace_of_trumps(trump: str) -> Card:
    return ACE_OF_HEARTS if trump == "H" else "A" + trump


class FortyFive(FortyFives):
    name = "forty_five"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Forty-Five")
    summary = gettext_noop("The turned card is trump, its ace may rob it; three tricks of five score, first to 45.")
    min_players = 2
    max_players = 6
    seat_counts = frozenset({2, 4, 6})
    target = WINNING_SCORE
    opens_with_auction = False  # play begins at once when nobody may rob

    options_schema = (points_to_win(WINNING_SCORE, TARGETS),)

    def parse_options(self, raw: Mapping[str, Any] | None) -> FortyFiveOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"points"}
        if unknown:
            raise InvalidDeal(f"unknown {self.name} options: {', '.join(sorted(unknown))}")
        return FortyFiveOptions(points=self.parse_target(raw, TARGETS))

    def target_for(self, options: FortyFiveOptions) -> int:
        return options.points

    def describe(self, options: FortyFiveOptions) -> tuple[Text | Count, ...]:
        return (self.describe_target(options),)

    # -- the turn-up and the rob -----------------------------------------------------

    def start_hands(
        self,
        *,
        dealt: Sequence[Sequence[Card]],
        dealer: int,
        options: FortyFiveOptions,
        trump: str | None = None,
        upcard: str | None = None,
        seats: Sequence[int] | None = None,
    ) -> DealState:
        if trump is not None:
            raise InvalidDeal("in forty-five the turned card is trump")
        if upcard is None:
            raise InvalidDeal("a forty-five deal needs its turned card (upcard)")
        upcard = parse_card(upcard)
        if any(upcard in hand for hand in dealt):
            raise InvalidDeal(f"the turned card {upcard} is also in a hand")
        if len(dealt) not in self.seat_counts or not all(dealt):
            raise InvalidDeal(f"{self.name} deals five cards to each of 2, 4 or 6 seats")
        state = super().start_hands(dealt=dealt, dealer=dealer, options=options, trump=upcard[1])
        trump = upcard[1]
        if upcard[0] == "A":
            robber = dealer
        else:
            ace = ace_of_trumps(trump)
            robber = next((seat for seat, hand in enumerate(state.dealt) if ace in hand), None)
        state = replace(state, upcard=upcard, contract=Robbing(robber))
        return state if robber is None else replace(state, trick=None)

    def deal_match(self, match: SidesMatch, rng: random.Random) -> DealState:
        """Deal 3 then 2 from the dealer's left and turn up the next card."""
        dealt, cards = self.shuffled_deal(match, rng)
        setup = {"dealer": match.dealer, "hands": dealt, "options": match.options.as_record(), "upcard": cards[0]}
        return self.start(setup | self.record_context(match))

    def auction_to_act(self, state: DealState) -> int | None:
        robbing: Robbing = state.contract
        return robbing.robber if len(state.calls) < (2 if state.calls[:1] == (ROB,) else 1) else None

    def legal_actions(self, state: DealState) -> list[str]:
        if state.is_over:
            return []
        if state.trick is not None:
            return state.legal_cards()
        if not state.calls:
            return [PASS, ROB]
        robber = state.contract.robber
        return [f"discard:{card}" for card in state.hand(robber) if card != state.upcard]

    def call(self, state: DealState, action: str) -> DealState:
        legal = self.legal_actions(state)
        if action not in legal:
            raise IllegalPlay(
                "not_now", f"{action} is not one of this step's actions", seat=state.to_act, card=action, legal=legal
            )
        robber = state.contract.robber
        hands = list(state.hands)
        if action == ROB:
            hands[robber] |= BIT[state.upcard]
        elif action.startswith("discard:"):
            hands[robber] ^= BIT[action[8:]]
        state = replace(state, calls=(*state.calls, action), hands=tuple(hands))
        if action == ROB:
            return state
        return replace(state, trick=Trick(leader=state.seat_after(state.dealer)))

    def robbed_by(self, state: DealState | SeatView) -> int | None:
        return state.contract.robber if state.calls[:1] == (ROB,) else None

    def upcard_on_show(self, view: SeatView) -> bool:
        """The turned card lies face up until it is robbed (then everyone knows who holds it)."""
        return self.robbed_by(view) is None

    def discard_shown_after(self, state: DealState, seat: int) -> bool:
        """The record gives the hands as dealt and the turned card: the card put away follows from the
        cards played, so it is no secret once the deal is over."""
        return True

    # -- scoring -------------------------------------------------------------------

    def deal_points(self, state: DealState) -> tuple[tuple[int, ...], int | None]:
        """5 to the side with 3 or 4 tricks, 10 for all five; the side that reached the target wins."""
        taken, _ = self.trick_points(state)
        side = 0 if taken[0] >= 3 else 1
        points = [0, 0]
        points[side] = 10 if taken[side] == 5 else 5
        winner = side if state.standing[side] + points[side] >= state.options.points else None
        return tuple(points), winner

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        taken, _ = self.trick_points(state)
        points, winner = self.deal_points(state)
        return {
            "trump": state.trump,
            "robbed_by": self.robbed_by(state),
            "tricks_won": list(taken),
            "points": list(points),
            "scores": [have + got for have, got in zip(state.standing, points, strict=True)],
            "winner": winner,
        }

    # -- words for the table ---------------------------------------------------------

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        up = (("card", CardName(view.upcard)),)
        if action == ROB:
            return Text(gettext_noop("Rob the %(card)s"), up), Text(
                gettext_noop("Take the turned card into your hand and put away one of yours face down."), up
            )
        if action == PASS:
            return Text(gettext_noop("Leave the %(card)s"), up), Text(
                gettext_noop("Keep your five cards; the %(card)s stays out of play."), up
            )
        return Text(gettext_noop("Put away %(card)s"), (("card", CardName(action[8:])),)), None

    def call_said(self, deal: DealState | SeatView, index: int) -> Text:
        call = deal.calls[index]
        up = (("card", CardName(deal.upcard)),)
        if call == ROB:
            return Text(gettext_noop("%(name)s robs the %(card)s."), up)
        if call == PASS:
            return Text(gettext_noop("%(name)s leaves the %(card)s."), up)
        if call.startswith("discard:"):
            return Text(gettext_noop("%(name)s puts away %(card)s."), (("card", CardName(call[8:])),))
        return Text(gettext_noop("%(name)s puts a card away face down."))

    def auction_prompt(self, view: SeatView) -> Text:
        up = (("card", CardName(view.upcard)), ("suit", SuitName(view.upcard[1])))
        if view.calls:
            return Text(gettext_noop("You took the %(card)s: put away one of your other cards face down."), up)
        if view.upcard[0] == "A":
            return Text(gettext_noop("The %(card)s is turned up and trump is %(suit)s: as the dealer, rob it?"), up)
        return Text(
            gettext_noop("You hold the %(ace)s: rob the turned %(card)s (take it, put away a card)?"),
            (*up, ("ace", CardName(ace_of_trumps(view.trump)))),
        )

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        robber = self.robbed_by(view)
        if robber is None:
            return ()
        return (
            Text(
                gettext_noop("%(name)s robbed the %(card)s."),
                (("name", SeatName(robber)), ("card", CardName(view.upcard))),
            ),
        )

    def match_facts(self, match: SidesMatch) -> tuple[Text, ...]:
        return self.side_facts(match)

    def deal_result(self, deal: DealState) -> Text:
        taken, _ = self.trick_points(deal)
        points, _ = self.deal_points(deal)
        side = 0 if points[0] else 1
        return Text(
            gettext_noop("Deal %(number)d: %(points)s to %(side)s for %(tricks)s."),
            (
                ("side", self.side_name(deal, side)),
                ("tricks", Count(taken[side], *ngettext_noop("%(count)d trick", "%(count)d tricks"))),
                ("points", Count(points[side], *POINTS)),
            ),
        )

    # -- computer players ------------------------------------------------------------

    def bot_call_state(self, state: DealState) -> str:
        """Rob whenever allowed (the turned card is a trump), and put away the weakest card."""
        actions = state.legal_actions()
        if ROB in actions:
            return ROB
        return min(actions, key=lambda action: discard_value(action[8:], state.trump))

    def known_held(self, seen: SeatView) -> dict[int, list[Card]]:
        """A robbed card is in the robber's hand until played; the ace of trumps is with whoever was
        asked to rob because of it."""
        robbing: Robbing = seen.contract
        robber = robbing.robber
        if robber is None or robber == seen.seat:
            return {}
        played = {card for trick in (*seen.tricks, *([seen.trick] if seen.trick else [])) for card in trick.cards}
        held = []
        if self.robbed_by(seen) is not None and seen.upcard not in played:
            held.append(seen.upcard)
        ace = ace_of_trumps(seen.trump)
        if seen.upcard[0] != "A" and ace not in played and len(held) < seen.hand_sizes[robber]:
            held.append(ace)
        return {robber: held} if held else {}

    def known_gone(self, seen: SeatView) -> tuple[Card, ...]:
        """The turned card, left on the table; the viewer's own card put away."""
        gone = super().known_gone(seen)
        return gone if self.robbed_by(seen) is not None else (*gone, seen.upcard)


FORTY_FIVE = FortyFive()
