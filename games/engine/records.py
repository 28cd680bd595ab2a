"""Deal records: the JSON form of a deal used by the CLI, exports and audits.

``{"game", "options", "dealer", "hands" (as dealt, from seat 0), "actions"}`` (older records
say ``"plays"``: the same list, of cards only), plus what
the game reads of the session before the deal (``TrickGame.record_before``: Letzter
Stich's ``"tokens"`` and ``"pot"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import GAMES
from .cards import NotationError, parse_card, parse_suit
from .game import HiddenCards, IllegalPlay, InvalidDeal
from .tricks.deal import REDEAL_NO, REDEAL_YES, DealState
from .tricks.views import SeatView


class RecordError(ValueError):
    """A record that is not well-formed; distinct from a well-formed record with an illegal play."""


class IllegalRecordPlay(Exception):
    def __init__(self, index: int, error: IllegalPlay, state: DealState):
        super().__init__(error.message)
        self.index = index
        self.error = error
        self.state = state  # the deal just before the refused action


def start_from_record(record: object) -> tuple[DealState, list[str], int | None]:
    """The deal's starting state, its actions and who asked for new cards (if anyone), validated."""
    if not isinstance(record, Mapping):
        raise RecordError("a deal record is a JSON object")
    game = GAMES.get(record.get("game"))  # type: ignore[arg-type]
    if game is None:
        raise RecordError(f"game must be one of {', '.join(GAMES)}")
    if "actions" in record and "plays" in record:
        raise RecordError('a record has "actions" or (older) "plays", not both')
    hands, dealer = record.get("hands"), record.get("dealer")
    plays = record.get("actions", record.get("plays", []))
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("hands must be a list of lists of cards, from seat 0")
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise RecordError("dealer must be a seat number")
    if not isinstance(plays, list) or not all(isinstance(action, str) for action in plays):
        raise RecordError("actions (or plays) must be a list of action words or cards")
    asker = record.get("asker")
    if asker is not None and (isinstance(asker, bool) or not isinstance(asker, int)):
        raise RecordError("asker must be a seat number")
    raw_options = record.get("options") or {}
    if not isinstance(raw_options, Mapping):
        raise RecordError("options must be an object")
    try:
        options = game.parse_options(raw_options)
        trump = raw_options.get("trump")
        trump = parse_suit(trump) if isinstance(trump, str) else None
        upcard = {"upcard": record["upcard"]} if "upcard" in record else {}
        state = game.start(dealt=hands, dealer=dealer, options=options, trump=trump, **upcard)
        return state, [parse_card(action) if len(action) == 2 else action for action in plays], asker
    except (InvalidDeal, NotationError) as error:
        raise RecordError(str(error)) from None


def replay(record: object) -> dict[str, Any]:
    """Play a record through the rules: its tricks, and once complete its winner (and tokens)."""
    state, plays, asker = start_from_record(record)
    try:
        before = state.rules.record_before(record, state)
    except InvalidDeal as error:
        raise RecordError(str(error)) from None
    for index, action in enumerate(plays):
        try:
            state = state.apply(action, seat=asker if index == 0 and action == REDEAL_YES else None)
        except IllegalPlay as error:
            raise IllegalRecordPlay(index, error, state) from None
    tricks = [*state.tricks, *([state.trick] if state.trick and state.trick.cards else [])]
    result: dict[str, Any] = {
        "tricks": [{"leader": t.leader, "cards": list(t.cards), "winner": t.winner} for t in tricks],
    }
    try:
        return result | state.rules.replay_outcome(before, state)
    except InvalidDeal as error:
        raise RecordError(str(error)) from None


def record_of(state: DealState) -> dict[str, Any]:
    """The record of a deal as far as it has been played (the engine's own tools and tests)."""
    return {
        "game": state.game,
        "options": state.options.as_record(state.trump),
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.dealt],
        "plays": state.plays,
    }


def public_record(view: SeatView) -> dict[str, Any]:
    """The record of a finished deal as everyone may see it: the only record the site shows."""
    if not view.dealt:
        raise HiddenCards("a deal record shows every hand: it needs the view for everyone")
    return {
        "game": view.game,
        "options": view.options,
        "dealer": view.dealer,
        "hands": [list(hand) for hand in view.dealt],
        **_actions_of(view),
    }


def _actions_of(view: SeatView) -> dict[str, Any]:
    """The cards as ``plays``; after a refused request for new cards, ``actions`` (the votes,
    then the cards) and who asked, since anyone may ask out of turn."""
    cards = [card for trick in view.tricks for card in trick.cards]
    if view.calls or view.upcard:
        return {"actions": [*view.calls, *cards]} | ({"upcard": view.upcard} if view.upcard else {})
    poll = view.poll
    if poll is None:
        return {"plays": cards}
    votes = [REDEAL_YES] * len(poll.agreed) + [REDEAL_NO] * poll.declined
    return {"actions": votes + cards, "asker": poll.asker}
