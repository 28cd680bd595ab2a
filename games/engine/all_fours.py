"""The All Fours family: what Seven Up, Pitch and Smudge share (docs/rules/seven_up.md §5,
docs/rules/seven_up.md §6, docs/rules/pitch.md §4, docs/rules/pitch.md §5, docs/rules/smudge.md §1).

A deal scores up to four points, one per *category* won in the tricks: high (the highest
trump played), low (the lowest), jack (the jack of trumps) and game (the most card points
taken). A plain suit led may be followed *or trumped*; only a seat void in it plays a third
suit. The first side to 7 wins, counting in the order the game gives. Each game of the family
is one module on this one; its computer players are the generic ones, playing out with the
rule of thumb here (``rule_of_thumb``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import BIT, INDEX, RANKS, SUIT_MASK, SUITS, Card, deck, from_mask
from .game import CardName, IllegalPlay, InvalidDeal, SuitName, Text, View
from .options import gettext_noop, ngettext_noop
from .tricks.deal import DealState, playing_order
from .tricks.seat_view import HIDDEN_DISCARD, SeatView
from .tricks.sides import SidesGame, SidesMatch, listing

TARGET = 7  # points to win a session
CARD_POINTS = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}  # what "game" counts
CATEGORIES = ("high", "low", "jack", "game")
CATEGORY_NAMES = {
    "high": gettext_noop("high"),
    "low": gettext_noop("low"),
    "jack": gettext_noop("jack"),
    "game": gettext_noop("game"),
}
POINTS = ngettext_noop("%(count)d point", "%(count)d points")


def card_points(card: Card) -> int:
    return CARD_POINTS.get(card[0], 0)


@dataclass(frozen=True, slots=True)
class Categories:
    """Who won each category of a played deal, by side (None: nobody), and what decided it."""

    high: int | None
    low: int | None
    jack: int | None
    game: int | None
    game_points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    high_card: Card | None = None
    low_card: Card | None = None

    def winner_of(self, category: str) -> int | None:
        return getattr(self, category)


class AllFours(SidesGame):
    """The family's deck, following rule, categories and words; a game adds its auction and scoring."""

    packets = (3, 3)
    target = TARGET
    counts_tricks = True
    bots_count_tricks = True  # a deal is worth points, not one trick
    low_to_holder: ClassVar[bool]  # Seven Up: low scores for whoever played it; Pitch: for its trick's winner

    # -- following -------------------------------------------------------------------

    def legal_mask(self, state: DealState) -> int:
        seat = state.to_act
        if seat is None or state.trick is None:
            return 0
        hand = state.hands[seat]
        if not state.trick.cards:
            return hand
        led = SUITS.index(state.trick.cards[0][1])
        in_suit = hand & SUIT_MASK[led]
        if not in_suit:
            return hand
        if state.trump is None or state.trump == SUITS[led]:
            return in_suit
        return in_suit | (hand & SUIT_MASK[SUITS.index(state.trump)])

    def shows_void(self, card: Card, led: str, trump: str | None) -> bool:
        """A trump played to a plain suit shows nothing: one may trump while holding the led suit."""
        return card[1] != trump

    def _broken_rule(self, state: DealState, seat: int, card: Card, legal: list[Card]) -> IllegalPlay:
        led = state.trick.cards[0][1]
        allowed = ", ".join(legal)
        if led == state.trump:
            message = f"a trump was led: play one of {allowed}"
            text = Text(gettext_noop("A trump was led: play a trump (%(legal)s)."), (("legal", _cards(legal)),))
        else:
            message = f"follow {led} or trump: one of {allowed}"
            text = Text(
                gettext_noop("Follow %(suit)s or play a trump: %(legal)s."),
                (("suit", SuitName(led)), ("legal", _cards(legal))),
            )
        return IllegalPlay("must_follow", message, seat=seat, card=card, legal=legal, suit=led, text=text)

    def duty_said(self, seen: SeatView) -> Text | None:
        """A plain suit led may be trumped even by a seat that holds it: the prompt says so."""
        trick, trump = seen.trick, seen.trump
        if trick is None or not trick.cards or trump is None:
            return None
        led = trick.cards[0][1]
        suits = {card[1] for card in seen.hand}
        if led != trump and led in suits and trump in suits:
            return Text(gettext_noop("Your turn: follow %(suit)s or play a trump."), (("suit", SuitName(led)),))
        return None

    # -- categories ------------------------------------------------------------------

    def categories(self, state: DealState) -> Categories:
        sides = self.sides(state.players, state.options)
        side = {seat: i for i, members in enumerate(sides) for seat in members}
        trump = state.trump
        game_points = [0] * len(sides)
        tricks_won = [0] * len(sides)
        high = low = jack = None
        high_card = low_card = None
        for trick in state.tricks:
            taker = side[trick.winner]
            tricks_won[taker] += 1
            for seat, card in zip(playing_order(state.seats, trick.leader), trick.cards, strict=True):
                game_points[taker] += card_points(card)
                if card[1] != trump:
                    continue
                rank = RANKS.index(card[0])
                if high_card is None or rank > RANKS.index(high_card[0]):
                    high, high_card = side[seat], card
                if low_card is None or rank < RANKS.index(low_card[0]):
                    low, low_card = (side[seat] if self.low_to_holder else taker), card
                if card[0] == "J":
                    jack = taker
        best = max(game_points)
        game = game_points.index(best) if game_points.count(best) == 1 else None
        return Categories(high, low, jack, game, tuple(game_points), tuple(tricks_won), high_card, low_card)

    def category_result(self, state: DealState) -> dict[str, Any]:
        found = self.categories(state)
        return {
            "tricks_won": list(found.tricks_won),
            **{category: found.winner_of(category) for category in CATEGORIES},
            "game_points": list(found.game_points),
        }

    def table_problem(self, players: int, options: Any) -> str | None:
        try:
            self.sides(players, options)
        except InvalidDeal:
            return gettext_noop("Partnerships need exactly four players.")
        return None

    def categories_said(self, state: DealState) -> Text:
        """Who won high, low, jack and game, with each side's card points."""
        found = self.categories(state)
        points = listing(
            [
                Text(
                    gettext_noop("%(side)s %(points)d"),
                    (("side", self.side_name(state, side)), ("points", found.game_points[side])),
                )
                for side in range(len(found.game_points))
            ]
        )
        return Text(
            gettext_noop("High: %(high)s. Low: %(low)s. Jack: %(jack)s. Game: %(game)s (card points: %(points)s)."),
            (
                ("high", self.side_name(state, found.high)),
                ("low", self.side_name(state, found.low)),
                ("jack", self.side_name(state, found.jack)),
                ("game", self.side_name(state, found.game)),
                ("points", points),
            ),
        )

    # -- computer players ------------------------------------------------------------

    def thumb_card(self, state: DealState) -> Card:
        return thumb_card(self, state)

    def resample(self, view: View, rng: random.Random) -> DealState:
        """The deal with what the viewer cannot see dealt anew: the other hands, their discards and
        the stock's unturned cards."""
        seen: SeatView = view.detail
        state = self.rebuild(seen, rng)
        return state

    def rebuild(self, seen: SeatView, rng: random.Random) -> DealState:
        played = [card for trick in (*seen.tricks, *([seen.trick] if seen.trick else [])) for card in trick.cards]
        public = set(played) | set(self.public_cards(seen))
        mine = [call[8:] for call in seen.calls if call.startswith("discard:") and call != HIDDEN_DISCARD]
        pool = [card for card in deck() if card not in public and card not in seen.hand and card not in mine]
        hands, pool = _deal_unseen(seen, pool, _voids(seen), rng)
        hidden_discards = sum(call == HIDDEN_DISCARD for call in seen.calls)
        discarded = pool[:hidden_discards]
        del pool[:hidden_discards]
        held = [[*seen.played[seat], *hands[seat]] for seat in range(seen.players)]
        stock = self.stock_for(seen, held, [*mine, *discarded], pool)
        dealt = tuple(tuple([*seen.played[seat], *hands[seat]][:6]) for seat in range(seen.players))
        calls = tuple(call if call != HIDDEN_DISCARD else "discard:?" for call in seen.calls)
        return DealState(
            game=seen.game,
            rules=seen.rules,
            options=self.parse_options(seen.options),
            dealer=seen.dealer,
            dealt=dealt,
            trump=seen.trump,
            hands=tuple(sum(BIT[card] for card in hand) for hand in hands),
            tricks=seen.tricks,
            trick=seen.trick,
            seats=seen.seats,
            calls=calls,
            contract=seen.contract,
            stock=stock,
            standing=seen.standing,
        )

    def public_cards(self, seen: SeatView) -> tuple[Card, ...]:
        """Cards out of every hand that everyone has seen (turned up, set aside)."""
        return ()

    def stock_for(
        self, seen: SeatView, held: list[list[Card]], discarded: list[Card], unseen: list[Card]
    ) -> tuple[Card, ...]:
        """The stock in a resampled world: ``held`` is each seat's cards (played, then in hand),
        ``discarded`` the cards discarded, ``unseen`` the cards in no hand (shuffled)."""
        return ()


