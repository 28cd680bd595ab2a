"""Dealing the hidden cards at random, consistently with what the seat knows."""

from __future__ import annotations

import random

from .knowledge import Knowledge


class NoWorld(Exception):
    """No deal of the unseen cards fits the knowledge (should not happen for a real view)."""


def sample_world(knowledge: Knowledge, rng: random.Random, tries: int = 200) -> dict[int, int]:
    """A hand (bitmask) for every other seat, drawn from the cards each may hold."""
    seats = sorted(knowledge.allowed, key=lambda s: (knowledge.allowed[s].bit_count() - knowledge.sizes[s], s))
    for _ in range(tries):
        world = _draw(knowledge, seats, rng)
        if world is not None:
            return world
    world = _search(knowledge, seats, knowledge.unseen & ~sum(knowledge.known.values()), {})
    if world is None:
        raise NoWorld("the knowledge admits no world")
    return world


def _draw(knowledge: Knowledge, seats: list[int], rng: random.Random) -> dict[int, int] | None:
    known = knowledge.known
    pool = knowledge.unseen & ~sum(known.values())
    world = {}
    for seat in seats:
        fixed = known.get(seat, 0)
        cards = _bits(knowledge.allowed[seat] & pool)
        need = knowledge.sizes[seat] - fixed.bit_count()
        if len(cards) < need:
            return None
        hand = sum(rng.sample(cards, need)) | fixed
        world[seat] = hand
        pool &= ~hand
    return world


def _search(knowledge: Knowledge, seats: list[int], pool: int, world: dict[int, int]) -> dict[int, int] | None:
    """Exhaustive fallback for tight endings (every card accounted for)."""
    if len(world) == len(seats):
        return dict(world)
    seat = seats[len(world)]
    from itertools import combinations

    fixed = knowledge.known.get(seat, 0)
    for combo in combinations(_bits(knowledge.allowed[seat] & pool), knowledge.sizes[seat] - fixed.bit_count()):
        hand = sum(combo) | fixed
        world[seat] = hand
        found = _search(knowledge, seats, pool & ~hand, world)
        del world[seat]
        if found is not None:
            return found
    return None


def _bits(mask: int) -> list[int]:
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low)
        mask ^= low
    return bits
