"""Euchre: four players in two partnerships, an upcard, trump made in two rounds, the right and
left bowers, going alone (docs/rules/euchre.md).

Before the first card every decision is an action (``DealState.calls``), in the order of
docs/rules/euchre.md §11: round one (``order``/``pass``), the dealer's ``discard:XX``
after an order, round two (``pass``/``call:S``), the maker's ``alone``/``pass``, and after a lone
maker each opponent's ``defend-alone``/``pass``. Then the seats sitting out leave
``DealState.seats`` and play skips them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cards import BIT, Card, deck, parse_card
from .game import CardName, Count, IllegalPlay, InvalidDeal, SeatName, SuitName, Text
from .options import Option, gettext_noop, ngettext_noop
from .tricks.auction import AuctionGame
from .tricks.deal import DealState, Trick
from .tricks.seat_view import HIDDEN_DISCARD

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

PASS, ORDER, ALONE, DEFEND = "pass", "order", "alone", "defend-alone"
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}
_RANK_ORDER = "789TJQKA"
TEAMS = ((0, 2), (1, 3))


def team_of(seat: int) -> int:
    return seat % 2


def suit_in_play(card: Card, trump: str | None) -> str:
    """The suit a card follows and counts as: the left bower belongs to the trump suit."""
    if trump is not None and card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def power(card: Card, led: str, trump: str) -> int:
    """How strongly a card takes a trick led in ``led``: right bower, left bower, trumps, then the led suit."""
    if card == "J" + trump:
        return 100
    if card == "J" + SAME_COLOUR[trump]:
        return 99
    suit = suit_in_play(card, trump)
    if suit == trump:
        return 50 + _RANK_ORDER.index(card[0])
    return 10 + _RANK_ORDER.index(card[0]) if suit == led else 0


@dataclass(frozen=True, slots=True)
class EuchreOptions:
    points: int = 5
    stick_the_dealer: bool = False

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        return {"stick_the_dealer": self.stick_the_dealer} | ({"points": self.points} if self.points != 5 else {})


@dataclass(frozen=True, slots=True)
class Making:
    """Where trump making stands after the calls so far."""

    step: str  # "round1", "discard", "round2", "alone", "defend", "play", "thrown_in"
    seat: int | None  # who acts now
    maker: int | None = None
    trump: str | None = None
    alone: bool = False
    defender: int | None = None  # the lone defender, if any
    asked: int = 0  # defenders asked so far (defend step)


class Euchre(AuctionGame):
    name = "euchre"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Euchre")
    summary = gettext_noop("Two against two: make trump from the upcard, take three tricks of five, or go alone.")
    min_players = 4
    max_players = 4
    packets = (3, 2)
    counts_tricks = True
    bold_calls = frozenset({ALONE, DEFEND})  # a partner to a beginner never goes or defends alone

    options_schema = (
        Option(
            "points",
            "choice",
            "5",
            gettext_noop("Points to win"),
            gettext_noop("The first partnership to this many points wins the session."),
            choices=(
                ("5", gettext_noop("5 points")),
                ("7", gettext_noop("7 points")),
                ("10", gettext_noop("10 points")),
            ),
        ),
        Option(
            "stick_the_dealer",
            "flag",
            False,
            gettext_noop("Stick the dealer"),
            gettext_noop("When everyone passes twice, the dealer must name trump instead of throwing the deal in."),
        ),
    )

    def describe(self, options: EuchreOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [
            Count(
                options.points,
                *ngettext_noop("first partnership to %(count)d point", "first partnership to %(count)d points"),
            )
        ]
        if options.stick_the_dealer:
            said.append(Text(gettext_noop("stick the dealer")))
        return tuple(said)

    def parse_options(self, raw: Mapping[str, Any] | None) -> EuchreOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"points", "stick_the_dealer"}
        if unknown:
            raise InvalidDeal(f"unknown euchre options: {', '.join(sorted(unknown))}")
        points = raw.get("points", 5)
        points = int(points) if isinstance(points, str) and points.isdigit() else points
        stick = raw.get("stick_the_dealer", False)
        if points not in (5, 7, 10) or isinstance(points, bool):
            raise InvalidDeal("points must be 5, 7 or 10")
        if not isinstance(stick, bool):
            raise InvalidDeal("stick_the_dealer must be true or false")
        return EuchreOptions(points=points, stick_the_dealer=stick)

    def deck(self, players: int) -> tuple[Card, ...]:
        if players != 4:
            raise InvalidDeal(f"euchre is for 4 players, not {players}")
        return deck(_RANK_ORDER)

    # -- dealing ---------------------------------------------------------------

    def deal(
        self,
        *,
        players: int,
        dealer: int,
        options: EuchreOptions,
        rng: random.Random,
        seats: Sequence[int] | None = None,
    ) -> DealState:
        """Shuffle, cut, deal 3 then 2 from the dealer's left, and turn up the next card."""
        cards = list(self.deck(players))
        rng.shuffle(cards)
        cut = rng.randrange(1, len(cards))
        cards = cards[cut:] + cards[:cut]
        dealt: list[list[Card]] = [[] for _ in range(players)]
        for packet in self.packets:
            for step in range(1, players + 1):
                seat = (dealer + step) % players
                dealt[seat].extend(cards[:packet])
                del cards[:packet]
        return self.start_hands(dealt=dealt, dealer=dealer, options=options, upcard=cards[0])

    def start_hands(
        self,
        *,
        dealt: Sequence[Sequence[Card]],
        dealer: int,
        options: EuchreOptions,
        trump: str | None = None,
        upcard: str | None = None,
    ) -> DealState:
        if trump is not None:
            raise InvalidDeal("in euchre trump is made after the deal")
        if len(dealt) != 4 or sum(not hand for hand in dealt) > 2:
            raise InvalidDeal("euchre deals five cards to each of four seats")
        if upcard is None:
            raise InvalidDeal("a euchre deal needs its upcard")
        upcard = parse_card(upcard)
        if upcard not in self.deck(4):
            raise InvalidDeal(f"{upcard} is not in the euchre deck")
        if any(upcard in hand for hand in dealt):
            raise InvalidDeal(f"the upcard {upcard} is also in a hand")
        # An empty hand is one nobody saw: a record shows no hand of a seat that sat the deal out.
        state = super().start_hands(dealt=dealt, dealer=dealer, options=options, seats=range(4))
        return replace(state, trick=None, upcard=upcard)

    # -- making trump ------------------------------------------------------------

    def making(self, state: DealState) -> Making:
        """Read the calls from the start: who acts now and what has been settled."""
        dealer, calls = state.dealer, state.calls
        left = (dealer + 1) % 4
        i = 0
        # Round one: order or pass, the first order ends it.
        maker = None
        for turn in range(4):
            if i == len(calls):
                return Making("round1", (left + turn) % 4)
            if calls[i] == ORDER:
                maker, i = (left + turn) % 4, i + 1
                break
            i += 1
        trump = None
        if maker is not None:
            trump = state.upcard[1]
            if i == len(calls):
                return Making("discard", dealer, maker, trump)
            i += 1  # the dealer's discard
        else:
            for turn in range(4):
                if i == len(calls):
                    return Making("round2", (left + turn) % 4)
                if calls[i].startswith("call:"):
                    maker, trump, i = (left + turn) % 4, calls[i][5:], i + 1
                    break
                i += 1
            if maker is None:
                return Making("thrown_in", None)
        if i == len(calls):
            return Making("alone", maker, maker, trump)
        alone = calls[i] == ALONE
        i += 1
        if not alone:
            return Making("play", None, maker, trump)
        for asked, opponent in enumerate(((maker + 1) % 4, (maker + 3) % 4)):
            if i == len(calls):
                return Making("defend", opponent, maker, trump, True, None, asked)
            if calls[i] == DEFEND:
                return Making("play", None, maker, trump, True, opponent)
            i += 1
        return Making("play", None, maker, trump, True)

    def auction_to_act(self, state: DealState) -> int | None:
        return self.making(state).seat

    def legal_actions(self, state: DealState) -> list[str]:
        if state.is_over:
            return []
        if state.trick is not None:
            return state.legal_cards()
        making = self.making(state)
        if making.step == "round1":
            return [PASS, ORDER]
        if making.step == "discard":
            return [f"discard:{card}" for card in state.hand(state.dealer)]
        if making.step == "round2":
            calls = [f"call:{suit}" for suit in "SHDC" if suit != state.upcard[1]]
            return calls if stick_now(state, making) else [PASS, *calls]
        if making.step == "alone":
            return [PASS, ALONE]
        return [PASS, DEFEND]

    def call(self, state: DealState, action: str) -> DealState:
        legal = self.legal_actions(state)
        if action == HIDDEN_DISCARD and self.making(state).step == "discard":
            return self._hidden_discard(state)
        if action not in legal:
            raise IllegalPlay(
                "not_now", f"{action} is not one of this step's actions", seat=state.to_act, card=action, legal=legal
            )
        state = replace(state, calls=(*state.calls, action))
        if action.startswith("discard:"):
            hands = list(state.hands)
            hands[state.dealer] = hands[state.dealer] ^ BIT[action[8:]]
            state = replace(state, hands=tuple(hands))
        elif action == ORDER:  # the dealer picks the upcard up (six cards until the discard)
            hands = list(state.hands)
            hands[state.dealer] |= BIT[state.upcard]
            state = replace(state, hands=tuple(hands))
        making = self.making(state)
        if making.step == "thrown_in":
            return replace(state, thrown_in=True)
        if making.step != "play":
            return state
        out = set()
        if making.alone:
            out.add((making.maker + 2) % 4)
            if making.defender is not None:
                out.add((making.defender + 2) % 4)
        if HIDDEN_DISCARD in state.calls and state.dealer not in out:
            raise IllegalPlay(
                "hidden_discard",
                "the dealer plays this deal, so the discard must name its card",
                seat=state.dealer,
                card=HIDDEN_DISCARD,
                legal=[],
            )
        seats = tuple(seat for seat in range(4) if seat not in out)
        unseen = [seat for seat in seats if not state.dealt[seat]]
        if unseen:
            raise IllegalPlay(
                "hidden_hand",
                f"seat {unseen[0]} plays this deal, so the record must show its hand",
                seat=unseen[0],
                card=action,
                legal=[],
            )
        first = (state.dealer + 1) % 4 if not making.alone else (making.maker + 1) % 4
        while first in out:
            first = (first + 1) % 4
        contract = (making.maker, making.trump, making.alone, making.defender)
        return replace(state, seats=seats, trump=making.trump, contract=contract, trick=Trick(leader=first))

    def _hidden_discard(self, state: DealState) -> DealState:
        """A replayed export whose discard was never shown: allowed only if the dealer then sits
        the deal out (a partner alone), when which card left the hand changes nothing."""
        going = self.call(state, f"discard:{state.upcard}")
        return replace(going, calls=(*state.calls, HIDDEN_DISCARD))

    # -- playing -----------------------------------------------------------------

    def legal_mask(self, state: DealState) -> int:
        seat = state.to_act
        if seat is None or state.trick is None:
            return 0
        hand = state.hand(seat)
        if not state.trick.cards:
            return state.hands[seat]
        led = suit_in_play(state.trick.cards[0], state.trump)
        following = [card for card in hand if suit_in_play(card, state.trump) == led]
        return sum(BIT[card] for card in following) if following else state.hands[seat]

    def trick_winner(self, state: DealState, trick: Trick) -> int:
        led = suit_in_play(trick.cards[0], state.trump)
        strengths = [power(card, led, state.trump) for card in trick.cards]
        return state.seat_after(trick.leader, strengths.index(max(strengths)))

    def _broken_rule(self, state: DealState, seat: int, card: Card, legal: list[Card]) -> IllegalPlay:
        led = suit_in_play(state.trick.cards[0], state.trump)
        message = f"must follow {led} (the left bower counts as trump) with one of {', '.join(legal)}"
        return IllegalPlay("must_follow", message, seat=seat, card=card, legal=legal, suit=led)

    # -- words for the table --------------------------------------------------------

    def duty_said(self, seen: SeatView) -> Text | None:
        """The left bower is a trump, whatever suit it shows: the prompt says so where it matters."""
        trick, trump = seen.trick, seen.trump
        if trick is None or not trick.cards or trump is None:
            return None
        left = "J" + SAME_COLOUR[trump]
        if left not in seen.hand:
            return None
        led = suit_in_play(trick.cards[0], trump)
        card = ("card", CardName(left))
        if led == trump:
            return Text(gettext_noop("Your turn: play a trump (the %(card)s is one)."), (card,))
        if led != left[1]:
            return None
        if seen.duty[0] == "discard":
            return Text(
                gettext_noop("Your turn: you have no %(suit)s (the %(card)s is a trump), play any card."),
                (("suit", SuitName(led)), card),
            )
        return Text(
            gettext_noop("Your turn: follow %(suit)s (the %(card)s is a trump)."), (("suit", SuitName(led)), card)
        )

    def sides(self, players: int, options: Any = None) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        step = self._step(view)
        up = (("suit", SuitName(view.upcard[1])), ("card", CardName(view.upcard)))
        if action == ORDER and view.seat == view.dealer:
            return Text(gettext_noop("Pick up the %(card)s"), up), Text(
                gettext_noop("Trump will be %(suit)s; you take the card and discard one."), up
            )
        if action == ORDER:
            return Text(gettext_noop("Order up %(suit)s"), up), Text(
                gettext_noop("Trump will be %(suit)s; the dealer picks up the %(card)s."), up
            )
        if action.startswith("discard:"):
            return Text(gettext_noop("Discard %(card)s"), (("card", CardName(action[8:])),)), None
        if action.startswith("call:"):
            return Text(gettext_noop("Call %(suit)s"), (("suit", SuitName(action[5:])),)), Text(
                gettext_noop("Trump will be %(suit)s, and you are the maker."), (("suit", SuitName(action[5:])),)
            )
        if action == ALONE:
            return Text(gettext_noop("Go alone")), Text(
                gettext_noop("Your partner sits out: 4 points if you take all five tricks.")
            )
        if action == DEFEND:
            return Text(gettext_noop("Defend alone")), Text(
                gettext_noop("Your partner sits out: 4 points if you take all five tricks.")
            )
        if step in ("alone", "defend"):
            return Text(gettext_noop("Play with my partner")), None
        return Text(gettext_noop("Pass")), None

    def _step(self, view: SeatView) -> str:
        making = self.making(_calls_only(view))
        return making.step

    def discard_shown_after(self, state: DealState, seat: int) -> bool:
        """The dealer's discard is shown after the deal where the cards played give it away: the
        dealer played all five (not when the dealer sat the deal out)."""
        return seat in state.seats

    def upcard_on_show(self, view: SeatView) -> bool:
        return view.upcard is not None and self._step(view) == "round1"

    def call_said(self, deal: DealState | SeatView, index: int) -> Text:
        """A call in the words of its step: a pass after ordering up is playing with the partner,
        and ordering up, picking up or turning down names the upcard."""
        call = deal.calls[index]
        making = self.making(_calls_only(deal, deal.calls[:index]))
        up = (("card", CardName(deal.upcard)),)
        if call == ORDER and making.seat == deal.dealer:
            return Text(gettext_noop("%(name)s picks up the %(card)s."), up)
        if call == ORDER:
            return Text(gettext_noop("%(name)s orders up the %(card)s."), up)
        if call == PASS and making.step == "round1" and making.seat == deal.dealer:
            return Text(gettext_noop("%(name)s passes and turns the %(card)s down."), up)
        if call == PASS and making.step == "alone":
            return Text(gettext_noop("%(name)s plays with their partner."))
        if call == PASS and making.step == "defend":
            return Text(gettext_noop("%(name)s does not defend alone."))
        if call.startswith("discard"):
            return Text(gettext_noop("%(name)s discards a card face down."))
        if call.startswith("call:"):
            return Text(gettext_noop("%(name)s calls %(suit)s."), (("suit", SuitName(call[5:])),))
        if call == ALONE:
            return Text(gettext_noop("%(name)s goes alone."))
        if call == DEFEND:
            return Text(gettext_noop("%(name)s defends alone."))
        return Text(gettext_noop("%(name)s passes."))

    def auction_prompt(self, view: SeatView) -> Text:
        step = self._step(view)
        up = (("suit", SuitName(view.upcard[1])), ("card", CardName(view.upcard)))
        if step == "round1" and view.seat == view.dealer:
            return Text(gettext_noop("Pick up the %(card)s and make %(suit)s trump, or pass?"), up)
        if step == "round1":
            return Text(gettext_noop("Order up %(suit)s (the dealer picks up the %(card)s), or pass?"), up)
        if step == "discard":
            return Text(gettext_noop("You picked up the %(card)s: discard one card face down."), up)
        if step == "round2" and PASS not in view.actions:
            return Text(gettext_noop("Stick the dealer: you must name trump (not %(suit)s)."), up)
        if step == "round2":
            return Text(gettext_noop("The %(card)s was turned down: name another suit as trump, or pass?"), up)
        if step == "alone":
            return Text(gettext_noop("You are the maker: go alone, or play with your partner?"))
        maker = self.making(_calls_only(view)).maker
        return Text(
            gettext_noop("%(name)s goes alone: defend alone, or play with your partner?"), (("name", SeatName(maker)),)
        )

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        if view.contract is None:
            making = self.making(_calls_only(view))
            if making.step == "round2":
                return (Text(gettext_noop("The %(card)s was turned down."), (("card", CardName(view.upcard)),)),)
            if making.maker is None:
                return ()  # round one: the upcard itself is on show
            return (
                Text(
                    gettext_noop("%(name)s made %(suit)s trump."),
                    (("name", SeatName(making.maker)), ("suit", SuitName(making.trump))),
                ),
            )
        maker, trump, alone, defender = view.contract
        facts = [
            Text(gettext_noop("%(name)s made %(suit)s trump."), (("name", SeatName(maker)), ("suit", SuitName(trump))))
        ]
        if alone:
            facts.append(
                Text(
                    gettext_noop("%(name)s plays alone; %(partner)s sits out."),
                    (("name", SeatName(maker)), ("partner", SeatName((maker + 2) % 4))),
                )
            )
        if defender is not None:
            facts.append(
                Text(
                    gettext_noop("%(name)s defends alone; %(partner)s sits out."),
                    (("name", SeatName(defender)), ("partner", SeatName((defender + 2) % 4))),
                )
            )
        return tuple(facts)

    def match_facts(self, match: EuchreMatch) -> tuple[Text, ...]:
        return tuple(
            Text(
                gettext_noop("%(name)s and %(partner)s: %(points)s"),
                (("name", SeatName(a)), ("partner", SeatName(b)), ("points", _points(match.points[team]))),
            )
            for team, (a, b) in enumerate(TEAMS)
        )

    def deal_result(self, deal: DealState) -> Text:
        if deal.thrown_in:
            return Text(gettext_noop("Everyone passed twice: deal %(number)d is thrown in, the next player deals."))
        maker = deal.contract[0]
        points = self.points(deal)
        team = team_of(maker) if points[team_of(maker)] else 1 - team_of(maker)
        a, b = TEAMS[team]
        taken = self.tricks_won(deal)[team_of(maker)]
        params = (
            ("name", SeatName(a)),
            ("partner", SeatName(b)),
            ("points", _points(points[team])),
            ("tricks", Count(taken, *ngettext_noop("%(count)d trick", "%(count)d tricks"))),
        )
        if team != team_of(maker) and not taken:
            return Text(
                gettext_noop(
                    "Euchred: the makers took no trick. %(name)s and %(partner)s score %(points)s (deal %(number)d)."
                ),
                params,
            )
        if team != team_of(maker):
            return Text(
                gettext_noop(
                    "Euchred: the makers took only %(tricks)s. "
                    "%(name)s and %(partner)s score %(points)s (deal %(number)d)."
                ),
                params,
            )
        return Text(
            gettext_noop("The makers took %(tricks)s: %(name)s and %(partner)s score %(points)s (deal %(number)d)."),
            params,
        )

    # -- scoring -----------------------------------------------------------------

    def tricks_won(self, state: DealState) -> tuple[int, int]:
        return tuple(sum(team_of(t.winner) == team for t in state.tricks) for team in (0, 1))

    def points(self, state: DealState) -> tuple[int, int]:
        """The partnerships' points from a finished deal (none for a thrown-in deal)."""
        if not state.is_over:
            raise InvalidDeal("the deal is not over")
        if state.thrown_in:
            return (0, 0)
        maker, _, alone, defender = state.contract
        makers = team_of(maker)
        taken = self.tricks_won(state)[makers]
        points = [0, 0]
        if taken == 5:
            points[makers] = 4 if alone else 2
        elif taken >= 3:
            points[makers] = 1
        else:
            points[1 - makers] = 4 if defender is not None and taken == 0 else 2
        return tuple(points)

    def deal_outcome(self, state: DealState) -> dict[str, Any]:
        maker, trump, alone, defender = state.contract
        return {
            "maker": maker,
            "trump": trump,
            "alone": alone,
            "defender_alone": defender is not None,
            "tricks_won": list(self.tricks_won(state)),
            "points": list(self.points(state)),
        }

    def deal_score(self, state: DealState, seat: int) -> float:
        return float(self.points(state)[team_of(seat)] > 0)

    def seat_scores(self, match: EuchreMatch, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        return (Count(match.points[team_of(seat)], *ngettext_noop("%(count)d point", "%(count)d points")),)

    def ranking(self, match: EuchreMatch) -> tuple[float, ...]:
        return tuple(float(match.points[team_of(seat)]) for seat in range(4))

    def new_match(self, *, players: int, options: EuchreOptions, rng: random.Random) -> EuchreMatch:
        self.deck(players)
        return EuchreMatch(options=options, dealer=rng.randrange(4))

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: EuchreOptions) -> EuchreMatch:
        self.deck(players)
        return EuchreMatch(options=options, dealer=record["dealer"], points=tuple(record["points"]))

    # -- computer players --------------------------------------------------------

    bots_count_tricks = True

    def suit_in_play(self, card: Card, trump: str | None) -> str:
        return suit_in_play(card, trump)

    def card_power(self, card: Card, led: str, trump: str | None) -> int:
        if trump is None:
            return 10 + _RANK_ORDER.index(card[0]) if card[1] == led else 0
        return power(card, led, trump)

    def makers(self, contract: Any) -> tuple[int, ...]:
        return () if contract is None else (contract[0], (contract[0] + 2) % 4)

    def hand_tricks(self, hand: Sequence[Card], trump: str | None) -> float:
        """Tricks five cards may take with ``trump``: a trump counts by the higher trumps out (each
        in an opponent's hand about two times in five), an off ace most of a trick, a void with two
        trumps to ruff with a little."""
        if trump is None:
            return max(self.hand_tricks(hand, suit) for suit in "SHDC")
        trumps = [power(card, trump, trump) for card in hand if suit_in_play(card, trump) == trump]
        trumps.sort(reverse=True)
        ladder = [100, 99, *range(57, 49, -1)]  # right, left, A K Q (J) T 9 8 7 of trump
        ladder.remove(50 + _RANK_ORDER.index("J"))  # the jack of trump is the right bower
        tricks = 0.0
        for mine_above, strength in enumerate(trumps):
            missing = ladder.index(strength) - mine_above
            tricks += 0.62 ** max(0, missing - (len(trumps) - 1 - mine_above))  # length draws theirs
        side = [card for card in hand if suit_in_play(card, trump) != trump]
        for card in side:
            if card[0] == "A":
                tricks += 0.75
            elif card[0] == "K":
                tricks += 0.4 if any(c[1] == card[1] and c[0] == "A" for c in side) else 0.2
        if len(trumps) >= 2:
            tricks += 0.25 * sum(not any(c[1] == suit for c in side) for suit in "SHDC" if suit != trump) - 0.25
        return tricks

    def bot_call(self, view: Any) -> str:
        """Order or call with about two tricks of my own (my partner brings the third), counting the
        upcard for whoever picks it up; go alone with four; discard what weakens the hand least
        (short-suiting it); defend alone with three."""
        actions, hand, trump = view.actions, list(view.hand), view.trump
        seat, dealer, upcard = view.seat, view.dealer, view.upcard
        if ORDER in actions:
            suit = upcard[1]
            if seat == dealer:
                expect = max(self.hand_tricks([*[c for c in hand if c != drop], upcard], suit) for drop in hand)
            else:
                gift = 0.3 + 0.3 * (power(upcard, suit, suit) >= 57)
                expect = self.hand_tricks(hand, suit) + (gift if team_of(dealer) == team_of(seat) else -gift)
            return ORDER if expect >= 2.1 else PASS
        if actions[0].startswith("discard:"):
            suit = upcard[1]

            def after(action: str) -> tuple[float, int]:
                card = action[8:]
                kept = [c for c in hand if c != card]
                return self.hand_tricks(kept, suit), -power(card, card[1], suit)

            return max(actions, key=after)
        calls = [action for action in actions if action.startswith("call:")]
        if calls:
            best = max(calls, key=lambda call: self.hand_tricks(hand, call[5:]))
            return best if PASS not in actions or self.hand_tricks(hand, best[5:]) >= 2.3 else PASS
        if ALONE in actions:
            return ALONE if self.hand_tricks(hand, trump) >= 4.0 else PASS
        return DEFEND if DEFEND in actions and self.hand_tricks(hand, trump) >= 3.2 else PASS

    def known_cards(self, view: Any) -> dict[int | None, tuple[Card, ...]]:
        """The upcard: in the dealer's hand once ordered (until played), else in nobody's; and the
        dealer's own discard."""
        if view.upcard is None:
            return {}
        played = {card for trick in (*view.tricks, *([view.trick] if view.trick else [])) for card in trick.cards}
        known: dict[int | None, tuple[Card, ...]] = {}
        gone = tuple(call[8:] for call in view.calls if call.startswith("discard:"))
        if ORDER not in view.calls:
            gone += (view.upcard,)
        elif view.seat != view.dealer and view.upcard not in played:
            known[view.dealer] = (view.upcard,)
        if gone:
            known[None] = gone
        return known

    def bot_value(self, state: DealState, seat: int) -> float:
        points = self.points(state)
        return float(points[team_of(seat)] - points[1 - team_of(seat)])


