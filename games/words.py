"""A game's sentences in the viewer's language: the one place engine ``Text`` becomes words."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from .cardnames import card_short, cards_short, suit_name
from .engine.game import CardName, CardNames, Count, SeatName, SuitName, Text


def say(text: Text | Count, names: Sequence[str] = (), **extra: object) -> str:
    """A game's sentence in the viewer's language, its seats, cards and suits put in as words
    (``names``: the seats' names); ``extra`` fills what only the site knows (a deal's number).
    A number with its noun (``Count``) is said in the plural form the language gives that number."""
    if isinstance(text, Count):
        return say_count(text)
    return _said(text, names, extra)


def _said(text: Text, names: Sequence[str], extra: dict) -> str:
    message = pgettext(text.context, text.message) if text.context else _(text.message)
    if not text.params and not extra:
        return message
    return message % ({key: _param(value, names) for key, value in text.params} | extra)


def _param(value: object, names: Sequence[str]) -> object:
    if isinstance(value, SeatName):
        return names[value.seat] if value.seat < len(names) else ""
    if isinstance(value, CardName):
        return card_short(value.card)
    if isinstance(value, CardNames):
        return cards_short(value.cards)
    if isinstance(value, SuitName):
        return suit_name(value.suit)
    if isinstance(value, Text):
        return _said(value, names, {})
    if isinstance(value, Count):
        return say_count(value)
    return value


def say_count(count: Count) -> str:
    return ngettext(count.singular, count.plural, count.count) % {"count": count.count}


def names_said(names: Sequence[str]) -> str:
    """Names as a sentence lists them: "Anna", "Anna and Bo", "Anna, Bo and Cleo" (empty: "nobody")."""
    if not names:
        return _("nobody")
    if len(names) == 1:
        return names[0]
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}
