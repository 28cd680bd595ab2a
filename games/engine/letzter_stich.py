"""Letzter Stich (Noris profile): avoid the last trick, or take every trick (docs/rules/letzter_stich.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card, deck
from .game import Count, InvalidDeal, SeatName, Text
from .options import Option, gettext_noop, ngettext_noop
from .tricks.deal import DealState, TrickGame


@dataclass(frozen=True, slots=True)
class LetzterStichOptions:
    tokens: int = 5

    def as_record(self, trump: str | None = None) -> dict[str, Any]:
        return {"profile": "noris"} | ({"tokens": self.tokens} if self.tokens != 5 else {})


class LetzterStich(TrickGame):
    name = "letzter_stich"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Letzter Stich")
    summary = gettext_noop(
        "Eight cards each: avoid the last trick, or take every trick. Lose your tokens and the session ends."
    )
    min_players = 3
    max_players = 4
    packets = (4, 4)
    counts_tricks = True  # taking every trick wins tokens: the table shows who has taken how many
    wants_last_trick = False

    def deal_score(self, state: DealState, seat: int) -> float:
        """1 for a deal that costs ``seat`` a token (the arena counts tokens lost), else 0."""
        slam = all(trick.winner == seat for trick in state.tricks)
        return float(state.winner == seat and not slam)

    options_schema = (
        Option(
            "tokens",
            "number",
            5,
            gettext_noop("Tokens each"),
            gettext_noop(
                "Taking the last trick costs a token into the pot; taking every trick wins two from it. "
                "The session ends when someone has none."
            ),
            low=1,
            high=20,
        ),
    )

    def describe(self, options: LetzterStichOptions) -> tuple[Text | Count, ...]:
        return (Count(options.tokens, *ngettext_noop("%(count)d token each", "%(count)d tokens each")),)

    def deal_result(self, deal: DealState) -> Text:
        winner = (("name", SeatName(deal.winner)),)
        if all(trick.winner == deal.winner for trick in deal.tricks):
            return Text(
                gettext_noop("%(name)s took every trick of deal %(number)d and takes up to two tokens from the pot."),
                winner,
            )
        return Text(
            gettext_noop("%(name)s took the last trick of deal %(number)d and pays a token into the pot."), winner
        )

    def seat_scores(self, match: LetzterStichMatch, seat: int, deal: DealState | None = None) -> tuple[Count, ...]:
        return (Count(match.tokens[seat], *ngettext_noop("%(count)d token", "%(count)d tokens")),)

    def pot(self, match: LetzterStichMatch, deal: DealState | None) -> int | None:
        return match.pot

    def record_context(self, match: LetzterStichMatch) -> dict[str, Any]:
        return {"tokens": list(match.tokens), "pot": match.pot}

    def record_before(self, record: Mapping[str, Any], state: DealState) -> tuple[tuple[int, ...], int]:
        """A record may say the tokens and the pot before the deal (default: a session's start)."""
        tokens = record.get("tokens", [state.options.tokens] * state.players)
        pot = record.get("pot", 0)
        valid = isinstance(tokens, list) and len(tokens) == state.players
        if not valid or not all(_count(t) for t in [*tokens, pot]):
            raise InvalidDeal("tokens must list a whole number per seat and pot a whole number")
        return tuple(tokens), pot

    def record_result(self, before: tuple[tuple[int, ...], int], state: DealState) -> dict[str, Any]:
        tokens, pot = settle_tokens(*before, state)
        return {"tokens": list(tokens), "pot": pot}

    def parse_options(self, raw: Mapping[str, Any] | None) -> LetzterStichOptions:
        raw = dict(raw or {})
        unknown = set(raw) - {"profile", "tokens", "trump"}
        if unknown:
            raise InvalidDeal(f"unknown letzter_stich options: {', '.join(sorted(unknown))}")
        if raw.get("profile", "noris") not in ("noris", None):
            raise InvalidDeal("letzter_stich has only the noris profile")
        if raw.get("trump") not in (None, False):
            raise InvalidDeal("letzter_stich is played without trump")
        tokens = raw.get("tokens", 5)
        if isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= 100:
            raise InvalidDeal("tokens must be a whole number from 1 to 100")
        return LetzterStichOptions(tokens=tokens)

    def deck(self, players: int) -> tuple[Card, ...]:
        """32 cards (7 to ace) for four players; without 7s and 8s for three."""
        if players == 4:
            return deck("789TJQKA")
        if players == 3:
            return deck("9TJQKA")
        raise InvalidDeal(f"letzter_stich is for 3 or 4 players, not {players}")

    def match_from_record(
        self, record: Mapping[str, Any], *, players: int, options: LetzterStichOptions
    ) -> LetzterStichMatch:
        tokens = tuple(record["tokens"])
        if len(tokens) != players:
            raise InvalidDeal(f"the record holds tokens for {len(tokens)} seats, not {players}")
        return LetzterStichMatch(
            players=players, options=options, dealer=record["dealer"], tokens=tokens, pot=record.get("pot", 0)
        )

    def new_match(self, *, players: int, options: LetzterStichOptions, rng: random.Random) -> LetzterStichMatch:
        self.deck(players)
        return LetzterStichMatch(
            players=players,
            options=options,
            dealer=rng.randrange(players),
            tokens=(options.tokens,) * players,
        )


def settle_tokens(tokens: tuple[int, ...], pot: int, deal: DealState) -> tuple[tuple[int, ...], int]:
    """Tokens and pot after a finished deal.

    The last trick's taker pays one token into the pot, unless they took every
    trick: then they take up to two from the pot (never more than it holds).
    """
    if not deal.is_over:
        raise InvalidDeal("the deal is not over")
    taker = deal.winner
    slam = all(trick.winner == taker for trick in deal.tricks)
    change = min(2, pot) if slam else -1
    if tokens[taker] + change < 0:
        raise InvalidDeal(f"seat {taker} has no token to pay")
    tokens = tuple(t + change if seat == taker else t for seat, t in enumerate(tokens))
    return tokens, pot - change


@dataclass(frozen=True, slots=True)
class LetzterStichMatch:
    """Token match: over as soon as someone has none; most tokens wins, tied leaders draw."""

    players: int
    options: LetzterStichOptions
    dealer: int
    tokens: tuple[int, ...]
    pot: int = 0

    @property
    def finished(self) -> bool:
        return min(self.tokens) == 0

    def to_record(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "tokens": list(self.tokens), "pot": self.pot}

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.finished:
            return ()
        return tuple(seat for seat, t in enumerate(self.tokens) if t == max(self.tokens))

    @property
    def scores(self) -> tuple[int, ...]:
        return self.tokens

    def deal(self, rng: random.Random) -> DealState:
        return LETZTER_STICH.deal(players=self.players, dealer=self.dealer, options=self.options, rng=rng)

    def settle(self, deal: DealState) -> LetzterStichMatch:
        if self.finished:
            raise InvalidDeal("the match is already over")
        if deal.dealer != self.dealer or deal.players != self.players:
            raise InvalidDeal("only this match's next deal can be settled")
        tokens, pot = settle_tokens(self.tokens, self.pot, deal)
        return replace(self, tokens=tokens, pot=pot, dealer=(self.dealer + 1) % self.players)


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


LETZTER_STICH = LetzterStich()