def _voids(seen: SeatView) -> dict[int, set[str]]:
    """The suits each seat has shown it holds none of: a plain card on a trump lead, or a third
    suit on a plain lead (trumping a plain lead shows nothing: one may trump while holding it)."""
    voids: dict[int, set[str]] = {seat: set() for seat in range(seen.players)}
    for trick in (*seen.tricks, *([seen.trick] if seen.trick else [])):
        if not trick.cards:
            continue
        led = trick.cards[0][1]
        for seat, card in zip(playing_order(seen.seats, trick.leader)[1:], trick.cards[1:], strict=False):
            if card[1] != led and card[1] != seen.trump:
                voids[seat].add(led)
    return voids


def _deal_unseen(
    seen: SeatView, pool: list[Card], voids: dict[int, set[str]], rng: random.Random, tries: int = 50
) -> tuple[list[list[Card]], list[Card]]:
    """The other hands from ``pool``, none holding a suit it has shown void in (the seats with the
    most voids served first; a deal that cannot be completed so is dealt again, at worst freely);
    returns the hands and the cards left over (discards, the stock)."""
    others = sorted((seat for seat in range(seen.players) if seat != seen.seat), key=lambda seat: -len(voids[seat]))
    for attempt in range(tries + 1):
        left = list(pool)
        rng.shuffle(left)
        hands: list[list[Card]] = [[] for _ in range(seen.players)]
        if seen.seat is not None:
            hands[seen.seat] = list(seen.hand)
        dealt = True
        for seat in others:
            free = attempt == tries  # the last resort: ignore what the seat has shown
            fits = [card for card in left if free or card[1] not in voids[seat]]
            need = seen.hand_sizes[seat]
            if len(fits) < need:
                dealt = False
                break
            hands[seat] = fits[:need]
            taken = set(hands[seat])
            left = [card for card in left if card not in taken]
        if dealt:
            return hands, left
    raise AssertionError("unreachable: the last attempt deals freely")


