"""Why a trick game refuses an action, as the sentence a player reads (the site translates it)."""

from __future__ import annotations

from ..cards import INDEX
from ..game import CardName, CardNames, IllegalPlay, SuitName, Text
from ..options import gettext_noop

# Rules of an auction whose refusal is simply "not one of your choices" (the buttons say what is).
NOT_A_CHOICE = {"not_now", "unknown_action", "option_off", "bid_out_of_order", "hidden_discard", "hidden_hand"}

PLAIN = {
    "not_your_turn": gettext_noop("It is not your turn."),
    "bid_too_low": gettext_noop("Bid higher than the highest bid so far, or pass."),
    "bidding_first": gettext_noop("The bidding comes first: choose one of the buttons."),
    "bidding_over": gettext_noop("The bidding is over: play a card."),
    "deal_over": gettext_noop("The deal is over."),
    "poll_open": gettext_noop("Someone asked for new cards: that is answered first."),
    "no_poll": gettext_noop("New cards can be asked for only once, before the first card is played."),
}


def refusal_text(error: IllegalPlay) -> Text:
    """The sentence for a refused action: the rule it broke, and what would have been allowed."""
    if error.rule in PLAIN:
        return Text(PLAIN[error.rule])
    if error.rule == "not_now" and error.card in INDEX and not any(action in INDEX for action in error.legal):
        return Text(gettext_noop("No card is played now: choose one of the buttons."))  # a card tapped in an auction
    if error.rule in NOT_A_CHOICE or (error.rule == "not_in_hand" and error.card not in INDEX):
        return Text(gettext_noop("That is not one of your choices now."))
    if error.rule == "not_in_hand":
        return Text(gettext_noop("%(card)s is not in your hand."), (("card", CardName(error.card)),))
    legal = CardNames(tuple(error.legal))
    if error.rule == "must_overtake":
        return Text(
            gettext_noop("You must overtake %(card)s: play %(legal)s."),
            (("card", CardName(error.bar)), ("legal", legal)),
        )
    suit = error.suit or (error.legal[0][1] if error.legal else "")
    return Text(
        gettext_noop("You must follow %(suit)s: play %(legal)s."),
        (("suit", SuitName(suit) if suit else ""), ("legal", legal)),
    )
