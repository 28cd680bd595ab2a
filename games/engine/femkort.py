"""Femkort: five cards, five tricks, the last trick wins the deal (docs/rules/femkort.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from .cards import Card, deck, parse_suit
from .game import Count, InvalidDeal, SeatName, Text
from .options import Option, gettext_noop, ngettext_noop
from .tricks.deal import DealState, TrickGame

PROFILES = ("modern", "classic")


@dataclass(frozen=True, slots=True)
class FemkortOptions:
    """Table options, all recorded with every deal. Defaults are the modern, cashless game."""

    profile: Literal["modern", "classic"] = "modern"
    trump: bool = False
    pot: bool = False
    stack: int = 10
    target: int = 3
    redeal: bool = False

    def as_record(self, trump: str | None) -> dict[str, Any]:
        record: dict[str, Any] = {"profile": self.profile, "trump": trump}
        if self.pot:
            record |= {"pot": True, "stack": self.stack}
        if self.target != 3:
            record["target"] = self.target
        if self.redeal:
            record["redeal"] = True
        return record


class Femkort(TrickGame):
    name = "femkort"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Femkort")
    summary = gettext_noop("Five cards, five tricks, and only the last trick counts.")
    min_players = 3
    max_players = 10
    packets = (3, 2)
    options_schema = (
        Option(
            "target",
            "number",
            3,
            gettext_noop("Wins needed"),
            gettext_noop(
                "The first to win this many deals wins the session (with pot play the session ends there "
                "too, and the most chips wins)."
            ),
            low=1,
            high=10,
        ),
        Option(
            "profile",
            "choice",
            "modern",
            gettext_noop("Rules"),
            gettext_noop(
                "Modern: when you can follow suit you must beat the best card so far if you can. "
                "Classic: following suit is enough."
            ),
            choices=(("modern", gettext_noop("Modern (must overtake)")), ("classic", gettext_noop("Classic"))),
        ),
        Option(
            "trump",
            "flag",
            False,
            gettext_noop("Trump"),
            gettext_noop("The dealer's fifth card is turned face up; its suit beats every other suit."),
        ),
        Option(
            "pot",
            "flag",
            False,
            gettext_noop("Pot play"),
            gettext_noop(
                "Everyone puts a chip in the pot each deal and the deal's winner takes it; "
                "without chips you are out. Most chips wins."
            ),
        ),
        Option(
            "stack",
            "number",
            10,
            gettext_noop("Chips each"),
            gettext_noop("Chips every player starts with in pot play."),
            low=1,
            high=100,
            needs="pot",
        ),
        Option(
            "redeal",
            "flag",
            False,
            gettext_noop("Redeal by agreement"),
            gettext_noop(
                "Before the first card anyone may ask once for new cards; if everyone agrees, "
                "the same dealer deals again."
            ),
        ),
    )

    def describe(self, options: FemkortOptions) -> tuple[Text | Count, ...]:
        said: list[Text | Count] = [
            Count(options.target, *ngettext_noop("first to %(count)d win", "first to %(count)d wins"))
        ]
        if options.profile == "classic":
            said.append(Text(gettext_noop("classic rules")))
        if options.trump:
            said.append(Text(gettext_noop("trump")))
        if options.pot:
            said.append(
                Count(options.stack, *ngettext_noop("pot play, %(count)d chip each", "pot play, %(count)d chips each"))
            )
        if options.redeal:
            said.append(Text(gettext_noop("redeal by agreement")))
        return tuple(said)

    def seat_scores(self, match: FemkortMatch, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        wins = Count(match.wins[seat], *ngettext_noop("%(count)d win", "%(count)d wins"))
        if match.chips is None:
            return (wins,)
        staked = self.pot(match, deal) is not None and seat in deal.seats
        chips = match.chips[seat] - staked
        return (wins, Count(chips, *ngettext_noop("%(count)d chip", "%(count)d chips")))

    def pot(self, match: FemkortMatch, deal: DealState | None) -> int | None:
        """In pot play every seat dealt in has put one chip in while the deal runs (none in a
        tie-break deal); the match counts the chips as moved only once the deal is settled."""
        if match.chips is None or deal is None or deal.is_over or match.tiebreak or match.finished:
            return None
        return len(deal.seats)

    def deal_result(self, deal: DealState) -> Text:
        winner = (("name", SeatName(deal.winner)),)
        if deal.options.pot:
            return Text(gettext_noop("%(name)s took the last trick, won deal %(number)d and takes the pot."), winner)
        return Text(gettext_noop("%(name)s took the last trick and won deal %(number)d."), winner)

    def extra_deal(self, match: FemkortMatch) -> tuple[int, ...] | None:
        return match.tiebreak

    def face_up(self, state: DealState) -> tuple[tuple[int, Card], ...]:
        """With trump, the dealer's fifth card lies face up in their hand until they play it."""
        if not state.options.trump:
            return ()
        card = state.dealt[state.dealer][-1]
        return ((state.dealer, card),) if card in state.hand(state.dealer) else ()

    def ranking(self, match: FemkortMatch) -> tuple[float, ...]:
        """Deals won; in pot play chips, the tie-break's winner just above those it beat."""
        if match.chips is None:
            return tuple(float(wins) for wins in match.wins)
        return tuple(chips + (0.5 if seat in match.winners else 0.0) for seat, chips in enumerate(match.chips))

    def parse_options(self, raw: Mapping[str, Any] | None) -> FemkortOptions:
        """Options from a record or form; ``trump`` may be a bool or the trump suit itself."""
        raw = dict(raw or {})
        unknown = set(raw) - {"profile", "trump", "pot", "stack", "target", "redeal"}
        if unknown:
            raise InvalidDeal(f"unknown femkort options: {', '.join(sorted(unknown))}")
        profile = raw.get("profile") or "modern"
        if profile not in PROFILES:
            raise InvalidDeal(f"profile must be modern or classic, not {profile!r}")
        trump = raw.get("trump")
        if isinstance(trump, str):
            parse_suit(trump)
        elif trump is not None and not isinstance(trump, bool):
            raise InvalidDeal("trump must be null, true/false or a suit letter")
        return FemkortOptions(
            profile=profile,
            trump=bool(trump),
            pot=_flag(raw, "pot"),
            stack=_count(raw, "stack", 10),
            target=_count(raw, "target", 3),
            redeal=_flag(raw, "redeal"),
        )

    def deck(self, players: int) -> tuple[Card, ...]:
        return deck()

    def overtake(self, options: FemkortOptions) -> bool:
        return options.profile == "modern"

    def trump_suit(self, options: FemkortOptions, dealt: Sequence[Sequence[Card]], dealer: int) -> str | None:
        """The dealer's fifth (last dealt) card is turned up; its suit is trump."""
        return dealt[dealer][-1][1] if options.trump else None

    def new_match(self, *, players: int, options: FemkortOptions, rng: random.Random) -> FemkortMatch:
        if not self.min_players <= players <= self.max_players:
            raise InvalidDeal(f"femkort is for 3 to 10 players, not {players}")
        return FemkortMatch.start(players=players, options=options, rng=rng)

    def match_from_record(self, record: Mapping[str, Any], *, players: int, options: FemkortOptions) -> FemkortMatch:
        chips, tiebreak = record.get("chips"), record.get("tiebreak")
        return FemkortMatch(
            players=players,
            options=options,
            dealer=record["dealer"],
            wins=tuple(record["wins"]),
            chips=tuple(chips) if chips is not None else None,
            tiebreak=tuple(tiebreak) if tiebreak else None,
            winners=tuple(record.get("winners", ())),
        )