def _points(count: int) -> Count:
    return Count(count, *ngettext_noop("%(count)d point", "%(count)d points"))


def _calls_only(view: SeatView | DealState, calls: tuple[str, ...] | None = None) -> DealState:
    """Enough of a deal for ``making`` to read a view's calls, or the first of them (which never
    needs the hands)."""
    return DealState(
        game=view.game,
        rules=view.rules,
        options=None,
        dealer=view.dealer,
        dealt=(),
        trump=None,
        hands=(),
        calls=view.calls if calls is None else tuple(calls),
        upcard=view.upcard,
    )


def stick_now(state: DealState, making: Making) -> bool:
    """Stick the dealer: in round two the dealer may not pass."""
    return state.options.stick_the_dealer and making.seat == state.dealer


@dataclass(frozen=True, slots=True)
class EuchreMatch:
    """Points per partnership (seats 0+2, 1+3); the first to the table's target wins, both partners."""

    options: EuchreOptions
    dealer: int
    points: tuple[int, int] = (0, 0)
    players: int = 4

    @property
    def finished(self) -> bool:
        return max(self.points) >= self.options.points

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.finished:
            return ()
        return TEAMS[self.points.index(max(self.points))]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.points[team_of(seat)] for seat in range(4))

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "points": list(self.points)}

    def deal(self, rng: random.Random) -> DealState:
        return EUCHRE.deal(players=4, dealer=self.dealer, options=self.options, rng=rng)

    def settle(self, deal: DealState) -> EuchreMatch:
        if self.finished:
            raise InvalidDeal("the match is already over")
        if deal.dealer != self.dealer:
            raise InvalidDeal("only this match's next deal can be settled")
        gained = EUCHRE.points(deal)
        points = tuple(have + got for have, got in zip(self.points, gained, strict=True))
        return replace(self, points=points, dealer=(self.dealer + 1) % 4)


EUCHRE = Euchre()
