"""Table options as data: each game declares its own, and the site builds its lobby form,
validation messages and rules page from the declaration, never from the game's name.

Labels and explanations are English message ids: the engine knows nothing of languages;
``gettext_noop`` only marks them so the site's translation catalogue picks them up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation where it is shown (the site translates it)."""
    return message


def pgettext_noop(context: str, message: str) -> str:
    """Mark ``message`` for translation in ``context`` (a word that means two things, such as the
    bid Nap and the game Nap); the ``Text`` carrying it names the same context."""
    return message


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural for translation (the project's ``makemessages`` knows this name),
    so that the catalogues get one entry with every plural form the language has."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: a choice among words, a whole number within limits, or a yes/no flag.

    ``needs`` names a flag option that must be on for this one to matter (a pot play's
    starting stack needs pot play); the form shows it only then.
    """

    name: str
    kind: Literal["choice", "number", "flag"]
    default: Any
    label: str
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    low: int = 0
    high: int = 0
    needs: str | None = None

    def check(self, value: Any) -> str | None:
        """Why ``value`` is not allowed (an English message id), or ``None`` if it is."""
        if self.kind == "flag":
            return None if isinstance(value, bool) else gettext_noop("Choose yes or no.")
        if self.kind == "number":
            if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
                return gettext_noop("Choose a whole number from %(low)d to %(high)d.")
            return None
        return None if value in {key for key, _ in self.choices} else gettext_noop("Choose one of the offered values.")


def defaults(schema: tuple[Option, ...]) -> dict[str, Any]:
    return {option.name: option.default for option in schema}


def from_form(schema: tuple[Option, ...], data: Mapping[str, Any]) -> dict[str, Any]:
    """The options a lobby form chose: options switched off by their ``needs`` keep their defaults."""
    chosen = {option.name: _or_default(data.get(option.name), option) for option in schema}
    for option in schema:
        if option.needs and not chosen.get(option.needs):
            chosen[option.name] = option.default
    return chosen


def _or_default(value: Any, option: Option) -> Any:
    return option.default if value is None or value == "" else value
