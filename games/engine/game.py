"""The game protocol: all the site, the generic computer players and the tools know of a game.

Modelled on OpenSpiel (every algorithm drives a game through who acts, the legal actions,
applying one, whether it is over, the returns and an information state, and never asks
which game it is) and on boardgame.io (the game writes each player's view):

- a ``Game`` names itself, says how many seats it takes, parses its options, makes a
  ``Match`` (a session of deals), sets a deal up and starts it: ``setup(match, rng)`` is
  everything dealt plus the session context the deal needs, as plain JSON, and
  ``start(setup)`` the deal's first ``State``;
- a ``State`` says who acts, what they may do, applies an action (a new state, or an
  ``IllegalPlay`` whose sentence names the rule), and shows itself to a viewer as a
  ``View``; once over, its ``outcome`` is what the deal meant;
- a ``View`` is what one viewer may know, already redacted by the game: the viewer's
  hand, the seats (counts, sides, sitting out), public areas (a trick, a row of cards, a
  pile face down), a public log, the facts the deal settled, the prompt and the choices.
  Pages, frames, replays, exports and computer players read only views.

Games with tricks build on ``games.engine.tricks``; a game without (Michigan) implements
this protocol directly. Sentences are English message ids with parameters (``Text``); the
site translates them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from .cards import INDEX, Card
from .options import Option, gettext_noop

# -- sentences -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence for the site to translate (an English message id) and fill with ``params``."""

    message: str
    params: tuple[tuple[str, Any], ...] = ()
    context: str = ""  # the message's context, where the same words mean two things


@dataclass(frozen=True, slots=True)
class SeatName:
    """A seat as a sentence's parameter: the site puts that seat's player's name in."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardName:
    """A card as a sentence's parameter (the site writes it short: "J♥")."""

    card: str


@dataclass(frozen=True, slots=True)
class CardNames:
    """Cards as a sentence's parameter, written short one after another ("J♥, 9♥")."""

    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SuitName:
    """A suit as a sentence's parameter (the site writes its name: "hearts")."""

    suit: str


@dataclass(frozen=True, slots=True)
class Count:
    """A number with its unit, in singular and plural message ids (``%(count)d chip`` / ``chips``)."""

    count: int
    singular: str
    plural: str


# -- actions and refusals ----------------------------------------------------------

# What an action may look like at all: a card, or a word with perhaps a card, suit or numbers after a
# colon
# ("pass", "defend-alone", "bid:3", "call:H", "discard:9C", "ante:2,2,2,2"). Whether it is legal is the game's say.
ACTION_SHAPE = re.compile(r"[a-z]+(?:-[a-z]+)*(?::(?:[0-9A-Za-z]{1,3}(?:,[0-9A-Za-z]{1,3})*))?")


def looks_like_action(action: object) -> bool:
    """Could ``action`` be an action of some game (a card or an action word)? Cheap, for the edges."""
    return isinstance(action, str) and len(action) <= 20 and (action in INDEX or bool(ACTION_SHAPE.fullmatch(action)))


class IllegalPlay(ValueError):
    """An action the rules forbid. ``rule`` names the rule (stable, for tests and clients),
    ``text`` is the game's sentence for the player, ``legal`` what was allowed."""

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        seat: int | None,
        card: str,
        legal: list[str],
        bar: Card | None = None,
        suit: str | None = None,
        text: Text | None = None,
    ):
        super().__init__(message)
        self.rule = rule
        self.bar = bar
        self.suit = suit  # the suit to follow, where a card may follow a suit not its own (a bower)
        self.message = message
        self.seat = seat
        self.card = card  # the action refused (a card, or an action word)
        self.legal = legal
        self.text = text


class InvalidDeal(ValueError):
    """Hands, dealer, setup or options that cannot start a deal of this game."""


class HiddenCards(ValueError):
    """Asked to show every hand of a deal that is not over."""


# -- views ---------------------------------------------------------------------------

EVERYONE = "everyone"  # a viewer who may see every hand: only once the deal is over
Viewer = int | None | Literal["everyone"]  # a seat, a spectator (None), or everyone after the deal


@dataclass(frozen=True, slots=True)
class Shown:
    """A card as it lies in an area or in front of a seat; ``card`` None: face down."""

    card: Card | None
    seat: int | None = None  # who put it there, where that matters (a trick's cards lie in front of their players)
    marked: bool = False  # it took the trick, or is otherwise the one that counts
    counters: int = 0  # chips or the like lying on it (a boodle)


