"""Games scored per side to a target over a session of deals: the All Fours and Forty-Five families.

Each side (one seat, or partners) keeps a score from deal to deal; a deal's points are the
game's say (``deal_points``), and so is the order sides count in, so that when two sides pass
the target in one deal the rules decide who got there first. The deal may draw from a stock
(every undealt card, top first) and reads the sides' scores before it (``DealState.standing``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ..cards import Card, deck, parse_card
from ..game import Count, InvalidDeal, SeatName, Text
from ..options import gettext_noop, ngettext_noop
from .auction import AuctionGame
from .deal import DealState
from .seat_view import SeatView

POINTS = ngettext_noop("%(count)d point", "%(count)d points")


class SidesGame(AuctionGame):
    """A deck of 52, an auction before the tricks, and sides scoring to ``target``."""

    target: ClassVar[int]  # points to win a session, unless the table chose another (``target_for``)
    lowest_score: ClassVar[int] = -1000  # how far below zero a side may go (some games never go below 0)
    uses_stock: ClassVar[bool] = False  # the deal draws from the undealt cards
    opens_with_auction: ClassVar[bool] = True  # False: the game's own start says whether play begins at once

    def deck(self, players: int) -> tuple[Card, ...]:
        if players not in self.seat_counts:
            counts = ", ".join(str(count) for count in sorted(self.seat_counts))
            raise InvalidDeal(f"{self.name} is for {counts} players, not {players}")
        return deck()

    computer_players: ClassVar[str] = "generic"  # they play out with the game's rule of thumb

    def side_of(self, state: DealState | SeatView, seat: int) -> int:
        options = self.parse_options(state.options) if isinstance(state, SeatView) else state.options
        return next(i for i, side in enumerate(self.sides(state.players, options)) if seat in side)

    # -- the deal's setup: its stock and the sides' scores before it -----------------

    def start(self, setup: Mapping[str, Any]) -> DealState:
        """The deal from its setup, with each side's score before it (``scores``, default 0 each)."""
        state = super().start(setup)
        state = replace(state, trick=None) if self.opens_with_auction else state
        state = self.with_stock(state, setup.get("stock"))
        sides = len(self.sides(state.players, state.options))
        scores = setup.get("scores", [0] * sides)
        if (
            not isinstance(scores, list)
            or len(scores) != sides
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            raise InvalidDeal(f"scores must list a whole number for each of the {sides} sides")
        target = self.target_for(state.options)
        if any(score >= target for score in scores) or any(score < self.lowest_score for score in scores):
            raise InvalidDeal(f"every score before a deal is below {target} (and at least {self.lowest_score})")
        return replace(state, standing=tuple(scores))

    def target_for(self, options: Any) -> int:
        """The points that win a session with these table options (a game may offer a shorter one)."""
        return self.target

    def with_stock(self, state: DealState, stock: Any) -> DealState:
        """The deal with its stock: every undealt card, top first, where the game draws from it."""
        if not self.uses_stock:
            if stock is not None:
                raise InvalidDeal(f"{self.name} deals no stock")
            return state
        dealt = {card for hand in state.dealt for card in hand} | ({state.upcard} if state.upcard else set())
        undealt = 52 - len(dealt)
        if not isinstance(stock, list) or len(stock) != undealt:
            raise InvalidDeal(f"stock must list the {undealt} undealt cards, top first")
        cards = tuple(parse_card(card) for card in stock)
        if len(set(cards)) != len(cards) or dealt & set(cards):
            raise InvalidDeal("every card is dealt or in the stock, once")
        return replace(state, stock=cards)

    def shuffled_deal(self, match: SidesMatch, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """Shuffle and deal the packets clockwise from the dealer's left: the hands and the cards left."""
        cards = list(deck())
        rng.shuffle(cards)
        dealt: list[list[Card]] = [[] for _ in range(match.players)]
        for packet in self.packets:
            for step in range(1, match.players + 1):
                seat = (match.dealer + step) % match.players
                dealt[seat].extend(cards[:packet])
                del cards[:packet]
        return dealt, cards

    def deal_match(self, match: SidesMatch, rng: random.Random) -> DealState:
        """The match's next deal, the undealt cards kept as the stock where the game draws from it."""
        dealt, cards = self.shuffled_deal(match, rng)
        setup = {"dealer": match.dealer, "hands": dealt, "options": match.options.as_record()}
        return self.start(setup | ({"stock": cards} if self.uses_stock else {}) | self.record_context(match))

    def dealer_after_throw_in(self, match: SidesMatch) -> int:
        """Who deals after a deal thrown in: the next player (a game may have the same dealer again)."""
        return (match.dealer + 1) % match.players

    def record_context(self, match: SidesMatch) -> dict[str, Any]:
        return {"scores": list(match.points)}

    # -- the session -------------------------------------------------------------------

    def deal_points(self, state: DealState) -> tuple[tuple[int, ...], int | None]:
        """The finished deal's points per side and the side that reached the target first (or None)."""
        raise NotImplementedError

    def leader_once_set_out(self, state: DealState, points: Sequence[int]) -> int | None:
        """For a game that offers a table option to end a session once a side is set back to minus
        the target or below (not in any rules, off by default: a bidding side that keeps failing is
        set back without end, and a table may want its session sure to end). The side with the most
        points after the deal then wins; while several share the most, play goes on until one leads alone."""
        target = self.target_for(state.options)
        after = [have + got for have, got in zip(state.standing, points, strict=True)]
        if min(after) > -target:
            return None
        leaders = [side for side, score in enumerate(after) if score == max(after)]
        return leaders[0] if len(leaders) == 1 else None

    def new_match(self, *, players: int, options: Any, rng: random.Random) -> SidesMatch:
        self.deck(players)
        sides = len(self.sides(players, options))
        return SidesMatch(
            game=self.name,
            rules=self,
            options=options,
            players=players,
            dealer=rng.randrange(players),
            points=(0,) * sides,
        )

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: Any) -> SidesMatch:
        self.deck(players)
        return SidesMatch(
            game=self.name,
            rules=self,
            options=options,
            players=players,
            dealer=record["dealer"],
            points=tuple(record["points"]),
            winner=record.get("winner"),
        )

    def setup(self, match: SidesMatch, rng: random.Random) -> dict[str, Any]:
        return self.setup_of(match.deal(rng)) | self.record_context(match)

    def seat_scores(self, match: SidesMatch, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        return (Count(match.points[self._side(match, seat)], *POINTS),)

    def ranking(self, match: SidesMatch) -> tuple[float, ...]:
        """The winner first, then the others by score (partners share their side's place)."""
        return tuple(
            float(match.points[self._side(match, seat)]) + (1000.0 if seat in match.winners else 0.0)
            for seat in range(match.players)
        )

    def _side(self, match: SidesMatch, seat: int) -> int:
        return next(i for i, side in enumerate(self.sides(match.players, match.options)) if seat in side)

    def side_name(self, state: DealState | SeatView | SidesMatch, side: int | None) -> Text:
        """A side as a sentence's parameter: a seat's name, "Anna and Cleo", or "Anna, Cleo and Eve"."""
        if side is None:
            return Text(gettext_noop("nobody"))
        options = self.parse_options(state.options) if isinstance(state, SeatView) else state.options
        members = self.sides(state.players, options)[side]
        if len(members) == 1:
            return Text("%(name)s", (("name", SeatName(members[0])),))
        if len(members) == 3:
            return Text(
                gettext_noop("%(name)s, %(second)s and %(third)s"),
                tuple((key, SeatName(seat)) for key, seat in zip(("name", "second", "third"), members, strict=True)),
            )
        return Text(
            gettext_noop("%(name)s and %(partner)s"),
            (("name", SeatName(members[0])), ("partner", SeatName(members[1]))),
        )

    def side_facts(self, match: SidesMatch) -> tuple[Text, ...]:
        """Each side's points for the table's header, where sides are partners."""
        if all(len(side) == 1 for side in self.sides(match.players, match.options)):
            return ()
        return tuple(
            Text(
                gettext_noop("%(side)s: %(points)s"),
                (("side", self.side_name(match, side)), ("points", Count(match.points[side], *POINTS))),
            )
            for side in range(len(match.points))
        )

    # -- computer players ------------------------------------------------------------

    has_rule_of_thumb = True

    def rule_of_thumb(self, state: DealState) -> str:
        """A sound action for the seat to act, reading only its own hand and what is public: the
        auction's (``bot_call_state``) before the first lead, then the family's card (``thumb_card``)."""
        if state.trick is None:
            return self.bot_call_state(state)
        return self.thumb_card(state)

    def bot_call_state(self, state: DealState) -> str:
        """The auction's rule of thumb (bid, stand, discard, rob...), from the seat's own hand."""
        raise NotImplementedError

    def thumb_card(self, state: DealState) -> Card:
        """The card the family's habits play."""
        raise NotImplementedError

    def bot_value(self, state: DealState, seat: int) -> float:
        """This deal's points for the seat's side less the best other side's, and a win is worth more."""
        points, winner = self.deal_points(state)
        mine = self.side_of(state, seat)
        others = max((p for side, p in enumerate(points) if side != mine), default=0)
        won = 0.0 if winner is None else (self.win_bonus if winner == mine else -self.win_bonus)
        return float(points[mine] - others) + won

    win_bonus: ClassVar[float] = 5.0  # what winning the session is worth beyond the deal's points

    deal_winner_label = gettext_noop("Won the deal")  # reached the target, or scored most in it

    def deal_winners(self, state: DealState) -> tuple[int, ...]:
        """The side that reached the target in this deal, else the side that scored most in it (none on
        a tie): the last trick decides nothing here."""
        points, winner = self.deal_points(state)
        if winner is None:
            best = max(points)
            leaders = [side for side, got in enumerate(points) if got == best]
            if len(leaders) > 1:
                return ()
            winner = leaders[0]
        return tuple(seat for seat in range(state.players) if self.side_of(state, seat) == winner)

    def deal_score(self, state: DealState, seat: int) -> float:
        """The arena's rate: 1 for a deal the seat's side won (scored most in, or reached the target by)."""
        return float(not state.thrown_in and seat in self.deal_winners(state))


def listing(texts: Sequence[Text]) -> Text:
    """Sentences one after another, with commas."""
    if not texts:
        return Text("")
    said = texts[-1]
    for text in reversed(texts[:-1]):
        said = Text("%(first)s, %(rest)s", (("first", text), ("rest", said)))
    return said


@dataclass(frozen=True, slots=True)
class SidesMatch:
    """Each side's points; the first side to the game's target, counting in its order, wins the session."""

    game: str
    rules: SidesGame = field(compare=False, repr=False)
    options: Any
    players: int
    dealer: int
    points: tuple[int, ...]
    winner: int | None = None  # the side that reached the target first

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> tuple[int, ...]:
        if self.winner is None:
            return ()
        return self.rules.sides(self.players, self.options)[self.winner]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.points[self.rules._side(self, seat)] for seat in range(self.players))

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "points": list(self.points), "winner": self.winner}

    def deal(self, rng: random.Random) -> DealState:
        return self.rules.deal_match(self, rng)

    def settle(self, deal: DealState) -> SidesMatch:
        if self.finished:
            raise InvalidDeal("the match is already over")
        if deal.dealer != self.dealer or deal.players != self.players or deal.standing != self.points:
            raise InvalidDeal("only this match's next deal can be settled")
        if not deal.is_over:
            raise InvalidDeal("only a finished deal can be settled")
        rules = self.rules
        if deal.thrown_in:
            return replace(self, dealer=rules.dealer_after_throw_in(self))
        gained, winner = rules.deal_points(deal)
        points = tuple(have + got for have, got in zip(self.points, gained, strict=True))
        return replace(self, points=points, winner=winner, dealer=(self.dealer + 1) % self.players)
