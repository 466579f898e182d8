"""Deterministic random numbers for puzzles: splitmix64 seeded from SHA-256 of the puzzle id."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class PuzzleRng:
    """Random draws that depend only on a key string, the same everywhere and in every release.

    ``hash()`` is salted per process and the ``random`` module's methods may change between
    Python versions, so the generator is spelled out here: splitmix64, with bounded draws by
    multiply-shift.
    """

    __slots__ = ("_state",)

    def __init__(self, key: str) -> None:
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        self._state = int.from_bytes(digest[:8], "big")

    def next_u64(self) -> int:
        z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``: the high bits of ``next_u64() * n`` (multiply-shift).

        The bias is at most n / 2**64, far below anything a puzzle could show.
        """
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return (self.next_u64() * n) >> 64

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]`` (both ends included)."""
        return lo + self.below(hi - lo + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def chance(self, percent: int) -> bool:
        """True with probability ``percent`` / 100."""
        return self.below(100) < percent

    def shuffled(self, seq: Sequence[T]) -> list[T]:
        """A new list with the items of ``seq`` in random order (Fisher-Yates)."""
        items = list(seq)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        return self.shuffled(seq)[:k]
