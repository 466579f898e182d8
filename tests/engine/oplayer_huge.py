"""Generated layouts with dims near INT64_MAX, where torch's int64 arithmetic wraps or is checked.

Sizes like 2**63 - 1 only exist through stride-0 dims (or next to a 0), so nothing is allocated;
ops that would copy or build one tensor per index of such a dim are not run here.  Arguments
come from ``args_for`` where it copes with huge sizes, and from tables of values around the
overflow points (sums past INT64_MAX, SymInt's -2**62 floor, offsets whose bytes overflow).
"""

from __future__ import annotations

import torch
from oplayer_args import args_for, rand_dim, size_of
from oplayer_support import Case

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.tensor import TorchError

INT64_MAX = 2**63 - 1
HUGE = (
    2**63 - 1,
    2**63 - 2,
    2**63 - 4,
    2**62 + 1,
    2**62,
    3074457345618258603,
    2**61 + 3,
    2**40,
)
NEAR_LIMITS = (2**62, 2**62 + 1, 2**61, 2**63 - 1, 2**63 - 2, 4809636876955598056)
MAX_PIECES = 64  # torch builds every piece of a split: keep the count small

# Ops safe on huge layouts: no copy (no allocation) and a bounded number of result tensors.
HUGE_OPS = (
    "view",
    "unflatten",
    "squeeze",
    "unsqueeze",
    "permute",
    "transpose",
    "movedim",
    "T",
    "expand",
    "narrow",
    "select",
    "split",
    "chunk",
    "tensor_split",
    "__getitem__",
    "diagonal",
    "unfold",
    "as_strided",
)
# Ops that may copy: only run on huge layouts holding no element (nothing to allocate).
EMPTY_ONLY_OPS = ("flatten", "ravel", "reshape", "clone", "contiguous", "to")


def huge_empty_layout(case: Case):
    """A huge layout with a 0 among its dims (so copying it allocates nothing)."""
    return huge_layout(case, empty=True)


def huge_layout(case: Case, empty: bool = False):
    """A small base tensor seen through as_strided with one or more dims near INT64_MAX."""
    rng = case.rng
    e, t = case.base()
    if e.storage.nbytes < 4 * e.dtype.itemsize:
        e, t = case.add(CONSTRUCTORS["arange"](start=0, end=8, step=1).value, torch.arange(8))
    limit = e.storage.nbytes // e.dtype.itemsize
    shape = [rng.choice(HUGE) if rng.random() < 0.5 else rng.choice((1, 2, 3)) for _ in range(3)]
    shape = shape[: rng.randint(1, 3)]
    if max(shape) < 2**40:
        shape[rng.randrange(len(shape))] = rng.choice(HUGE)
    if empty or rng.random() < 0.25:  # next to a 0 any stride passes bounds and numel checks
        shape.insert(rng.randint(0, len(shape)), 0)
        stride = [rng.choice((0, 1, 2, 2**40)) for _ in shape]
    else:
        stride = [0 if s > 3 else rng.choice((0, 1)) for s in shape]
    offset = rng.randint(0, 1)
    fallback = ((0, rng.choice(HUGE)), (1, 1)) if empty else ((rng.choice(HUGE),), (0,))
    for size, st in ((tuple(shape), tuple(stride)), fallback):
        try:
            mine = OPS["as_strided"](e, size=size, stride=st, storage_offset=offset).value
        except TorchError:
            continue  # e.g. a numel overflow: fall back to one huge stride-0 dim
        return case.add(mine, t.as_strided(size, st, offset))
    raise AssertionError(f"no huge layout over a storage of {limit} elements")


def _split_pieces(n: int, split_size: int) -> int:
    if split_size <= 0:
        return 1
    if n + split_size - 1 > INT64_MAX:
        return 1  # wraps in int64: one piece (see ops.slicing._wrapped_split_count)
    return max(-(-n // split_size), 1)


def _huge_slice(rng, size: int) -> slice:
    start = rng.choice((None, 0, 3, -rng.choice(NEAR_LIMITS), size // 2, -(2**63)))
    stop = rng.choice((None, -rng.choice(NEAR_LIMITS), rng.choice(NEAR_LIMITS), -(2**63) - 5))
    step = rng.choice((None, 1, 2, 3, rng.choice(NEAR_LIMITS), 2**62 + 9))
    return slice(start, stop, step)


def huge_args_for(name: str, rng, case: Case, e) -> dict:
    """Arguments for ``name`` on a huge layout ``e``, often right at an int64 overflow point."""
    nd = e.ndim
    if name == "view":
        n = 1
        for s in e.shape:
            n *= s
        options = [(-1,), (n,), (1, -1), (-1, 1), (2, -1), (-1, 3), tuple(reversed(e.shape))]
        options.append((rng.choice(HUGE), rng.choice((2, 3, 4, -1))))
        return {"size": _clip(rng.choice(options))}
    if name == "unflatten":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        options = [(-1,), (1, -1), (-1, 1), (2, -1), (n,), (1, n), (rng.choice(HUGE), -1)]
        return {"dim": d, "sizes": _clip(rng.choice(options))}
    if name == "split":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        candidates = [n, n - 1, n // 2, n // 3 + 1, 5, 2, *NEAR_LIMITS]
        fitting = [ss for ss in candidates if 0 < ss and _split_pieces(n, ss) <= MAX_PIECES]
        return {"split_size": _clip(rng.choice(fitting or [n])), "dim": d}
    if name == "chunk":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        fitting = [
            c
            for c in (1, 2, 3, 4, 7, 2**62, INT64_MAX)
            if (n + c - 1 > INT64_MAX or _split_pieces(n, -(-n // c)) <= MAX_PIECES)
            and (n != 0 or c <= MAX_PIECES)  # c empty pieces when the dim is empty
        ]
        return {"chunks": rng.choice(fitting), "dim": d}
    if name == "__getitem__" and nd and rng.random() < 0.6:
        index = tuple(_huge_slice(rng, s) for s in e.shape[: rng.randint(1, nd)])
        return {"index": index[0] if len(index) == 1 and rng.random() < 0.5 else index}
    if name == "unfold":
        d = rand_dim(rng, nd)
        n = size_of(e, d)
        size = rng.choice((0, 1, 2, 3, n, n - 1, n // 2))
        step = rng.choice((1, 2, 3, 2**62, n))
        return {"dimension": d, "size": size, "step": step}
    if name == "as_strided":
        size = (rng.choice(HUGE + (1, 3)),) + rng.choice(((), (0,), (2,)))
        stride = tuple(rng.choice((0, 1, 2)) for _ in size)
        offset = rng.choice((None, 0, 1, 2, 2**61 - 1, 2**61, 2**62, INT64_MAX))
        return {"size": size, "stride": stride, "storage_offset": offset}
    return {k: _clip(v) for k, v in args_for(name, rng, case, e).items()}


def _clip(value):
    """Keep ints inside int64 (torch's argument parser rejects the rest before any op runs);
    drop step 0 next to a start/stop below -2**62: torch would warn about truncating it with the
    ValueError pending, which surfaces as a SystemError that depends on the warning filters."""
    if isinstance(value, tuple):
        return tuple(_clip(v) for v in value)
    if isinstance(value, slice):
        low = min((v for v in (value.start, value.stop) if v is not None), default=0)
        return slice(value.start, value.stop, None) if value.step == 0 and low < -(2**62) else value
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return min(max(value, -(2**63)), INT64_MAX)
