"""Deal records: the JSON form of a deal used by the CLI, exports and audits.

``{"game", "options", "dealer", "hands" (as dealt, from seat 0), "actions"}`` (older records
say ``"plays"``: the same list, of cards only), plus what
the game reads of the session before the deal (``TrickGame.record_before``: Letzter
Stich's ``"tokens"`` and ``"pot"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import GAMES, find_game, get_game
from .cards import NotationError, parse_card
from .game import HiddenCards, IllegalPlay, InvalidDeal, State
from .tricks.deal import REDEAL_NO, REDEAL_YES, DealState
from .tricks.seat_view import SeatView


class RecordError(ValueError):
    """A record that is not well-formed; distinct from a well-formed record with an illegal play."""


class IllegalRecordPlay(Exception):
    def __init__(self, index: int, error: IllegalPlay, state: State):
        super().__init__(error.message)
        self.index = index
        self.error = error
        self.state = state  # the deal just before the refused action


def start_from_record(record: object) -> tuple[State, list[str], int | None]:
    """The deal's starting state, its actions and who asked for new cards (if anyone), validated."""
    if not isinstance(record, Mapping):
        raise RecordError("a deal record is a JSON object")
    game = find_game(record.get("game"))
    if game is None:
        raise RecordError(f"game must be one of {', '.join(GAMES)}")
    if "actions" in record and "plays" in record:
        raise RecordError('a record has "actions" or (older) "plays", not both')
    plays = record.get("actions", record.get("plays", []))
    if not isinstance(plays, list) or not all(isinstance(action, str) for action in plays):
        raise RecordError("actions (or plays) must be a list of action words or cards")
    asker = record.get("asker")
    if asker is not None and (isinstance(asker, bool) or not isinstance(asker, int)):
        raise RecordError("asker must be a seat number")
    try:
        state = game.start(record)
        return state, [parse_card(action) if len(action) == 2 else action for action in plays], asker
    except (InvalidDeal, NotationError) as error:
        raise RecordError(str(error)) from None


def replay(record: object) -> dict[str, Any]:
    """Play a record through the rules and say what the game makes of it (``Game.replay_result``:
    a trick game its tricks and, once complete, its winner and what the game adds; Michigan its
    cards and result); for a record in the game protocol's form (``setup`` and ``actions`` as
    [seat, action] pairs) how many actions it holds and, once complete, the deal's winners and
    each seat's value."""
    if isinstance(record, Mapping) and "setup" in record:
        return _replay_setup(record)
    first, plays, asker = start_from_record(record)
    state = first
    for index, action in enumerate(plays):
        try:
            state = state.apply(action, seat=asker if index == 0 and action == REDEAL_YES else None)
        except IllegalPlay as error:
            raise IllegalRecordPlay(index, error, state) from None
    try:
        return get_game(record["game"]).replay_result(record, first, state)
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
        **({"stock": list(view.stock)} if view.stock else {}),
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


def _replay_setup(record: Mapping[str, Any]) -> dict[str, Any]:
    game = find_game(record.get("game"))
    if game is None:
        raise RecordError(f"game must be one of {', '.join(GAMES)}")
    actions = record.get("actions", [])
    if not isinstance(actions, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], str) for pair in actions
    ):
        raise RecordError("actions must be a list of [seat, action] pairs")
    try:
        state = game.start(record["setup"])
    except InvalidDeal as error:
        raise RecordError(str(error)) from None
    for index, (seat, action) in enumerate(actions):
        try:
            state = state.apply(action, seat=seat)
        except IllegalPlay as error:
            raise IllegalRecordPlay(index, error, state) from None
    result: dict[str, Any] = {"actions": len(actions)}
    if state.is_over:
        outcome = state.outcome()
        winner = outcome.winners[0] if len(outcome.winners) == 1 else None
        result |= {"winner": winner, "winners": list(outcome.winners), "values": list(outcome.values)}
    return result
