"""Card notation (rank then suit, ``TH`` = ten of hearts) and the bit layout the rules use.

A card is also an index ``suit * 13 + rank`` so a hand is one ``int`` bitmask:
following suit, finding the highest card and counting moves become bit operations,
which is what makes perft and search fast in pure Python.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "SHDC"
Card = str

CARDS: tuple[Card, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
BIT: dict[Card, int] = {card: 1 << i for i, card in enumerate(CARDS)}
SUIT_MASK: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
FULL_DECK = (1 << 52) - 1


class NotationError(ValueError):
    """Text that is not a card or suit in the notation of docs/rules/README.md."""


def parse_card(text: object) -> Card:
    if isinstance(text, str):
        card = text.strip().upper()
        if card in INDEX:
            return card
    raise NotationError(f"{text!r} is not a card (rank 2-9,T,J,Q,K,A then suit S,H,D,C)")


def parse_suit(text: object) -> str:
    if isinstance(text, str) and len(text.strip()) == 1 and text.strip().upper() in SUITS:
        return text.strip().upper()
    raise NotationError(f"{text!r} is not a suit (S, H, D or C)")


def suit_of(card: Card) -> str:
    return card[1]


def suit_index(card: Card) -> int:
    return INDEX[card] // 13


def rank_index(card: Card) -> int:
    return INDEX[card] % 13


def to_mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= BIT[card]
    return mask


def from_mask(mask: int) -> list[Card]:
    """Cards of a mask in index order: suits S H D C, low rank first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return cards


def deck(ranks: str = RANKS) -> tuple[Card, ...]:
    """A deck in canonical order holding only the given ranks."""
    return tuple(card for card in CARDS if card[0] in ranks)
