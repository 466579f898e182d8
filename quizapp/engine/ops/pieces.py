"""Lazy results of the splitting ops: a tuple for few pieces, an on-demand Pieces for many."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..tensor import Tensor

MAX_EAGER_PIECES = 1024  # more pieces than this are built on demand (see Pieces)


class Pieces(Sequence):
    """An immutable, lazily built sequence of the views a splitting op returns.

    ``unbind`` of a dim of size 10**12 must not build 10**12 tensors; piece ``k`` is computed
    when indexed.  Indexing out of range raises IndexError("tuple index out of range") as the
    tuple torch returns would.
    """

    __slots__ = ("_count", "_make")

    def __init__(self, count: int, make: Callable[[int], Tensor]) -> None:
        self._count = count
        self._make = make

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, k):
        if isinstance(k, slice):  # stays lazy: a slice of 10**12 pieces builds none of them
            picked = range(*k.indices(self._count))
            return make_pieces(len(picked), lambda i: self._make(picked[i]))
        if k < 0:
            k += self._count
        if not 0 <= k < self._count:
            raise IndexError("tuple index out of range")
        return self._make(k)


def make_pieces(count: int, make: Callable[[int], Tensor]) -> tuple[Tensor, ...] | Pieces:
    """``make(k)`` for every k < count: a tuple up to MAX_EAGER_PIECES, else a lazy Pieces."""
    if count <= MAX_EAGER_PIECES:
        return tuple([make(k) for k in range(count)])
    return Pieces(count, make)
