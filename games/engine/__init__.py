"""The rules engine: pure Python, no Django. ``game`` holds the protocol a game implements; ``GAMES`` registers them."""

from .auction_forty_five import AUCTION_FORTY_FIVE
from .cards import CARDS, RANKS, SUITS, Card, NotationError, parse_card
from .euchre import EUCHRE, EuchreMatch, EuchreOptions
from .femkort import FEMKORT, FemkortMatch, FemkortOptions
from .forty_five import FORTY_FIVE
from .game import Game, IllegalPlay, InvalidDeal, Match
from .letzter_stich import LETZTER_STICH, LetzterStichMatch, LetzterStichOptions, settle_tokens
from .michigan import MICHIGAN
from .nap import NAP, NapMatch, NapOptions
from .pitch import PITCH
from .seven_up import SEVEN_UP
from .smudge import SMUDGE_GAME
from .tricks.deal import DealState, Trick, TrickGame

GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        FEMKORT,
        LETZTER_STICH,
        NAP,
        EUCHRE,
        SEVEN_UP,
        PITCH,
        SMUDGE_GAME,
        AUCTION_FORTY_FIVE,
        FORTY_FIVE,
        MICHIGAN,
    )
}


# A game's earlier names: exports and links made before a rename still find it.
FORMER_NAMES: dict[str, str] = {"letzter-stich": "letzter_stich"}


def find_game(name: object) -> Game | None:
    """The game of that name (or former name), or None."""
    if not isinstance(name, str):
        return None
    return GAMES.get(FORMER_NAMES.get(name, name))


def get_game(name: str) -> Game:
    try:
        return GAMES[FORMER_NAMES.get(name, name)]
    except KeyError:
        raise InvalidDeal(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


__all__ = [
    "CARDS",
    "EUCHRE",
    "FEMKORT",
    "GAMES",
    "LETZTER_STICH",
    "NAP",
    "RANKS",
    "SUITS",
    "Card",
    "DealState",
    "EuchreMatch",
    "EuchreOptions",
    "FemkortMatch",
    "FemkortOptions",
    "Game",
    "IllegalPlay",
    "InvalidDeal",
    "LetzterStichMatch",
    "LetzterStichOptions",
    "Match",
    "NapMatch",
    "NapOptions",
    "NotationError",
    "Trick",
    "TrickGame",
    "get_game",
    "parse_card",
    "settle_tokens",
]
