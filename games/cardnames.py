"""The one place suits and ranks become words and symbols, so translations are only message files."""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import format_html
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = {"H", "D"}


def suit_name(suit: str) -> str:
    return {
        "S": pgettext("suit", "spades"),
        "H": pgettext("suit", "hearts"),
        "D": pgettext("suit", "diamonds"),
        "C": pgettext("suit", "clubs"),
    }[suit]


def rank_name(rank: str) -> str:
    return {
        "2": _("Two"),
        "3": _("Three"),
        "4": _("Four"),
        "5": _("Five"),
        "6": _("Six"),
        "7": _("Seven"),
        "8": _("Eight"),
        "9": _("Nine"),
        "T": _("Ten"),
        "J": _("Jack"),
        "Q": _("Queen"),
        "K": _("King"),
        "A": _("Ace"),
    }[rank]


def rank_short(rank: str) -> str:
    return {
        "T": "10",
        "J": pgettext("rank", "J"),
        "Q": pgettext("rank", "Q"),
        "K": pgettext("rank", "K"),
        "A": pgettext("rank", "A"),
    }.get(rank, rank)


def card_label(card: str) -> str:
    """The accessible name: "Queen of hearts"."""
    return _card_label(card, get_language())


def card_short(card: str) -> str:
    """What is printed on the card: "Q♥"."""
    return _card_short(card, get_language())


# Every table render names up to fifty cards; the words only change with the language.
@lru_cache(maxsize=2048)
def _card_label(card: str, language: str | None) -> str:
    return _("%(rank)s of %(suit)s") % {"rank": rank_name(card[0]), "suit": suit_name(card[1])}


@lru_cache(maxsize=2048)
def _card_short(card: str, language: str | None) -> str:
    return f"{rank_short(card[0])}{SYMBOLS[card[1]]}"


def card_face(card: str) -> str:
    """The card's face as HTML: the index in the corner and the suit drawn large (court cards: the
    rank), with the suits' SVG symbols from the page's sprite (``games/_suits.html``). The element
    around it carries the accessible name; the face itself is decoration."""
    return _card_face(card, get_language())


def card_corner(card: str) -> str:
    """Only the corner's index: small cards laid in a fan or a row show nothing else."""
    return _card_corner(card, get_language())


@lru_cache(maxsize=512)
def _card_face(card: str, language: str | None) -> str:
    rank = rank_short(card[0])
    middle = format_html('<span class="court">{}</span>', rank) if card[0] in "JQK" else _suit(card[1])
    return format_html('{}<span class="middle">{}</span>', _card_corner(card, language), middle)


@lru_cache(maxsize=512)
def _card_corner(card: str, language: str | None) -> str:
    # As short as it can be: every frame of a live table carries a few of these. The symbols carry
    # their viewBox; the card around the face (role="img" or a button) has the name, so its children
    # are not read out.
    return format_html('<span class="corner">{}{}</span>', rank_short(card[0]), _suit(card[1]))


def _suit(suit: str) -> str:
    return format_html('<svg class="suit"><use href="#suit-{}"/></svg>', suit)


def cards_short(cards: list[str] | tuple[str, ...]) -> str:
    return ", ".join(card_short(card) for card in cards)