@dataclass(frozen=True, slots=True)
class Area:
    """A public place on the table. ``kind`` says how it is drawn, ``name`` what it is to the game.

    - ``trick``: cards played in turn, each in front of its player (``note``: who took it);
    - ``row``: cards side by side, face up or down, perhaps with counters (an upcard, a layout);
    - ``pile``: cards stacked face down, shown as a count (a stock, a widow), perhaps with
      the top card face up (``cards``);
    - ``layout``: cards laid out in the middle of the table in a row per suit, each in the
      order given (a stops game's played cards).
    """

    kind: Literal["trick", "row", "pile", "layout"]
    name: str
    label: Text
    cards: tuple[Shown, ...] = ()
    count: int = 0
    note: Text | None = None
    done: bool = False  # a trick taken, still on show
    beside: bool = False  # drawn beside the table's header, not in the middle


@dataclass(frozen=True, slots=True)
class SeatShown:
    """One seat as the viewer may see it."""

    seat: int
    in_hand: int = 0  # cards in its hand
    playing: bool = True  # False: sits this deal out
    face_up: tuple[Card, ...] = ()  # cards of its hand turned face up (a trump card shown)
    played: tuple[Shown, ...] = ()  # cards it has put down this deal, in front of it
    tally: tuple[Count, ...] = ()  # what it has taken this deal, where that counts ("2 tricks taken")
    cards: tuple[Card, ...] = ()  # its hand itself: only in a view for everyone, once the deal is over


@dataclass(frozen=True, slots=True)
class Marks:
    """A choice that takes the cards marked in the hand with it (discard these, then draw as many):
    one button after marking any number of cards, instead of a button per card."""

    label: Text  # the button's words whatever is marked (a page without JavaScript)
    counted: tuple[Text, ...]  # its words with 0, 1, 2 … cards marked; no more than that may be marked


@dataclass(frozen=True, slots=True)
class Choice:
    """An action the viewer may take now, other than a card of the hand, as a button.

    A choice with a ``card`` is taken with that card of the hand instead: by tapping it (a discard
    of one card), or, where another choice ``marks``, by marking it and then taking that choice:
    the marked cards' choices go first, in the hand's order, then that one."""

    action: str
    label: Text
    meaning: Text | None = None  # what it means, where that needs saying
    with_hand: bool = False  # belongs beside the hand (asking for new cards), not in the bar
    primary: bool = False
    card: Card | None = None  # taken with this card of the hand (a discard), not a button of its own
    marks: Marks | None = None  # takes the marked cards' choices first (the draw)


