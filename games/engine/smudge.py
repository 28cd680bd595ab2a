"""Smudge (docs/rules/smudge.md §3): Pitch whose top bid is ``smudge`` (four): a made smudge wins
the game at once, unless the pitcher was in the hole before the deal; a failed one loses 4."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .game import Text
from .options import gettext_noop, pgettext_noop
from .pitch import Contract, Pitch
from .tricks.deal import DealState

if TYPE_CHECKING:
    from .tricks.seat_view import SeatView

SMUDGE = "smudge"


class Smudge(Pitch):
    name = "smudge"
    # Translators: the game's name stays as it is; add the local name in brackets where one exists.
    title = gettext_noop("Smudge")
    summary = gettext_noop("Pitch where a made bid of four, the smudge, wins the game at once.")
    bids = ("bid:1", "bid:2", "bid:3", SMUDGE)

    def wins_at_once(self, state: DealState) -> bool:
        contract: Contract = state.contract
        return contract.bid == SMUDGE and state.standing[contract.pitcher] >= 0

    def bid_label(self, bid: str) -> Text:
        if bid == SMUDGE:
            return Text(gettext_noop("Smudge"))
        return super().bid_label(bid)

    def bid_said(self, bid: str) -> Text | int:
        if bid == SMUDGE:
            return Text(pgettext_noop("bid", "smudge"), context="bid")
        return super().bid_said(bid)

    def action_text(self, action: str, view: SeatView) -> tuple[Text, Text | None]:
        if action == SMUDGE:
            return Text(gettext_noop("Smudge")), Text(
                gettext_noop("Bid all four: made, it wins the game at once (unless you are below zero); or lose 4.")
            )
        return super().action_text(action, view)


SMUDGE_GAME = Smudge()
