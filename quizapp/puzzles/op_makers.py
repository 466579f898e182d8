"""Random view ops for a given shape: each maker returns an Op, or None when it does not apply."""

from __future__ import annotations

from quizapp.puzzles.chains import (  # noqa: F401 - grow is part of this module's interface
    Op,
    Shape,
    dim_text,
    grow,
    index_text,
    permutation,
    slice_text,
)
from quizapp.puzzles.rng import PuzzleRng


def made(op: Op | None) -> Op:
    """``op``, from a maker called on a shape it applies to: the caller's shape rules None out
    (a permute of two dims or more, an unsqueeze of at most four)."""
    assert op is not None, "an op maker was called on a shape it does not apply to"
    return op


def transpose(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    n = len(shape)
    if n < 2:
        return None
    a, b = rng.sample(range(n), 2)
    out = list(shape)
    out[a], out[b] = out[b], out[a]
    text = f".transpose({dim_text(rng, a, n, negative)}, {dim_text(rng, b, n, negative)})"
    return Op(text, tuple(out), "transpose")


def permute(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    n = len(shape)
    if n < 2:
        return None
    p = permutation(rng, n)
    dims = ", ".join(dim_text(rng, d, n, negative) for d in p)
    return Op(f".permute({dims})", tuple(shape[d] for d in p), "permute")


def t(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    if len(shape) != 2:
        return None
    return Op(".t()", (shape[1], shape[0]), "t")


def mT(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:  # noqa: N802
    if len(shape) < 2:
        return None
    return Op(".mT", shape[:-2] + (shape[-1], shape[-2]), "mT")


def movedim(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    n = len(shape)
    if n < 2:
        return None
    src, dst = rng.sample(range(n), 2)
    order = [d for d in range(n) if d != src]
    order.insert(dst, src)
    text = f".movedim({dim_text(rng, src, n, negative)}, {dim_text(rng, dst, n, negative)})"
    return Op(text, tuple(shape[d] for d in order), "movedim")


def stepped_slice(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    """``x[a:b:k]`` on one or two dims, never a no-op and never empty."""
    dims = [d for d, s in enumerate(shape) if s >= 2]
    if not dims:
        return None
    chosen = sorted(rng.sample(dims, min(len(dims), rng.randint(1, 2))))
    parts = [":"] * len(shape)
    out = list(shape)
    for d in chosen:
        size = shape[d]
        step = rng.randint(1, min(3, size))
        start = rng.randint(0, size - 1)
        if step == 1 and start == 0:
            start = 1
        stop = None if rng.chance(70) else rng.randint(start + 1, size)
        if stop == size:
            stop = None
        parts[d] = slice_text(start, stop, step)
        out[d] = len(range(start, size if stop is None else stop, step))
    if negative and chosen == [len(shape) - 1] and len(shape) > 1 and rng.chance(50):
        return Op(f"[..., {parts[-1]}]", tuple(out), "slice")
    return Op(index_text(parts), tuple(out), "slice")


def narrow(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    dims = [d for d, s in enumerate(shape) if s >= 2]
    if not dims:
        return None
    d = rng.choice(dims)
    length = rng.randint(1, shape[d] - 1)
    start = rng.randint(0, shape[d] - length)
    out = list(shape)
    out[d] = length
    return Op(
        f".narrow({dim_text(rng, d, len(shape), negative)}, {start}, {length})",
        tuple(out),
        "narrow",
    )


def select(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    if len(shape) < 2:
        return None
    d = rng.below(len(shape))
    i = rng.below(shape[d])
    out = shape[:d] + shape[d + 1 :]
    if rng.chance(50) and d <= 1:
        parts = [":"] * d + [str(i)]
        return Op(index_text(parts), out, "select")
    return Op(f".select({dim_text(rng, d, len(shape), negative)}, {i})", out, "select")


def unsqueeze(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    if len(shape) >= 5:
        return None
    d = rng.randint(0, len(shape))
    if rng.chance(25) and d <= 1:
        return Op(index_text([":"] * d + ["None"]), shape[:d] + (1,) + shape[d:], "unsqueeze")
    return Op(f".unsqueeze({d})", shape[:d] + (1,) + shape[d:], "unsqueeze")


def squeeze(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    ones = [d for d, s in enumerate(shape) if s == 1]
    if not ones or len(shape) < 2:
        return None
    if rng.chance(40):
        out = tuple(s for s in shape if s != 1)
        return Op(".squeeze()", out, "squeeze") if out else None
    d = rng.choice(ones)
    return Op(f".squeeze({d})", shape[:d] + shape[d + 1 :], "squeeze")


def flatten(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    n = len(shape)
    if n < 2:
        return None
    s = rng.randint(0, n - 2)
    e = rng.randint(s + 1, n - 1)
    merged = 1
    for size in shape[s : e + 1]:
        merged *= size
    out = shape[:s] + (merged,) + shape[e + 1 :]
    if s == 0 and e == n - 1 and rng.chance(50):
        return Op(".flatten()", out, "flatten")
    return Op(f".flatten({s}, {e})", out, "flatten")


def unflatten(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    options = [(d, f) for d, s in enumerate(shape) for f in range(2, s) if s % f == 0]
    if not options or len(shape) >= 5:
        return None
    d, f = rng.choice(options)
    sizes = (f, shape[d] // f)
    text = f".unflatten({d}, ({sizes[0]}, {-1 if rng.chance(30) else sizes[1]}))"
    return Op(text, shape[:d] + sizes + shape[d + 1 :], "unflatten")


def unfold(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    dims = [d for d, s in enumerate(shape) if s >= 3]
    if not dims or len(shape) >= 4:
        return None
    d = rng.choice(dims)
    size = rng.randint(2, shape[d] - 1)
    step = rng.randint(1, size)
    out = list(shape)
    out[d] = (shape[d] - size) // step + 1
    return Op(f".unfold({d}, {size}, {step})", tuple(out) + (size,), "unfold")


def diagonal(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    n = len(shape)
    if n < 2:
        return None
    d1, d2 = rng.sample(range(n), 2)
    offset = rng.randint(-(shape[d1] - 1), shape[d2] - 1) if rng.chance(60) else 0
    k = min(shape[d1], shape[d2] - offset) if offset >= 0 else min(shape[d1] + offset, shape[d2])
    if k <= 0:
        return None
    out = tuple(s for i, s in enumerate(shape) if i not in (d1, d2)) + (k,)
    if (d1, d2) == (0, 1):
        text = f".diagonal({offset})" if offset else ".diagonal()"
    else:
        text = f".diagonal(offset={offset}, dim1={d1}, dim2={d2})"
    return Op(text, out, "diagonal")


def expand(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    """Broadcast size-1 dims (and maybe one new leading dim); -1 keeps a size."""
    ones = [d for d, s in enumerate(shape) if s == 1]
    lead = (rng.chance(40) or not ones) and len(shape) < 5
    if not ones and not lead:
        return None
    target = [rng.randint(2, 4) if s == 1 else s for s in shape]
    text = [str(v) if shape[d] == 1 or rng.chance(60) else "-1" for d, v in enumerate(target)]
    if lead:
        new = rng.randint(2, 3)
        target.insert(0, new)
        text.insert(0, str(new))
    return Op(f".expand({', '.join(text)})", tuple(target), "expand")


def split_piece(rng: PuzzleRng, shape: Shape, negative: bool = False) -> Op | None:
    """``split``, ``chunk``, ``tensor_split`` or ``unbind`` followed by ``[k]``."""
    dims = [d for d, s in enumerate(shape) if s >= 2]
    if not dims:
        return None
    d = rng.choice(dims)
    n = shape[d]
    form = rng.below(4)
    out = list(shape)
    if form == 0:
        ss = rng.randint(1, n - 1)
        pieces = [min(ss, n - i) for i in range(0, n, ss)]
        k = rng.below(len(pieces))
        out[d] = pieces[k]
        return Op(f".split({ss}, {d})[{k}]", tuple(out), "split")
    if form == 1:
        c = rng.randint(2, min(n, 5))
        ss = -(-n // c)
        pieces = [min(ss, n - i) for i in range(0, n, ss)]
        k = rng.below(len(pieces))
        out[d] = pieces[k]
        return Op(f".chunk({c}, {d})[{k}]", tuple(out), "chunk")
    if form == 2:
        sections = rng.randint(2, min(n, 5))
        k = rng.below(sections)
        out[d] = n // sections + (1 if k < n % sections else 0)
        return Op(f".tensor_split({sections}, {d})[{k}]", tuple(out), "tensor_split")
    if len(shape) < 2:
        return None
    k = rng.below(n)
    return Op(f".unbind({d})[{k}]", shape[:d] + shape[d + 1 :], "unbind")


def reshape_call(rng: PuzzleRng, target: Shape, method: str = "view") -> Op:
    """``.view(6, -1)`` style call to ``target`` (one size sometimes written as -1)."""
    parts = [str(v) for v in target]
    if len(target) > 1 and rng.chance(35):
        parts[rng.below(len(target))] = "-1"
    return Op(f".{method}({', '.join(parts)})", target, method)


def regroupings(rng: PuzzleRng, shape: Shape) -> list[Shape]:
    """Other shapes with the same element count: merged neighbours, split dims, flattened, ...

    Deterministic in content; shuffled by ``rng``; never contains ``shape`` itself.
    """
    n = len(shape)
    numel = 1
    for s in shape:
        numel *= s
    found: list[Shape] = [(numel,)]
    for i in range(n - 1):  # merge a neighbouring pair
        found.append(shape[:i] + (shape[i] * shape[i + 1],) + shape[i + 2 :])
    for i, s in enumerate(shape):  # split one dim in two
        for f in range(2, s):
            if s % f == 0:
                found.append(shape[:i] + (f, s // f) + shape[i + 1 :])
    if n >= 3:
        found.append((shape[0], numel // shape[0]))
        found.append((numel // shape[-1], shape[-1]))
    for f in range(2, min(numel, 13)):
        if numel % f == 0:
            found.append((f, numel // f))
    found.append(shape[:1] + (1,) + shape[1:])
    squeezed = tuple(s for s in shape if s != 1)
    if squeezed and squeezed != shape:
        found.append(squeezed)
    unique: list[Shape] = []
    for cand in found:
        if cand != shape and cand not in unique and len(cand) <= 5:
            unique.append(cand)
    return rng.shuffled(unique)


REORDER = (transpose, permute, movedim)
