"""The medium player's rules of thumb on card bitmasks, for play-outs that model the field.

``habit_card`` is a fast equivalent of ``medium.ranked(view)[0]`` for one seat of a
sampled world: the same odds (the unseen cards that could beat a card, counted
without regard to who holds them), computed from the world's masks instead of a view.
The strong player plays its sampled worlds out with every other seat following it,
since real opponents follow rules of thumb rather than play at random or spitefully.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from games.engine.cards import INDEX, SUIT_MASK
from games.engine.tricks.deal import playing_order
from games.engine.tricks.masks import NO_TRUMP, follow_mask, standing
from games.engine.tricks.seat_view import SeatView


@lru_cache(maxsize=65536)
def _none_hold(pool: int, higher: int, held: int) -> float:
    """Chance that none of ``higher`` given cards among ``pool`` unseen lies among ``held`` dealt ones."""
    if higher == 0 or pool == 0:
        return 1.0
    if held > pool - higher:
        return 0.0
    return comb(pool - higher, held) / comb(pool, held)


def _above(index: int, trump: int) -> int:
    suit = index // 13
    mask = SUIT_MASK[suit] & ~((1 << (index + 1)) - 1)
    if trump >= 0 and suit != trump:
        mask |= SUIT_MASK[trump]
    return mask


def habit_card(
    hand: int,
    moves: int,
    *,
    unseen: int,
    held: int,
    later: int,
    step: int,
    led: int,
    bar: int,
    best: int,
    trump: int,
    avoid: bool,
) -> int:
    """The card (an index) the rules of thumb play first from ``moves``.

    ``unseen``: cards neither in ``hand`` nor played (also those never dealt); ``held``:
    cards in the other hands; ``later``: cards in the hands still to play to this trick.
    """
    if moves & (moves - 1) == 0:
        return moves.bit_length() - 1
    pool = unseen.bit_count()
    options = []
    while moves:
        low = moves & -moves
        moves ^= low
        options.append(low.bit_length() - 1)

    def leading(index: int) -> float:
        return _none_hold(pool, (_above(index, trump) & unseen).bit_count(), held)

    if hand.bit_count() == 2:

        def last_trick(index: int) -> float:
            other = (hand ^ (1 << index)).bit_length() - 1
            now = 0.0
            suit = index // 13
            beats = step == 0 or (
                (suit == led and best == NO_TRUMP and index > bar) or (suit == trump and suit != led and index > best)
            )
            if beats:
                now = _none_hold(pool, (_above(index, trump) & unseen).bit_count(), later)
            following = (unseen & SUIT_MASK[other // 13]).bit_count() / pool * leading(other) if pool else 0.0
            return now * leading(other) + (1 - now) * following

        if avoid:
            return min(options, key=lambda i: (last_trick(i), i % 13))
        return min(options, key=lambda i: (-last_trick(i), i % 13))
    if avoid:
        return max(options, key=lambda i: (leading(i), i % 13))
    if step == 0:
        return min(options, key=lambda i: ((hand & SUIT_MASK[i // 13]).bit_count(), leading(i), i % 13))
    return min(options, key=lambda i: (leading(i), i % 13))


def keeper(hand: int, *, unseen: int, held: int, trump: int, avoid: bool) -> int:
    """The card of ``hand`` the medium player keeps for last: likeliest to take a last trick it
    leads (Femkort), or least likely (Letzter Stich)."""
    pool = unseen.bit_count()
    best = -1
    best_key: tuple[float, int] = (-2.0, -99)
    while hand:
        low = hand & -hand
        hand ^= low
        index = low.bit_length() - 1
        key = (_none_hold(pool, (_above(index, trump) & unseen).bit_count(), held), index % 13)
        if avoid:
            key = (-key[0], -key[1])
        if key > best_key:
            best, best_key = index, key
    return best


@dataclass(frozen=True, slots=True)
class _Play:
    seat: int
    card: int
    step: int
    led: int
    bar: int
    best: int
    seen: int  # cards played before this one
    later_cards: int  # cards this seat played from here on, this one included
    held: int  # cards in the hands of the other seats, before this play
    size: int  # cards in this seat's hand, before this play
    later: int  # cards in the hands still to play to this trick


def observed_plays(view: SeatView) -> list[_Play]:
    """The other seats' plays so far where they had a choice to make, with what each could see."""
    trump = NO_TRUMP if view.trump is None else "SHDC".index(view.trump)
    tricks = [*view.tricks, *([view.trick] if view.trick and view.trick.cards else [])]
    sizes = {seat: view.hand_sizes[seat] + len(view.played[seat]) for seat in view.seats}
    order = []
    for trick in tricks:
        turn = playing_order(view.seats, trick.leader)
        cards = [INDEX[card] for card in trick.cards]
        order += [(turn, step, cards) for step in range(len(cards))]
    plays = []
    seen = 0
    for number, (turn, step, cards) in enumerate(order):
        seat, card = turn[step], cards[step]
        if seat != view.seat:
            led, bar, best, _ = standing(cards[:step], 0, len(turn), trump) if step else (0, 0, NO_TRUMP, 0)
            plays.append(
                _Play(
                    seat=seat,
                    card=card,
                    step=step,
                    led=led,
                    bar=bar,
                    best=best,
                    seen=seen,
                    later_cards=sum(1 << c[s] for t, s, c in order[number:] if t[s] == seat),
                    held=sum(sizes.values()) - sizes[seat],
                    size=sizes[seat],
                    later=sum(sizes[s] for s in turn[step + 1 :]),
                )
            )
        seen |= 1 << card
        sizes[seat] -= 1
    return plays


def world_weight(
    plays: list[_Play],
    world: dict[int, int],
    *,
    deck: int,
    trump: int,
    overtake: bool,
    avoid: bool,
    trust: float,
    mimic: tuple[float, float, float] | None = None,
) -> float:
    """How likely the observed plays were in ``world`` if each seat played the rules-of-thumb card
    with chance ``trust`` and any other legal card otherwise.

    With ``mimic`` (the rule's share when leading, following, holding two), a seat plays the
    rule's card with that share, else any other card but its keeper, which it plays only with
    chance ``trust``."""
    weight = 1.0
    for play in plays:
        hand = world[play.seat] | play.later_cards
        moves = follow_mask(hand, play.led, play.bar, play.best != NO_TRUMP, overtake) if play.step else hand
        options = moves.bit_count()
        if options == 1:
            continue
        habit = habit_card(
            hand,
            moves,
            unseen=deck & ~play.seen & ~hand,
            held=play.held,
            later=play.later,
            step=play.step,
            led=play.led,
            bar=play.bar,
            best=play.best,
            trump=trump,
            avoid=avoid,
        )
        if mimic is None:
            weight *= trust if habit == play.card else (1 - trust) / (options - 1)
            continue
        share = mimic[2] if play.size == 2 else mimic[0] if play.step == 0 else mimic[1]
        kept = keeper(hand, unseen=deck & ~play.seen & ~hand, held=play.held, trump=trump, avoid=avoid)
        rest = moves & ~(1 << habit) & ~(1 << kept)
        if play.card == habit:
            weight *= share if rest else 1 - trust
        elif rest >> play.card & 1:
            weight *= (1 - share) / rest.bit_count()
        else:
            weight *= trust
    return weight