@dataclass(frozen=True, slots=True)
class View:
    """A deal as one viewer may know it; nothing in it is hidden from that viewer."""

    game: str
    viewer: Viewer
    players: int
    dealer: int | None
    to_act: int | None
    seats: tuple[SeatShown, ...]
    hand: tuple[Card, ...] = ()  # the viewer's own cards, in the order the game shows them
    playable: frozenset[Card] = frozenset()  # the cards of ``hand`` the viewer may play now
    choices: tuple[Choice, ...] = ()  # other actions the viewer may take now
    areas: tuple[Area, ...] = ()
    log: tuple[Text, ...] = ()  # the deal's public record so far (bids and calls), already redacted
    facts: tuple[tuple[str, Text], ...] = ()  # what the deal has settled, by kind ("trump", "contract")
    notices: tuple[Text, ...] = ()  # something the table is waiting on (a request for new cards)
    prompt: Text | None = None  # what the viewer is to do now, or whom everyone waits for
    refusal: Text | None = None  # why a card of the hand is refused now, said when one is tried
    fresh: bool = True  # nothing of this deal is settled yet: the last deal's end may stay on show
    # For the table's pace: someone besides the seat to act may still act (ask for new cards), or
    # something was just settled that people should see (a trick taken): a computer waits a moment.
    others_may_act: bool = False
    just_settled: bool = False
    over: bool = False
    result: Text | None = None  # what the finished deal meant (``%(number)d`` is the site's)
    detail: Any = None  # the game's own view for its own computer players (same knowledge)

    @property
    def my_turn(self) -> bool:
        return isinstance(self.viewer, int) and self.viewer == self.to_act

    @property
    def actions(self) -> tuple[str, ...]:
        """Everything the viewer may do now, as action words."""
        return (*sorted(self.playable), *(choice.action for choice in self.choices))

    def area(self, name: str) -> Area | None:
        return next((area for area in self.areas if area.name == name), None)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a finished deal meant: for the record, the result line and the computer players."""

    values: tuple[float, ...]  # per seat, in the game's own currency, what computers maximise
    winners: tuple[int, ...] = ()  # the seats that won the deal (none: thrown in, dealt again)
    again: bool = False  # dealt again unplayed (everyone agreed): the match is unchanged, the same dealer deals
    thrown_in: bool = False  # ended unplayed by the rules (every seat passed): a played deal may also have no winner


# -- states, matches, games -------------------------------------------------------------


class State(Protocol):
    """One deal at one moment; never mutated: ``apply`` returns the next."""

    @property
    def to_act(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def action_count(self) -> int:
        """Actions taken so far (the order they are stored in)."""
        ...

    def legal_actions(self) -> list[str]: ...

    def apply(self, action: str, seat: int | None = None) -> State:
        """``action`` for ``seat`` (by default the seat to act; some actions, such as asking for
        new cards, may come out of turn): the next state, or ``IllegalPlay``."""
        ...

    def view(self, viewer: Viewer, scores: tuple[int, ...] = ()) -> View:
        """What ``viewer`` may know now; ``scores``, the session's scores before the deal, for a game
        whose computer players weigh them (the site passes them when a computer decides)."""
        ...

    def outcome(self) -> Outcome:
        """Only once ``is_over``."""
        ...

    def replay(self, actions: Sequence[tuple[int | None, str]]) -> tuple[View, ...]:
        """The deal ``actions`` (seat, action; as stored) lead to from this, its first state, step
        by step as everyone may see it once it is over: a view before the first action and one
        after each. ``HiddenCards`` unless the actions finish the deal."""
        ...

    def public_record(self) -> dict[str, Any]:
        """The finished deal as a record anyone may download (``python -m games.engine replay``
        plays it back): nothing in it that nobody saw."""
        ...


class Match(Protocol):
    """A session of deals: who deals next, who takes part, the scores, and when it is over."""

    players: int
    dealer: int

    @property
    def finished(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    def deal(self, rng: random.Random) -> State: ...

    def settle(self, deal: Any) -> Match: ...

    def to_record(self) -> dict[str, Any]:
        """The session so far as plain JSON (the game reads it back with ``match_from_record``)."""
        ...


class Game:
    """What every game says of itself besides its deals; a game module holds one subclass.

    The defaults describe a game where every seat plays for itself and nothing needs saying
    beyond the deal's own view.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    seat_counts: ClassVar[frozenset[int]]  # the table sizes the game is played at
    options_schema: ClassVar[tuple[Option, ...]] = ()
    on_site: ClassVar[bool] = True  # offered in the lobby (a game may live in the engine first)
    # For the arena: a deal is worth more or less than won or lost (chips, points), so it reports
    # each seat's value too; and whether its rate counts deals lost (a game of avoiding something).
    deal_values: ClassVar[bool] = True
    score_counts_losses: ClassVar[bool] = False
    # The leaderboard counts deals won: a deal's single winner is a seat that won it.
    counts_deals_won: ClassVar[bool] = True
    # What a deal's winners (``Outcome.winners``) did, as the session page's column of them says it.
    deal_winner_label: ClassVar[str] = gettext_noop("Won the deal")
    # The rules for newcomers, in paragraphs with a blank line between: the rules page shows them
    # where the site has no ``games/rules/<name>.html`` for the game, so a game's module may carry them.
    rules_text: ClassVar[str] = ""

    def deal_score(self, state: State, seat: int) -> float:
        """How well a finished deal went for ``seat`` on its own terms (the arena's rate): 1 for a deal won."""
        return float(seat in state.outcome().winners)

    def parse_options(self, raw: Mapping[str, Any] | None) -> Any:
        raise NotImplementedError

    def describe(self, options: Any) -> tuple[Text | Count, ...]:
        """The table's options in short, as the header and the lobby show them."""
        return ()

    def sides(self, players: int, options: Any = None) -> tuple[tuple[int, ...], ...]:
        """Seats that win and lose together (partnerships); by default each for itself."""
        return tuple((seat,) for seat in range(players))

    def partners(self, seat: int, players: int, options: Any = None) -> tuple[int, ...]:
        """``seat`` and the seats on its side, itself first."""
        side = next(side for side in self.sides(players, options) if seat in side)
        return (seat, *(other for other in side if other != seat))

    def new_match(self, *, players: int, options: Any, rng: random.Random) -> Match:
        raise NotImplementedError

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: Any) -> Match:
        """A match from what its ``to_record`` wrote (storage holds only that JSON, whatever the game)."""
        raise NotImplementedError

    def setup(self, match: Match, rng: random.Random) -> dict[str, Any]:
        """The next deal of ``match`` as dealt (hands of any sizes, stock, widow, upcard) with the
        session context it needs, as plain JSON: what is stored, and all ``start`` reads."""
        raise NotImplementedError

    def start(self, setup: Mapping[str, Any]) -> State:
        """The deal's first state, from a ``setup`` (``InvalidDeal`` if it is not well-formed)."""
        raise NotImplementedError

    def seat_scores(self, match: Match, seat: int, deal: State | None = None) -> tuple[Count, ...]:
        """What a seat has so far in the session, for its panel; ``deal`` is the deal in play, if any."""
        return ()

    def match_facts(self, match: Match) -> tuple[Text, ...]:
        """The session's standing as a whole (partnerships' points), for the table's header."""
        return ()

    def pot(self, match: Match, deal: State | None) -> int | None:
        """Chips or tokens in the pot now, if the game has one."""
        return None

    def extra_deal(self, match: Match) -> tuple[int, ...] | None:
        """Seats playing an extra deal to break a tie, if that is what the next deal is."""
        return None

    def ranking(self, match: Match) -> tuple[float, ...]:
        """Each seat's final standing, higher is better, equal values tie: what ratings are moved by."""
        return tuple(float(score) for score in match.scores)

    def record_context(self, match: Match) -> dict[str, Any]:
        """What a deal's record carries of the session before the deal (tokens and pot)."""
        return {}

    def resample(self, view: View, rng: random.Random) -> State:
        """A whole state the viewer of ``view`` cannot tell from the true one (hidden cards dealt
        anew where they could lie): how computer players that know no rules of thumb look ahead."""
        raise NotImplementedError(f"{self.name} cannot deal the cards its views hide")

    # Which computer players play the game: "generic" ones play through this protocol alone; a
    # library's own (``"tricks"``: the trick library's, reading ``View.detail``) are chosen by the
    # bots package, which the engine never imports.
    computer_players: ClassVar[str] = "generic"

    # A game may give the generic players a rule of thumb: the medium player follows it, and the
    # strong player's play-outs have every seat follow it instead of playing at random.
    has_rule_of_thumb: ClassVar[bool] = False

    thumb_worlds: ClassVar[int | None] = None  # worlds per action for that strong player (None: its default)

    # Partner faux pas (``games/bots/partners.py``): a call that gives up more than this much of the
    # game's own value for a deal is held against a partner; and the calls a computer never makes as
    # partner to a beginner, which the faux-pas study counts apart (Euchre: going alone).
    call_margin: ClassVar[float] = 1.0
    bold_calls: ClassVar[frozenset[str]] = frozenset()

    def thumb_decides(self, view: View) -> bool:
        """Whether the strong player leaves this decision to the rule of thumb: worlds dealt at random
        know nothing of what a bid said of a hand, so sampling them may bid worse than the rule."""
        return False

    def rule_of_thumb(self, state: State) -> str:
        """A sound action for the seat to act in ``state``, reading only that seat's own hand and
        what is public (so it may run on a sampled world)."""
        raise NotImplementedError

    def replay_result(self, record: Mapping[str, Any], first: State, last: State) -> dict[str, Any]:
        """What ``python -m games.engine replay`` prints for a record in the game's own form (what
        ``start`` reads, plus its ``actions``): ``first`` as dealt, ``last`` after every action.
        ``InvalidDeal`` for what the record says of the session that is not well-formed."""
        raise NotImplementedError(f"{self.name} has no record form of its own")

    def table_problem(self, players: int, options: Any) -> str | None:
        """Why a table of ``players`` seats with ``options`` cannot be played (an English message id,
        "Partnerships need exactly four players."), or None."""
        return None
