"""The Forty-Five family: what Auction Forty-Five and Forty-Five share (docs/rules/forty_five.md §1,
docs/rules/forty_five.md §2, docs/rules/forty_five.md §3; docs/rules/auction_forty_five.md §2).

The five of trumps, the jack of trumps and the ace of hearts rank above every other trump, and
the A♥ is a trump whatever the suit (never a heart unless hearts are trump). Below them trumps
run "highest in red, lowest in black", and so do the plain suits, where an ace counts as one. A
plain suit led may be followed or trumped; a trump led must be followed by a trump, except that
the three top trumps may be *withheld* from a lower trump led. Two sides seated alternately,
even seats against odd. Each game is one module on this one; its computer players are the
generic ones, playing out with the rule of thumb here.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import BIT, SUIT_MASK, SUITS, Card, deck, from_mask
from .game import CardName, CardNames, Count, IllegalPlay, InvalidDeal, SuitName, Text, View
from .options import Option, gettext_noop, ngettext_noop
from .tricks.deal import DealState, Trick, playing_order
from .tricks.seat_view import SeatView
from .tricks.sides import SidesGame

ACE_OF_HEARTS = "AH"
RED = "HD"


def points_to_win(default: int, targets: tuple[int, ...]) -> Option:
    """The session's length: the rules' target by default, and the shorter ones players also play to."""
    return Option(
        "points",
        "choice",
        str(default),
        gettext_noop("Points to win"),
        gettext_noop("The first side to this many points wins the session. Fewer points make a shorter session."),
        choices=tuple((str(target), str(target)) for target in targets),
    )


def trump_order(trump: str) -> tuple[Card, ...]:
    """The trumps of ``trump``, highest first: 5, J, A♥, the ace (unless hearts), K, Q, then the pips
    highest in red and lowest in black."""
    pips = "T98764 32".replace(" ", "") if trump in RED else "2346789T"
    order = [f"5{trump}", f"J{trump}", ACE_OF_HEARTS]
    if trump != "H":
        order.append(f"A{trump}")
    order += [f"K{trump}", f"Q{trump}", *(pip + trump for pip in pips)]
    return tuple(order)


def plain_order(suit: str) -> tuple[Card, ...]:
    """A suit that is not trump, highest first: red K Q J 10 … 2 A, black K Q J A 2 … 10 (the A♥ is
    always a trump)."""
    ranks = "KQJT98765432A" if suit in RED else "KQJA23456789T"
    return tuple(rank + suit for rank in ranks if rank + suit != ACE_OF_HEARTS)


def _masks() -> tuple[dict[str, int], dict[str, int], dict[str, dict[Card, int]], dict[str, dict[Card, int]]]:
    trumps, tops, rank, above = {}, {}, {}, {}
    for trump in SUITS:
        order = trump_order(trump)
        trumps[trump] = sum(BIT[card] for card in order)
        tops[trump] = sum(BIT[card] for card in order[:3])
        ranks = {card: 200 + len(order) - place for place, card in enumerate(order)}
        for suit in SUITS:
            if suit != trump:
                plain = plain_order(suit)
                ranks |= {card: 100 + len(plain) - place for place, card in enumerate(plain)}
        rank[trump] = ranks
        above[trump] = {card: sum(BIT[higher] for higher in order[:place]) for place, card in enumerate(order)}
    return trumps, tops, rank, above


TRUMPS, TOP_TRUMPS, POWER, ABOVE = _masks()
PLAIN = {card: 113 - place for suit in SUITS for place, card in enumerate(plain_order(suit))}  # trump unknown


def is_trump(card: Card, trump: str) -> bool:
    return bool(BIT[card] & TRUMPS[trump])


class FortyFives(SidesGame):
    """The family's deck, trump ladder, following rule and sides; a game adds its auction and scoring."""

    packets = (3, 2)
    lowest_score = -(10**9)  # a side that keeps failing its bids has no floor
    counts_tricks = True
    bots_count_tricks = True  # a deal is worth points, not one trick
    call_margin = 5.0  # a trick's worth: a bid or a draw that costs more than that is a partner's faux pas

    def sides(self, players: int, options: Any = None) -> tuple[tuple[int, ...], ...]:
        """Even seats against odd seats (one against one with two players)."""
        return tuple(tuple(range(first, players, 2)) for first in (0, 1))

    # -- trumps and following ------------------------------------------------------

    def suit_in_play(self, card: Card, trump: str | None) -> str:
        """The A♥ is a trump for leading, following and voids."""
        return trump if trump is not None and card == ACE_OF_HEARTS else card[1]

    def card_power(self, card: Card, led: str, trump: str | None) -> int:
        if trump is None:  # before trump is known nothing takes a trick; ranks as in a plain suit
            return PLAIN.get(card, 0) if card[1] == led else 0
        rank = POWER[trump][card]
        if rank >= 200 or self.suit_in_play(card, trump) == led:
            return rank
        return 0

    def legal_mask(self, state: DealState) -> int:
        seat = state.to_act
        if seat is None or state.trick is None:
            return 0
        hand = state.hands[seat]
        if not state.trick.cards:
            return hand
        trumps = TRUMPS[state.trump]
        led = state.trick.cards[0]
        mine = hand & trumps
        if BIT[led] & trumps:
            kept = mine & TOP_TRUMPS[state.trump] & ABOVE[state.trump][led]
            return hand if not mine or mine == kept else mine
        in_suit = hand & SUIT_MASK[SUITS.index(led[1])] & ~trumps
        return in_suit | mine if in_suit else hand

    def withheld(self, seen: SeatView) -> tuple[Card, ...]:
        """The top trumps the seat to act may keep back from the trump led now (none if no trump was led)."""
        trick, trump = seen.trick, seen.trump
        if trick is None or not trick.cards or trump is None or not is_trump(trick.cards[0], trump):
            return ()
        kept = TOP_TRUMPS[trump] & ABOVE[trump][trick.cards[0]]
        return tuple(card for card in seen.hand if BIT[card] & kept)

    def trick_winner(self, state: DealState, trick: Trick) -> int:
        led = self.suit_in_play(trick.cards[0], state.trump)
        powers = [self.card_power(card, led, state.trump) for card in trick.cards]
        return state.seat_after(trick.leader, powers.index(max(powers)))

    def shows_void(self, card: Card, led: str, trump: str | None) -> bool:
        """A trump played to a plain suit shows nothing: one may trump while holding it. Nor does a
        plain card played to a trump lead: one whose only trumps are top ones (the five, the jack,
        the A♥) above the card led may keep them back."""
        return self.suit_in_play(card, trump) != trump and led != trump

    def _broken_rule(self, state: DealState, seat: int, card: Card, legal: list[Card]) -> IllegalPlay:
        led = state.trick.cards[0]
        named = CardNames(tuple(legal))
        if is_trump(led, state.trump):
            message = f"a trump was led: play a trump, one of {', '.join(legal)}"
            text = Text(gettext_noop("A trump was led: play a trump (%(legal)s)."), (("legal", named),))
        else:
            message = f"follow {led[1]} or trump: one of {', '.join(legal)}"
            text = Text(
                gettext_noop("Follow %(suit)s or play a trump: %(legal)s."),
                (("suit", SuitName(led[1])), ("legal", named)),
            )
        suit = self.suit_in_play(led, state.trump)
        return IllegalPlay("must_follow", message, seat=seat, card=card, legal=legal, suit=suit, text=text)

    def duty_said(self, seen: SeatView) -> Text | None:
        """Say when a top trump may be kept back, that a plain suit may be trumped, and that the A♥
        is a trump (not a heart)."""
        trick, trump = seen.trick, seen.trump
        if trick is None or not trick.cards or trump is None:
            return None
        led = trick.cards[0]
        kept = self.withheld(seen)
        if kept:
            trumps = [card for card in seen.hand if is_trump(card, trump)]
            params = (("cards", CardNames(kept)), ("card", CardName(led)))
            if len(kept) == len(trumps):
                return Text(
                    gettext_noop(
                        "Your turn: you may keep %(cards)s, since the %(card)s led is lower, and play any card."
                    ),
                    params,
                )
            return Text(
                gettext_noop("Your turn: play a trump; you may keep %(cards)s, since the %(card)s led is lower."),
                params,
            )
        trumps = [card for card in seen.hand if is_trump(card, trump)]
        if is_trump(led, trump):
            return Text(gettext_noop("Your turn: play a trump.")) if trumps else None  # the A♥ is one
        suit = (("suit", SuitName(led[1])),)
        if any(self.suit_in_play(card, trump) == led[1] for card in seen.hand):
            return Text(gettext_noop("Your turn: follow %(suit)s or play a trump."), suit) if trumps else None
        shown = [card for card in seen.hand if card[1] == led[1]]  # the A♥ on a hearts lead: a trump
        if shown:
            return Text(
                gettext_noop("Your turn: you have no %(suit)s (the %(card)s is a trump), play any card."),
                (*suit, ("card", CardName(shown[0]))),
            )
        return None

    def trick_points(self, state: DealState) -> tuple[tuple[int, ...], int | None]:
        """Tricks taken per side, and the side that took the highest trump played (None: no trump played)."""
        sides = self.sides(state.players)
        side = {seat: i for i, members in enumerate(sides) for seat in members}
        taken = [0] * len(sides)
        best, high = 0, None
        for trick in state.tricks:
            taken[side[trick.winner]] += 1
            for card in trick.cards:
                rank = POWER[state.trump][card]
                if rank >= 200 and rank > best:
                    best, high = rank, side[trick.winner]
        return tuple(taken), high

    # -- computer players ------------------------------------------------------------

    win_bonus = 30.0
    thumb_worlds = 32  # five-card deals play out fast: more worlds, less noise

    def thumb_decides(self, view: View) -> bool:
        """Bids, holds and the call: the worlds would deal the bidders' strong hands at random."""
        auction = ("bid:", "call:", "hold")
        return view.detail.trick is None and any(action.startswith(auction) for action in view.actions)

    def thumb_card(self, state: DealState) -> Card:
        return thumb_card(self, state)

    def resample(self, view: View, rng: random.Random) -> DealState:
        """The deal with what the viewer cannot see dealt anew: the other hands (none holding what its
        play has shown it lacks), the discards and the stock."""
        seen: SeatView = view.detail
        played = {card for trick in (*seen.tricks, *([seen.trick] if seen.trick else [])) for card in trick.cards}
        held = self.known_held(seen)
        gone = set(self.known_gone(seen))
        known = {card for cards in held.values() for card in cards}
        pool = [c for c in deck() if c not in played and c not in seen.hand and c not in known and c not in gone]
        need = [
            0 if seat == seen.seat else seen.hand_sizes[seat] - len(held.get(seat, ())) for seat in range(seen.players)
        ]
        hands, rest = deal_unseen(need, pool, self.barred(seen), rng, self.likely(seen))
        for seat, cards in held.items():
            hands[seat] += cards
        if seen.seat is not None:
            hands[seen.seat] = list(seen.hand)
        return self.world(seen, hands, rest)

    def known_held(self, seen: SeatView) -> dict[int, list[Card]]:
        """Cards the viewer knows another seat holds now (a robbed card not yet played)."""
        return {}

    def likely(self, seen: SeatView) -> dict[int, tuple[int, int]]:
        """Cards a seat probably holds, as (mask, how many of them): dealt to it first in a world."""
        return {}

    def known_gone(self, seen: SeatView) -> tuple[Card, ...]:
        """Cards in no hand that the viewer has seen: its own discards (and a game's own, such as a
        turned card left on the table)."""
        return tuple(call[8:] for call in seen.calls if call.startswith("discard:"))

    def world(self, seen: SeatView, hands: list[list[Card]], rest: list[Card]) -> DealState:
        """A whole deal with these hands now; ``rest`` are the cards in no hand, shuffled."""
        # Only the hands' size is read of what was dealt in a world: five each, padded with any cards.
        filler = (*rest, *deck())
        dealt = tuple((*seen.played[seat], *hands[seat], *filler)[:5] for seat in range(seen.players))
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
            calls=seen.calls,
            contract=seen.contract,
            upcard=seen.upcard,
            standing=seen.standing,
        )

    def barred(self, seen: SeatView) -> dict[int, int]:
        """The cards each seat has shown it does not hold, as masks: a plain suit it did not follow
        or trump; on a trump led, every trump but the top ones above the card led."""
        barred = dict.fromkeys(range(seen.players), 0)
        trump = seen.trump
        if trump is None:
            return barred
        trumps = TRUMPS[trump]
        for trick in (*seen.tricks, *([seen.trick] if seen.trick else [])):
            if not trick.cards:
                continue
            led = trick.cards[0]
            for seat, card in zip(playing_order(seen.seats, trick.leader)[1:], trick.cards[1:], strict=False):
                if BIT[card] & trumps:
                    continue
                if BIT[led] & trumps:
                    barred[seat] |= trumps & ~(TOP_TRUMPS[trump] & ABOVE[trump][led])
                elif card[1] != led[1]:
                    barred[seat] |= SUIT_MASK[SUITS.index(led[1])] & ~trumps
        return barred

    def describe_target(self, options: Any) -> Count:
        return Count(self.target_for(options), *ngettext_noop("first to %(count)d point", "first to %(count)d points"))

    def parse_target(self, raw: dict[str, Any], allowed: tuple[int, ...]) -> int:
        """The ``points`` option (the rules' target when not given; the form sends it as text)."""
        points = raw.get("points", self.target)
        points = int(points) if isinstance(points, str) and points.isdigit() else points
        if isinstance(points, bool) or points not in allowed:
            raise InvalidDeal(f"points must be one of {', '.join(str(target) for target in allowed)}")
        return points


