"""Why a request to change a table was refused; every error carries a message for the player."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.cardnames import card_short, cards_short, suit_name
from games.engine import IllegalPlay
from games.engine.cards import INDEX


class TableError(Exception):
    """A refused action; nothing was changed. ``code`` is stable for tests and clients."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class NotSeated(TableError):
    code = "not_seated"


class StaleMove(TableError):
    """The client acted on an old view; it should re-sync to ``seq``."""

    code = "stale"

    def __init__(self, message: str, *, seq: int):
        super().__init__(message)
        self.seq = seq


class IllegalCard(TableError):
    """The rules forbid the card; ``rule`` names which rule."""

    def __init__(self, error: IllegalPlay):
        super().__init__(_illegal_message(error), code=error.rule)
        self.rule = error.rule
        self.legal = error.legal


AUCTION_RULES = {"not_now", "unknown_action", "option_off", "bid_out_of_order", "hidden_discard", "hidden_hand"}


def _illegal_message(error: IllegalPlay) -> str:
    if error.rule == "not_your_turn":
        return _("It is not your turn.")
    if error.rule == "bid_too_low":
        return _("Bid higher than the highest bid so far, or pass.")
    if error.rule == "bidding_first":
        return _("The bidding comes first: choose one of the buttons.")
    if error.rule == "bidding_over":
        return _("The bidding is over: play a card.")
    if error.rule in AUCTION_RULES or (error.rule == "not_in_hand" and error.card not in INDEX):
        return _("That is not one of your choices now.")
    legal = cards_short(error.legal)
    if error.rule == "not_in_hand":
        return _("%(card)s is not in your hand.") % {"card": card_short(error.card)}
    if error.rule == "deal_over":
        return _("The deal is over.")
    if error.rule == "poll_open":
        return _("Someone asked for new cards: that is answered first.")
    if error.rule == "no_poll":
        return _("New cards can be asked for only once, before the first card is played.")
    if error.rule == "must_overtake":
        return _("You must overtake %(card)s: play %(legal)s.") % {"card": card_short(error.bar), "legal": legal}
    suit = suit_name(error.suit or error.legal[0][1]) if error.legal else ""
    return _("You must follow %(suit)s: play %(legal)s.") % {"suit": suit, "legal": legal}
