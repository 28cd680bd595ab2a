"""The trick library's deal: hands, an auction or a request for new cards, then tricks.

Nine of the ten games are trick games. Each is one module holding a ``TrickGame`` subclass
and a match class; the subclass supplies its deck, packets, options, scoring and words, and
overrides only what its tricks do differently:

- ``parse_options(raw)`` -> the game's frozen options (validated, with defaults);
- ``deck(players)`` -> the cards in play for that many players;
- ``overtake(options)`` and ``trump_suit(options, dealt, dealer)``: the table's trick rules;
- ``legal_mask(state)`` and ``trick_winner(state, cards)``: override only if the
  game's tricks differ from "follow suit, highest of led suit or trump wins";
- ``new_match(players, options, rng)`` -> a ``Match``: ``deal(rng)``, ``settle(deal)``,
  ``finished``, ``winners`` and ``scores``.

Dealing, playing a card, refusals naming the rule broken, the deal result and the game
protocol's view (``games.engine.tricks.shown``) are shared here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import BIT, CARDS, INDEX, SUITS, Card, NotationError, from_mask, parse_card, parse_suit
from ..game import (
    EVERYONE,
    Area,
    Count,
    Game,
    IllegalPlay,
    InvalidDeal,
    Marks,
    Match,
    Outcome,
    SeatName,
    Text,
    View,
    Viewer,
)
from ..options import Option, gettext_noop

if TYPE_CHECKING:
    from .redeal import RedealPoll
    from .seat_view import SeatView
from .masks import NO_TRUMP, legal_mask, trick_standing

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
REDEAL_YES, REDEAL_NO = "redeal:yes", "redeal:no"  # ask for (or agree to) new cards; refuse
ACTION_WORDS = (REDEAL_YES, REDEAL_NO)  # the words the games here take, besides cards


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[Card, ...] = ()
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class DealState:
    """One deal, from the dealt hands to the last trick; never mutated, ``play`` returns a new one."""

    game: str
    rules: TrickGame = field(compare=False, repr=False)  # the game itself (the state's own, as OpenSpiel's)
    options: Any
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    trump: str | None
    hands: tuple[int, ...]
    tricks: tuple[Trick, ...] = ()
    trick: Trick | None = None
    seats: tuple[int, ...] = field(default=())
    poll: RedealPoll | None = None  # a request for new cards, before the first card (an option)
    votes: int = 0  # actions in the poll (they all come before the first card)
    # Games with an auction (bids, trump making) take these actions before the first card, while
    # ``trick`` is None; ``contract`` is what the auction settled, in the game's own terms.
    calls: tuple[str, ...] = ()
    contract: Any = None
    thrown_in: bool = False  # every seat passed: the deal ends unplayed, the next dealer deals
    upcard: Card | None = None  # a card the deal turns face up beside the hands (Euchre)
    stock: tuple[Card, ...] = ()  # the undealt cards in order, top first, where the deal draws from them
    standing: tuple[int, ...] = ()  # each side's score before the deal, where the deal's rules read it

    @property
    def players(self) -> int:
        return len(self.dealt)

    @property
    def tricks_per_deal(self) -> int:
        return max(len(hand) for hand in self.dealt)

    @property
    def is_over(self) -> bool:
        return len(self.tricks) == self.tricks_per_deal or self.redealt or self.thrown_in

    @property
    def redealt(self) -> bool:
        """Everyone agreed to new cards: the deal ends unplayed and the same dealer deals again."""
        return self.poll is not None and self.poll.outcome == "redeal"

    @property
    def poll_open(self) -> bool:
        return self.poll is not None and self.poll.outcome is None

    @property
    def to_act(self) -> int | None:
        if self.poll is not None and self.poll.outcome != "declined":
            return self.poll.voter
        if self.trick is None:
            return None if self.is_over else self.rules.auction_to_act(self)
        return self.seat_after(self.trick.leader, len(self.trick.cards))

    @property
    def winner(self) -> int | None:
        """The deal's winner: whoever took the last trick (none for a deal dealt again)."""
        return self.tricks[-1].winner if len(self.tricks) == self.tricks_per_deal else None

    @property
    def action_count(self) -> int:
        """Actions taken so far: votes on new cards, then cards (the order they are stored in)."""
        return self.votes + len(self.calls) + len(self.plays)

    @property
    def plays(self) -> list[Card]:
        cards = [card for trick in self.tricks for card in trick.cards]
        return cards + list(self.trick.cards) if self.trick else cards

    @property
    def callers(self) -> tuple[int, ...]:
        """Who made each call of the auction so far, in order (calls are public, so is this)."""
        return self.rules.callers(self)

    def seat_after(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places clockwise among those dealt in."""
        return self.seats[(self.seats.index(seat) + steps) % len(self.seats)]

    def hand(self, seat: int) -> list[Card]:
        return from_mask(self.hands[seat])

    def played_by(self, seat: int) -> list[Card]:
        """The cards ``seat`` has played this deal, in order (they stay face up)."""
        tricks = (*self.tricks, self.trick) if self.trick else self.tricks
        return [
            card
            for trick in tricks
            for player, card in zip(playing_order(self.seats, trick.leader), trick.cards, strict=False)
            if player == seat
        ]

    def legal_cards(self) -> list[Card]:
        return from_mask(self.rules.legal_mask(self)) if self.trick and not self.poll_open and not self.redealt else []

    def may_ask_redeal(self, seat: int) -> bool:
        """Before the first card, on a table that allows it, anyone may ask for new cards once."""
        return (
            bool(getattr(self.options, "redeal", False)) and self.poll is None and not self.plays and seat in self.seats
        )

    def play(self, card: Card, seat: int | None = None) -> DealState:
        return self.rules.play(self, card, seat)

    def legal_actions(self) -> list[str]:
        """What the seat to act may do now, as action words (a card is its notation)."""
        return self.rules.legal_actions(self)

    def apply(self, action: str, seat: int | None = None) -> DealState:
        """Take ``action`` for the seat to act (or ``seat``, which must be it): a new state, or
        ``IllegalPlay`` naming the rule broken, with the sentence a player reads."""
        try:
            return self.rules.apply(self, action, seat)
        except IllegalPlay as error:
            if error.text is None:
                from .refusals import refusal_text

                error.text = refusal_text(error)
            raise

    def view(self, viewer: Viewer, scores: tuple[int, ...] = ()) -> View:
        """What ``viewer`` may know of the deal (the game protocol's view)."""
        from .shown import deal_view

        return deal_view(self, viewer, scores)

    def outcome(self) -> Outcome:
        """What the finished deal meant: each seat's value, who won it, and its record's result."""
        if not self.is_over:
            raise ValueError("a deal has an outcome only once it is over")
        rules = self.rules
        winners = () if self.redealt or self.thrown_in else rules.deal_winners(self)
        return Outcome(
            values=tuple(rules.bot_value(self, seat) for seat in range(self.players)),
            winners=winners,
            again=self.redealt,
            thrown_in=self.thrown_in,
        )

    def replay(self, actions: Sequence[tuple[int | None, str]]) -> tuple[View, ...]:
        from .shown import replay_views

        return replay_views(self, actions)

    def public_record(self) -> dict[str, Any]:
        from ..records import public_record
        from .seat_view import view_for

        return public_record(view_for(self, EVERYONE))


def playing_order(seats: Sequence[int], leader: int) -> tuple[int, ...]:
    """The seats in the order they play to a trick led by ``leader``."""
    start = seats.index(leader)
    return (*seats[start:], *seats[:start])


def winning_card(seats: Sequence[int], trick: Trick) -> Card:
    """The card that took a completed ``trick``."""
    return trick.cards[playing_order(seats, trick.leader).index(trick.winner)]


class TrickGame(Game):
    """Shared machinery of a last-trick game; subclasses supply deck, packets, options, scoring.

    What the site shows of a game also comes from here, as English message ids with
    parameters that the site translates: its title and one-line summary, its options
    (``options_schema``), how a table's options read (``describe``), each seat's scores
    (``seat_scores``), the pot, and a tie-break deal. The site never asks which game it is.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @property
    def seat_counts(self) -> frozenset[int]:  # type: ignore[override]
        """Every table size from ``min_players`` to ``max_players``."""
        return frozenset(range(self.min_players, self.max_players + 1))

    packets: ClassVar[tuple[int, ...]]
    options_schema: ClassVar[tuple[Option, ...]] = ()
    on_site: ClassVar[bool] = True  # offered in the lobby (a game may live in the engine first)
    counts_tricks: ClassVar[bool] = False  # show each seat's tricks taken this deal (they matter to the score)
    # For the computer players: does a seat want the deal's last trick (Femkort), or to avoid it?
    wants_last_trick: ClassVar[bool] = True

    def resample(self, view: View, rng: random.Random) -> DealState:
        """The deal with the cards the viewer cannot see dealt anew (``tricks.resample``)."""
        from .resample import resample

        return resample(view, rng)

    computer_players: ClassVar[str] = "tricks"  # the trick library's own (they read ``View.detail``)

    def deal_score(self, state: DealState, seat: int) -> float:
        """How well a finished deal went for ``seat`` on its own terms (the arena's measure): 1 for a
        deal won (or a last trick avoided), 0 otherwise."""
        return float((state.winner == seat) == self.wants_last_trick)

    deal_winner_label = gettext_noop("Last trick")

    def deal_winners(self, state: DealState) -> tuple[int, ...]:
        """The seats that won a finished, played deal: by default whoever took the last trick."""
        return () if state.winner is None else (state.winner,)

    # -- hooks for the computer players of games that count tricks against a contract --
    # Such a game sets ``bots_count_tricks`` and is played by ``games/bots/counting.py`` through the
    # hooks below; the others by the last-trick players. The defaults describe a plain game: follow
    # suit, trump beats the led suit, each for themselves.

    bots_count_tricks: ClassVar[bool] = False

    @property
    def deal_values(self) -> bool:  # type: ignore[override]
        """Only games that count tricks against a contract pay more or less than a deal won."""
        return self.bots_count_tricks

    @property
    def score_counts_losses(self) -> bool:  # type: ignore[override]
        return not self.wants_last_trick

    @property
    def counts_deals_won(self) -> bool:  # type: ignore[override]
        """A deal is won by taking its last trick; in Letzter Stich that loses it, and in games
        that count tricks against a contract the last trick decides nothing alone."""
        return self.wants_last_trick and not self.counts_tricks

    def suit_in_play(self, card: Card, trump: str | None) -> str:
        """The suit ``card`` follows and counts as (Euchre: the left bower is trump)."""
        return card[1]

    def shows_void(self, card: Card, led: str, trump: str | None) -> bool:
        """Whether following a trick led in ``led`` with ``card`` (of another suit) shows the player
        holds none of the led suit: yes where one must follow suit when able; a game that lets a
        player trump while holding the led suit says no for a trump."""
        return True

    def card_power(self, card: Card, led: str, trump: str | None) -> int:
        """How strongly ``card`` takes a trick whose led suit is ``led``: 0 if it cannot, higher beats lower."""
        if card[1] == trump:
            return 200 + INDEX[card] % 13
        return 100 + INDEX[card] % 13 if card[1] == led else 0

    def makers(self, contract: Any) -> tuple[int, ...]:
        """The seats that must make what the auction settled (the others defend it); () for none."""
        return ()

    def hand_tricks(self, hand: Sequence[Card], trump: str | None) -> float:
        """A rough count of the tricks ``hand`` takes with ``trump`` as trump (bids, the first lead)."""
        return float(sum(card[0] == "A" or card[1] == trump for card in hand))

    def bot_call(self, view: Any) -> str:
        """A sound auction action (bid, order, discard, call...) for the seat of ``view`` (a ``SeatView``)
        by rules of thumb: the medium player's choice, and everyone's in the strong player's play-outs."""
        return view.actions[0]

    def known_cards(self, view: Any) -> dict[int | None, tuple[Card, ...]]:
        """Hidden cards whose place ``view``'s seat knows: per other seat the cards it surely holds,
        under ``None`` the cards in nobody's hand (a turned-down card)."""
        return {}

    def bot_value(self, state: DealState, seat: int) -> float:
        """What a finished deal was worth to ``seat`` in the game's own currency (chips, points for
        the partnership less the other side's): what the computer players maximise."""
        return self.deal_score(state, seat)

    def describe(self, options: Any) -> tuple[Text | Count, ...]:
        """The table's options in short, as the header and the lobby show them (a number with its
        noun is a ``Count``, so that every language says "1 round" and "5 rounds" its own way)."""
        return ()

    def seat_scores(self, match: Match, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        """What a seat has so far in the session (wins, chips, tokens), for the seat panel; ``deal``
        is the deal being played, if any (a stake already in the pot is no longer in front of the seat)."""
        return ()

    def deal_result(self, deal: DealState) -> Text:
        """What the finished deal meant; the site adds ``%(number)d``, the deal's number."""
        return Text(gettext_noop("%(name)s took the last trick and won deal %(number)d."), _winner(deal))

    def pot(self, match: Match, deal: DealState | None) -> int | None:
        """Chips or tokens in the pot now, if the game has one."""
        return None

    def extra_deal(self, match: Match) -> tuple[int, ...] | None:
        """Seats playing an extra deal to break a tie, if that is what the next deal is."""
        return None

    def record_context(self, match: Match) -> dict[str, Any]:
        """What a deal record carries of the session before the deal (read back by ``record_before``)."""
        return {}

    def record_before(self, record: Mapping[str, Any], state: DealState) -> Any:
        """What a deal record says of the session before the deal, checked (``InvalidDeal`` if not
        well-formed); ``record_result`` settles the deal with it."""
        return None

    def record_result(self, before: Any, state: DealState) -> dict[str, Any]:
        """What a finished deal settled, added to its replay result (beyond its tricks and winner)."""
        return {}

    def secret_word(self, call: str) -> str | None:
        """What the others see of a call made face down (``discard:9C`` is seen as ``discard``), or
        None for a call everyone sees. The caller sees it whole; once the deal is over, everyone
        does where ``discard_shown_after`` says so."""
        return "discard" if call.startswith("discard:") else None

    def duty_said(self, seen: SeatView) -> Text | None:
        """The game's own words for what the seat to act must play now (a trump it may withhold), or
        None for the trick library's (lead, follow, overtake, play any card)."""
        return None

    def discard_shown_after(self, state: DealState, seat: int) -> bool:
        """Whether a card ``seat`` discarded face down may be shown once the deal is over (replays,
        exports): by default never, since nobody but the discarder saw it."""
        return False

    def stock_shown(self, state: DealState) -> tuple[Card, ...]:
        """The stock as a finished deal's record gives it: what was drawn in its order, and the
        cards nobody saw in the deck's order (they decide nothing, and nobody saw their order)."""
        return state.stock

    def table_areas(self, state: DealState, seen: SeatView) -> tuple[Area, ...]:
        """Public places of the game's own beside the trick (a turn-up, the stock's count, cards
        set aside), as ``seen``'s viewer may see them."""
        return ()

    def face_up(self, state: DealState) -> tuple[tuple[int, Card], ...]:
        """Cards the rules turn face up while still in a hand, as (seat, card): everyone may see them."""
        return ()

    def upcard_on_show(self, view: SeatView) -> bool:
        """Whether the card turned up beside the hands lies face up now (and not yet taken or turned down)."""
        return view.upcard is not None

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        """A button for an action other than a card: what it says, and what it means if that
        needs saying. Games with an auction word their bids and calls."""
        return Text(action), None

    def marked_card(self, action: str, view: SeatView) -> Card | None:
        """The card of the hand that takes ``action``, or None for an action of its own button. A
        discard is its card: tapped in the hand (the dealer's discard), or marked there and taken
        with the choice that ``marks`` (the discards before a draw)."""
        return action[8:] if action.startswith("discard:") else None

    def marks(self, action: str, view: SeatView) -> Marks | None:
        """What the button says that takes the marked cards' actions first, then ``action``, or
        None: ``action`` takes no marked cards."""
        return None

    def call_said(self, deal: DealState | SeatView, index: int) -> Text | None:
        """The deal's ``index``-th bid or call (``deal.calls[index]``) as the table announces it
        (``%(name)s`` is the seat that made it); the calls before it say what it meant. None: not
        announced by itself (a later call says it: "Bo draws 2 cards")."""
        raise NotImplementedError(f"{self.name} has no auction")

    def auction_prompt(self, view: SeatView) -> Text:
        """What the seat to act decides while the auction runs."""
        raise NotImplementedError(f"{self.name} has no auction")

    def contract_facts(self, view: SeatView) -> tuple[Text, ...]:
        """What the auction settled (or where it stands), for the table's header."""
        return ()

    def match_facts(self, match: Match) -> tuple[Text, ...]:
        """The session's standing as a whole (partnerships' points), for the table's header."""
        return ()

    def auction_to_act(self, state: DealState) -> int | None:
        """Who acts while the deal's auction runs (``trick`` is None); games without one never ask."""
        return None

    def callers(self, state: DealState) -> tuple[int, ...]:
        """Who made each of the deal's calls, in order: who was to act before each."""
        return tuple(self.auction_to_act(replace(state, calls=state.calls[:i])) for i in range(len(state.calls)))

    def replay_result(self, record: Mapping[str, Any], first: DealState, last: DealState) -> dict[str, Any]:
        """A replayed record prints its tricks, then what ``replay_outcome`` says of the deal."""
        before = self.record_before(record, first)
        tricks = [*last.tricks, *([last.trick] if last.trick and last.trick.cards else [])]
        return {
            "tricks": [{"leader": t.leader, "cards": list(t.cards), "winner": t.winner} for t in tricks]
        } | self.replay_outcome(before, last)

    def replay_outcome(self, before: Any, state: DealState) -> dict[str, Any]:
        """What a replayed record prints after its tricks: here the winner (and what the game's
        ``record_result`` adds) once the deal is over; a game may reshape the whole answer."""
        if state.redealt:
            return {"winner": None, "redeal": True}
        if state.is_over:
            return {"winner": state.winner, **self.record_result(before, state)}
        return {}

    def ranking(self, match: Match) -> tuple[float, ...]:
        """Each seat's final standing, higher is better, equal values tie: what ratings are moved by."""
        return tuple(float(score) for score in match.scores)

    def parse_options(self, raw: Mapping[str, Any] | None) -> Any:
        raise NotImplementedError

    def deck(self, players: int) -> tuple[Card, ...]:
        raise NotImplementedError

    def overtake(self, options: Any) -> bool:
        return False

    def trump_suit(self, options: Any, dealt: Sequence[Sequence[Card]], dealer: int) -> str | None:
        return None

    def new_match(self, *, players: int, options: Any, rng: random.Random) -> Match:
        raise NotImplementedError

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: Any) -> Match:
        """A match from what its ``to_record`` wrote (storage holds only that JSON, whatever the game)."""
        raise NotImplementedError

    # -- dealing -----------------------------------------------------------------

    def deal(
        self,
        *,
        players: int,
        dealer: int,
        options: Any,
        rng: random.Random,
        seats: Sequence[int] | None = None,
    ) -> DealState:
        """Shuffle with ``rng``, cut, and deal the packets clockwise from the dealer's left.

        ``seats`` are those taking part (all by default); the others get no cards.
        Pass ``random.Random(seed)`` to reproduce a deal, ``random.SystemRandom()`` for play.
        """
        seats = tuple(range(players)) if seats is None else tuple(sorted(seats))
        cards = list(self.deck(len(seats)))
        rng.shuffle(cards)
        cut = rng.randrange(1, len(cards))
        cards = cards[cut:] + cards[:cut]
        if dealer not in seats:
            raise InvalidDeal(f"dealer {dealer} is not taking part in the deal")
        order = [seats[(seats.index(dealer) + 1 + i) % len(seats)] for i in range(len(seats))]
        dealt: list[list[Card]] = [[] for _ in range(players)]
        for packet in self.packets:
            for seat in order:
                dealt[seat].extend(cards[:packet])
                del cards[:packet]
        return self.start_hands(dealt=dealt, dealer=dealer, options=options)

    def setup(self, match: Match, rng: random.Random) -> dict[str, Any]:
        """The next deal as dealt: dealer, hands from seat 0, the deal's options (with its trump
        suit, if the deal turns one up), an upcard, and what the game keeps of the session
        before the deal (``record_context``)."""
        return self.setup_of(match.deal(rng)) | self.record_context(match)

    def setup_of(self, state: DealState) -> dict[str, Any]:
        """The setup ``state`` was dealt from (a deal record without its actions)."""
        setup = {
            "dealer": state.dealer,
            "hands": [list(hand) for hand in state.dealt],
            "options": state.options.as_record(state.trump),
        }
        setup |= {"upcard": state.upcard} if state.upcard else {}
        return setup | ({"stock": list(state.stock)} if state.stock else {})

    def start(self, setup: Mapping[str, Any]) -> DealState:
        """The deal from its setup (the head of a deal record), checked: ``InvalidDeal`` if not well-formed."""
        hands, dealer = setup.get("hands"), setup.get("dealer")
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise InvalidDeal("hands must be a list of lists of cards, from seat 0")
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise InvalidDeal("dealer must be a seat number")
        raw_options = setup.get("options") or {}
        if not isinstance(raw_options, Mapping):
            raise InvalidDeal("options must be an object")
        try:
            options = self.parse_options(raw_options)
            trump = raw_options.get("trump")
            trump = parse_suit(trump) if isinstance(trump, str) else None
            upcard = {"upcard": setup["upcard"]} if "upcard" in setup else {}
            return self.start_hands(dealt=hands, dealer=dealer, options=options, trump=trump, **upcard)
        except NotationError as error:
            raise InvalidDeal(str(error)) from None

    def start_hands(
        self,
        *,
        dealt: Sequence[Sequence[Card]],
        dealer: int,
        options: Any,
        trump: str | None = None,
        upcard: str | None = None,
        seats: Sequence[int] | None = None,
    ) -> DealState:
        """The state before the first lead, from hands as dealt: an empty hand sits the deal out,
        unless ``seats`` says it takes part with a hand nobody saw (a record of a seat that left
        the deal before its cards could be seen)."""
        if upcard is not None:
            raise InvalidDeal(f"{self.name} turns up no card")
        players = len(dealt)
        seats = tuple(seats) if seats is not None else tuple(seat for seat, hand in enumerate(dealt) if hand)
        if len(seats) < 2 or players > self.max_players:
            raise InvalidDeal(f"{self.name} needs 2 to {self.max_players} hands, got {len(seats)}")
        if not 0 <= dealer < players or dealer not in seats:
            raise InvalidDeal(f"dealer {dealer} is not a seat holding cards")
        hand_size = sum(self.packets)
        deck = set(self.deck(len(seats)))
        seen: set[Card] = set()
        hands = []
        for seat, hand in enumerate(dealt):
            cards = tuple(parse_card(card) for card in hand)
            if cards and len(cards) != hand_size:
                raise InvalidDeal(f"seat {seat} holds {len(cards)} cards, {self.name} deals {hand_size}")
            for card in cards:
                if card not in deck:
                    raise InvalidDeal(f"{card} is not in the {self.name} deck for {len(seats)} players")
                if card in seen:
                    raise InvalidDeal(f"{card} is dealt twice")
                seen.add(card)
            hands.append(cards)
        if trump is None:
            trump = self.trump_suit(options, hands, dealer)
        leader = seats[(seats.index(dealer) + 1) % len(seats)]
        return DealState(
            game=self.name,
            rules=self,
            options=options,
            dealer=dealer,
            dealt=tuple(hands),
            trump=trump,
            hands=tuple(sum(BIT[c] for c in hand) for hand in hands),
            trick=Trick(leader=leader),
            seats=seats,
        )

    # -- playing -----------------------------------------------------------------

    def legal_actions(self, state: DealState) -> list[str]:
        """Actions are strings: a card is its notation (``QH``); bidding and the like are words
        (``pass``, ``bid:3``, ``nap``, ``order``, ``call:H``, ``alone``, ``defend-alone``,
        ``discard:9C``, ``redeal:yes``, ``redeal:no``). Here: the legal cards, and the votes on
        new cards (redeal by agreement); a game with other phases overrides this and ``apply``."""
        if state.poll_open:
            return [REDEAL_YES, REDEAL_NO]
        cards: list[str] = state.legal_cards()
        return [*cards, REDEAL_YES] if state.to_act is not None and state.may_ask_redeal(state.to_act) else cards

    def apply(self, state: DealState, action: str, seat: int | None = None) -> DealState:
        """Take an action for the seat to act; asking for new cards may come from any seat."""
        if action in (REDEAL_YES, REDEAL_NO):
            return self._vote(state, action == REDEAL_YES, seat)
        if state.poll_open:
            raise IllegalPlay("poll_open", "answer the request for new cards first", seat=seat, card=action, legal=[])
        return self.play(state, action, seat)

    def _vote(self, state: DealState, agree: bool, seat: int | None) -> DealState:
        from .redeal import RedealPoll

        seat = state.to_act if seat is None else seat
        if state.poll is None and agree and seat is not None and state.may_ask_redeal(seat):
            return replace(state, poll=RedealPoll.ask(state, seat), votes=state.votes + 1)
        if not state.poll_open:
            raise IllegalPlay("no_poll", "nobody may ask for new cards now", seat=seat, card="", legal=[])
        if seat != state.to_act:
            raise IllegalPlay("not_your_turn", f"it is seat {state.to_act}'s answer", seat=seat, card="", legal=[])
        return replace(state, poll=state.poll.answer(seat, agree), votes=state.votes + 1)

    def legal_mask(self, state: DealState) -> int:
        seat = state.to_act
        if seat is None:
            return 0
        cards = [INDEX[card] for card in state.trick.cards]
        return legal_mask(state.hands[seat], cards, trump_index(state.trump), self.overtake(state.options))

    def trick_winner(self, state: DealState, trick: Trick) -> int:
        cards = [INDEX[card] for card in trick.cards]
        *_, position = trick_standing(cards, trump_index(state.trump))
        return state.seat_after(trick.leader, position)

    def play(self, state: DealState, card: Card, seat: int | None = None) -> DealState:
        """Play ``card`` for the seat to act (or for ``seat``, which must be the one to act)."""
        to_act = state.to_act
        if to_act is None:
            raise IllegalPlay("deal_over", "the deal is over", seat=seat, card=card, legal=[])
        legal = self.legal_mask(state)
        legal_cards = from_mask(legal)
        if seat is not None and seat != to_act:
            raise IllegalPlay(
                "not_your_turn",
                f"it is seat {to_act}'s turn, not seat {seat}'s",
                seat=seat,
                card=card,
                legal=[],
            )
        bit = BIT.get(card, 0)
        if not bit & state.hands[to_act]:
            raise IllegalPlay(
                "not_in_hand",
                f"{card} is not in seat {to_act}'s hand",
                seat=to_act,
                card=card,
                legal=legal_cards,
            )
        if not bit & legal:
            raise self._broken_rule(state, to_act, card, legal_cards)
        hands = list(state.hands)
        hands[to_act] ^= bit
        trick = replace(state.trick, cards=(*state.trick.cards, card))
        tricks = state.tricks
        if len(trick.cards) == len(state.seats):
            trick = replace(trick, winner=self.trick_winner(state, trick))
            tricks = (*tricks, trick)
            done = len(tricks) == state.tricks_per_deal
            trick = None if done else Trick(leader=trick.winner)
        return replace(state, hands=tuple(hands), tricks=tricks, trick=trick)

    def _broken_rule(self, state: DealState, seat: int, card: Card, legal: list[Card]) -> IllegalPlay:
        led = state.trick.cards[0][1]
        allowed = ", ".join(legal)
        in_suit = [c for c in from_mask(state.hands[seat]) if c[1] == led]
        if len(legal) < len(in_suit):
            cards = [INDEX[c] for c in state.trick.cards]
            _, bar, *_ = trick_standing(cards, trump_index(state.trump))
            message = f"must overtake {CARDS[bar]} with one of {allowed}"
            return IllegalPlay("must_overtake", message, seat=seat, card=card, legal=legal, bar=CARDS[bar])
        message = f"must follow {SUIT_NAMES[led]} with one of {allowed}"
        return IllegalPlay("must_follow", message, seat=seat, card=card, legal=legal)


def _winner(deal: DealState) -> tuple[tuple[str, Any], ...]:
    return (("name", SeatName(deal.winner)),) if deal.winner is not None else ()


def trump_index(trump: str | None) -> int:
    return NO_TRUMP if trump is None else SUITS.index(trump)