def deal_unseen(
    need: list[int],
    pool: list[Card],
    barred: dict[int, int],
    rng: random.Random,
    likely: dict[int, tuple[int, int]] | None = None,
    tries: int = 50,
) -> tuple[list[list[Card]], list[Card]]:
    """``need[seat]`` cards to each seat from ``pool``, none it is barred from (the most barred
    seats served first; dealt again when stuck, at worst freely), a seat's ``likely`` cards first;
    the hands and the cards left."""
    likely = likely or {}
    order = sorted(range(len(need)), key=lambda seat: -barred.get(seat, 0).bit_count())
    for attempt in range(tries + 1):
        left = list(pool)
        rng.shuffle(left)
        hands: list[list[Card]] = [[] for _ in need]
        for seat in order:
            free = attempt == tries
            mask = 0 if free else barred.get(seat, 0)
            fits = [card for card in left if not BIT[card] & mask]
            if len(fits) < need[seat]:
                break
            if seat in likely and not free:
                wanted, count = likely[seat]
                first = [card for card in fits if BIT[card] & wanted][:count]
                fits = first + [card for card in fits if card not in first]
            hands[seat] = fits[: need[seat]]
            taken = set(hands[seat])
            left = [card for card in left if card not in taken]
        else:
            return hands, left
    raise InvalidDeal("the unseen cards cannot fill the hands")