@dataclass(frozen=True, slots=True)
class FemkortMatch:
    """A session: first to ``target`` deal wins (docs/rules/femkort.md §4); with pot play, chips
    decide (docs/rules/femkort.md §9).

    ``wins`` counts deals won (pots won under pot play). ``tiebreak`` holds the seats
    that tied on chips and now play one extra deal among themselves, without ante.
    """

    players: int
    options: FemkortOptions
    dealer: int
    wins: tuple[int, ...]
    chips: tuple[int, ...] | None = None
    tiebreak: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()

    @classmethod
    def start(cls, *, players: int, options: FemkortOptions, rng: random.Random) -> FemkortMatch:
        chips = (options.stack,) * players if options.pot else None
        return cls(players=players, options=options, dealer=rng.randrange(players), wins=(0,) * players, chips=chips)

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"dealer": self.dealer, "wins": list(self.wins), "winners": list(self.winners)}
        if self.chips is not None:
            record["chips"] = list(self.chips)
        if self.tiebreak:
            record["tiebreak"] = list(self.tiebreak)
        return record

    @property
    def scores(self) -> tuple[int, ...]:
        return self.wins

    @property
    def seats_in(self) -> tuple[int, ...]:
        """Seats dealt into the next deal: all, or those who can ante, or the tied leaders."""
        if self.tiebreak:
            return self.tiebreak
        if self.chips is not None:
            return tuple(seat for seat, chips in enumerate(self.chips) if chips > 0)
        return tuple(range(self.players))

    def deal(self, rng: random.Random) -> DealState:
        return FEMKORT.deal(
            players=self.players, dealer=self.dealer, options=self.options, rng=rng, seats=self.seats_in
        )

    def settle(self, deal: DealState) -> FemkortMatch:
        """The match after ``deal`` (which must be complete and dealt by this match's dealer)."""
        if self.finished:
            raise InvalidDeal("the session is already over")
        if not deal.is_over or deal.dealer != self.dealer or deal.seats != self.seats_in:
            raise InvalidDeal("only a complete deal of this session's next deal can be settled")
        winner = deal.winner
        wins = _bump(self.wins, winner, 1)
        if self.tiebreak:
            return replace(self, wins=wins, tiebreak=None, winners=(winner,))
        if self.chips is None:
            done = (winner,) if wins[winner] >= self.options.target else ()
            return replace(self, wins=wins, winners=done)._rotated()
        chips = tuple(c - 1 if seat in deal.seats else c for seat, c in enumerate(self.chips))
        chips = _bump(chips, winner, len(deal.seats))
        match = replace(self, wins=wins, chips=chips)
        if wins[winner] < self.options.target and sum(c > 0 for c in chips) > 1:
            return match._rotated()
        leaders = tuple(seat for seat, c in enumerate(chips) if c == max(chips))
        if len(leaders) == 1:
            return replace(match, winners=leaders)
        return replace(match, tiebreak=leaders)._rotated()

    def _rotated(self) -> FemkortMatch:
        """The button moves clockwise to the next seat taking part in the next deal."""
        if self.finished:
            return self
        seats = self.seats_in
        dealer = next(s for s in ((self.dealer + i) % self.players for i in range(1, self.players + 1)) if s in seats)
        return replace(self, dealer=dealer)


def _bump(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == seat else v for i, v in enumerate(values))


def _flag(raw: Mapping[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise InvalidDeal(f"{key} must be true or false")
    return value


def _count(raw: Mapping[str, Any], key: str, default: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise InvalidDeal(f"{key} must be a whole number from 1 to 1000")
    return value


FEMKORT = Femkort()
