"""Every change to a table goes through here: plain functions, keyword-only, one transaction each."""

from .errors import IllegalCard, NotSeated, StaleMove, TableError
from .play import card_play, computer_turn, computers_play_all
from .standings import standings_rebuild
from .tables import (
    computer_add,
    computer_remove,
    seat_leave,
    seat_take,
    session_abandon,
    session_start,
    session_touch,
    table_create,
)

__all__ = [
    "IllegalCard",
    "NotSeated",
    "StaleMove",
    "TableError",
    "card_play",
    "computer_add",
    "computer_remove",
    "computer_turn",
    "computers_play_all",
    "seat_leave",
    "seat_take",
    "session_abandon",
    "session_start",
    "session_touch",
    "standings_rebuild",
    "table_create",
]