def thumb_card(game: AllFours, state: DealState) -> Card:
    """Play for the categories: lead a high trump to draw the others' while holding the top one,
    else a side ace; take a trick worth points cheaply; keep the jack and ten of trumps safe; throw
    the lowest card that gives nothing away."""
    seat = state.to_act
    legal = from_mask(game.legal_mask(state))
    if len(legal) == 1:
        return legal[0]
    trump = state.trump
    trick = state.trick

    def strength(card: Card) -> int:
        return INDEX[card] % 13 + (100 if card[1] == trump else 0)

    if not trick.cards:
        trumps = [card for card in legal if card[1] == trump]
        if trump is None:  # the pitch: lead the suit held longest and strongest, from the top
            suit = max("SHDC", key=lambda s: sum(1 + RANKS.index(c[0]) / 13 for c in legal if c[1] == s))
            return max((c for c in legal if c[1] == suit), key=strength)
        played = {c for t in state.tricks for c in t.cards}
        higher_out = [r for r in RANKS if RANKS.index(r) > max((RANKS.index(c[0]) for c in trumps), default=-1)]
        top = trumps and all(r + trump in played for r in higher_out)
        if top:
            return max(trumps, key=strength)
        aces = [card for card in legal if card[0] == "A" and card[1] != trump]
        if aces:
            return aces[0]
        plain = [card for card in legal if card[1] != trump and card[0] not in "TJ"] or legal
        return min(plain, key=strength)
    led = trick.cards[0][1]
    partners = set(game.sides(state.players, state.options)[game.side_of(state, seat)])
    order = playing_order(state.seats, trick.leader)
    best = max(range(len(trick.cards)), key=lambda i: game.card_power(trick.cards[i], led, trump))
    best_power = game.card_power(trick.cards[best], led, trump)
    partner_winning = order[best] in partners
    last = len(trick.cards) == len(state.seats) - 1
    worth = sum(card_points(c) for c in trick.cards)
    winners = [card for card in legal if game.card_power(card, led, trump) > best_power]
    if partner_winning and (last or best_power >= 200 + RANKS.index("K")):
        # give my partner the points: a ten (or the jack of trumps) if it is safe
        gifts = [c for c in legal if c[0] == "T" and c[1] != trump] or legal
        return max(gifts, key=lambda c: (card_points(c), -strength(c)))
    if winners and (worth >= 4 or last or any(c[0] in "TJ" for c in trick.cards)):
        return min(winners, key=strength)
    if winners and any(c[0] in "TA" and c[1] == led for c in legal):
        return min(winners, key=strength)
    cheap = [c for c in legal if c[1] != trump and c[0] not in "TA"] or [c for c in legal if c[0] not in "TJ"] or legal
    return min(cheap, key=lambda c: (card_points(c), strength(c)))


def _cards(cards: Sequence[Card]) -> Text:
    return listing([Text("%(card)s", (("card", CardName(card)),)) for card in cards])


AllFoursMatch = SidesMatch  # a session: each side's points, first to 7
