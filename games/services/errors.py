"""Why a request to change a table was refused; every error carries a message for the player.

Only the table's own refusals are worded here (no seat, a stale view, chat); a game's rules
word their own (``IllegalPlay.text``)."""

from __future__ import annotations

from games.engine.game import IllegalPlay, Text
from games.engine.options import gettext_noop
from games.words import say


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
    """The rules forbid the action; ``rule`` names which rule, and the game words why."""

    def __init__(self, error: IllegalPlay):
        text = error.text or Text(gettext_noop("That is not one of your choices now."))
        super().__init__(say(text), code=error.rule)
        self.rule = error.rule
        self.legal = error.legal