def thumb_card(game: FortyFives, state: DealState) -> Card:
    """Lead the top trump while holding it to draw the others', else a plain king; take a trick as
    cheaply as it can be taken unless a partner already has it; keep the top trumps back when the
    rules allow; throw the lowest plain card."""
    seat = state.to_act
    legal = from_mask(game.legal_mask(state))
    if len(legal) == 1:
        return legal[0]
    trump = state.trump
    rank = POWER[trump]
    trick = state.trick

    def keep(card: Card) -> int:  # how much a card is worth keeping
        return rank[card] + (0 if rank[card] >= 200 else -60)

    if not trick.cards:
        played = {card for t in state.tricks for card in t.cards}
        out = [card for card in trump_order(trump) if card not in played]
        trumps = [card for card in legal if is_trump(card, trump)]
        if trumps and out and out[0] in trumps:
            return out[0]
        kings = [card for card in legal if card[0] == "K" and not is_trump(card, trump)]
        if kings:
            return kings[0]
        if len(trumps) >= 3:
            return max(trumps, key=rank.__getitem__)
        plain = [card for card in legal if not is_trump(card, trump)] or legal
        return min(plain, key=keep)
    led = game.suit_in_play(trick.cards[0], trump)
    order = playing_order(state.seats, trick.leader)
    powers = [game.card_power(card, led, trump) for card in trick.cards]
    best = max(range(len(powers)), key=powers.__getitem__)
    partners = set(game.sides(state.players)[game.side_of(state, seat)])
    last = len(trick.cards) == len(state.seats) - 1
    winners = [card for card in legal if game.card_power(card, led, trump) > powers[best]]
    if order[best] in partners and (last or powers[best] >= 200 + 11):
        return min(legal, key=keep)
    if winners:
        return min(winners, key=keep) if not last else min(winners, key=rank.__getitem__)
    return min(legal, key=keep)


def hand_strength(hand: list[Card], trump: str) -> float:
    """Tricks a hand may take with ``trump``: the top trumps nearly one each, lower ones less, a
    plain king a little."""
    worth = {f"5{trump}": 1.0, f"J{trump}": 0.95, ACE_OF_HEARTS: 0.85, f"A{trump}": 0.7, f"K{trump}": 0.6}
    strength = 0.0
    for card in hand:
        if is_trump(card, trump):
            strength += worth.get(card, 0.45 if card[0] == "Q" else 0.3)
        elif card[0] == "K":
            strength += 0.3
    return strength


def best_suit(hand: list[Card]) -> str:
    return max(SUITS, key=lambda suit: (hand_strength(hand, suit), -SUITS.index(suit)))


def discard_value(card: Card, trump: str) -> int:
    """What a card is worth keeping after trump is known: trumps, then plain kings."""
    rank = POWER[trump][card]
    if rank >= 200:
        return rank
    return 150 if card[0] == "K" else rank - 100
