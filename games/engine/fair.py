"""Provably fair deals: a shuffle that is a documented function of a secret seed and the players' own
random contributions, committed to before anyone sees a card and checkable by anyone afterwards.

Before a deal the server draws a ``seed`` (32 bytes from ``secrets``) and shows its commitment,
``commitment(seed, identity)``: SHA-256 over a fixed label, the deal's identity ("session 12 deal
3") and the seed. Seated players may each add a contribution (up to ``MAX_CONTRIBUTION`` lowercase
hexadecimal digits, random ones their browser drew) before the deal starts. The deal is then
``rules.setup(match, FairShuffle(seed, contributions))``: every random choice the game makes comes
from this stream, so once the seed is revealed anyone can deal the same cards again. Neither side
can choose the cards: the server committed to its seed before it saw the contributions, and a
player's contribution cannot steer a SHA-256 output it cannot see.

The stream, version 1 (``STREAM``):

- key = SHA-256(``b"fair-shuffle-v1\\n"`` + seed + for every seat in order: ``b"\\n"`` + the
  contribution as ASCII, empty for a seat that gave none); a contribution is hexadecimal
  (``FairShuffle`` refuses anything else), so a line break is never inside one and, with one
  value per seat, the key's input says which seat gave what: no part of a value can be moved to
  another seat and give the same stream;
- block *i* = SHA-256(key + *i* as 8 bytes, big-endian), *i* = 0, 1, 2, …; the stream is the
  blocks' bytes in order, read as bits from the most significant bit of each byte;
- a number below *n*: take *k* = bit length of *n* - 1 bits as an unsigned integer, most
  significant first; if it is *n* or more, discard it and take the next *k* bits;
- ``shuffle(x)``: Fisher-Yates from the end: for *i* from len(x) - 1 down to 1, swap x[i] with
  x[j], *j* a number below *i* + 1;
- ``randrange(a, b)`` is a + a number below b - a, ``choice(s)`` is s[a number below len(s)],
  ``sample(s, k)`` the last *k* of a shuffled copy, ``random()`` 53 bits / 2**53.

Nothing here depends on Python's own ``random`` algorithms, so the same seed deals the same
cards in any language that has SHA-256.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Any

STREAM = "fair-shuffle-v1"
SEED_BYTES = 32
MAX_CONTRIBUTION = 64
CONTRIBUTION = re.compile(rf"[0-9a-f]{{0,{MAX_CONTRIBUTION}}}")  # one seat's; empty: it gave none


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes, identity: str) -> str:
    """What the table shows before the deal: it names the seed without saying anything about it."""
    return hashlib.sha256(b"fair-commit-v1\n" + identity.encode() + b"\n" + seed).hexdigest()


class FairShuffle(random.Random):
    """A ``random.Random`` whose every draw comes from the stream above (for ``Game.setup``)."""

    def __init__(self, seed: bytes, contributions: Sequence[str] = ()) -> None:
        if not all(isinstance(value, str) and CONTRIBUTION.fullmatch(value) for value in contributions):
            raise ValueError(f"a contribution is up to {MAX_CONTRIBUTION} lowercase hexadecimal digits")
        parts = [STREAM.encode() + b"\n" + seed]
        parts += [b"\n" + contribution.encode() for contribution in contributions]
        self._key = hashlib.sha256(b"".join(parts)).digest()
        self._block = 0
        self._bits = 0  # unread bits, as an integer of ``_count`` bits
        self._count = 0
        super().__init__(0)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """The stream is set by its key alone (``random.Random`` calls this once when made)."""

    def getstate(self) -> tuple:
        return (self._key, self._block, self._bits, self._count)

    def setstate(self, state: tuple) -> None:
        self._key, self._block, self._bits, self._count = state

    def getrandbits(self, k: int) -> int:
        while self._count < k:
            block = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._bits = (self._bits << 256) | int.from_bytes(block, "big")
            self._count += 256
        self._count -= k
        value = self._bits >> self._count
        self._bits &= (1 << self._count) - 1
        return value

    def below(self, n: int) -> int:
        """A number in ``range(n)``, every one equally likely (rejection, never a modulo)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        k = (n - 1).bit_length()
        while True:
            value = self.getrandbits(k) if k else 0
            if value < n:
                return value

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step != 1:
            raise ValueError("a fair deal draws only whole ranges")
        if stop <= start:
            raise ValueError("empty range for randrange()")
        return start + self.below(stop - start)

    def choice(self, seq: Sequence) -> Any:  # type: ignore[override]
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence) -> None:  # type: ignore[override]
        for i in reversed(range(1, len(x))):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence, k: int, *, counts=None) -> list:  # type: ignore[override]
        if counts is not None:
            raise ValueError("a fair deal samples plain sequences")
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        self.shuffle(pool)
        return pool[len(pool) - k :]
