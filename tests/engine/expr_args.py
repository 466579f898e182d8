"""Shared pieces of the differential chain generator: literals, text and target shapes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Maker = tuple[str, Callable[[Any], Any]]
FORMATS = ("contiguous_format", "channels_last", "channels_last_3d", "preserve_format")
BIG = (2**31, 2**40, 2**62, 2**63 - 1)
# Values at and around the edges of torch's integer types: SymInt holds -2**62 and above as a
# plain integer (below it an int-list argument is refused by IntArrayRef kernels), int64 ends at
# -2**63 and 2**63 - 1 (2**63 itself leaves the language).
HOSTILE = (2**62 - 1, 2**62, 2**62 + 1, 2**63 - 2, 2**63 - 1, 2**63, -(2**62) + 1, -(2**62),
           -(2**62) - 1, -(2**62) - 2, -(2**63) + 1, -(2**63))
# (size, k): size * k wraps to a small int64 product, so infer_size accepts the shape and
# computeStride sees a wrapped view_numel (k * size == k or 2k modulo 2**64, and so on).
WRAPPING = ((2**62 + 1, 4), (2**61 + 1, 8), (2**63 + 1, 2), (3 * 2**62 + 1, 4), (2**60 + 1, 16))


def hostile(gen: Any) -> int:
    """One value at or next to +-2**62 or +-2**63."""
    return gen.rng.choice(HOSTILE)


def wrapping_shape(gen: Any, t: Any) -> tuple[int, ...]:
    """A shape with -1 whose int64 product wraps: infer_size lets it through."""
    rng = gen.rng
    size, k = rng.choice(WRAPPING)
    sizes = [size % 2**63 if size >= 2**63 else size, k] + [-1] * (rng.random() < 0.8)
    sizes += [rng.choice((1, 2)) for _ in range(rng.choice((0, 0, 1, 2)))]
    rng.shuffle(sizes)
    return tuple(sizes)


class TorchConst:
    """``torch.<name>`` in text; the torch object when run."""

    def __init__(self, name: str) -> None:
        self.name = name


class Nested:
    """A tensor argument: its expression text and a builder of the same tensor in torch."""

    def __init__(self, text: str, build: Callable[[Any], Any]) -> None:
        self.text, self.build = text, build


def fmt(value: object) -> str:
    """Source text of a literal argument value."""
    if isinstance(value, TorchConst):
        return f"torch.{value.name}"
    if isinstance(value, Nested):
        return value.text
    if isinstance(value, slice):
        parts = ["" if p is None else str(p) for p in (value.start, value.stop, value.step)]
        return ":".join(parts) if value.step is not None else ":".join(parts[:2])
    if value is Ellipsis:
        return "..."
    if isinstance(value, tuple):
        inner = ", ".join(fmt(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    return repr(value)


def factor(gen: Any, n: int, parts: int) -> list[int]:
    """``parts`` sizes multiplying to n > 0, factors scattered at random."""
    sizes, p = [1] * parts, 2
    while n > 1 and p * p <= n and p < 1000:  # small factors only: n may be near 2**63
        while n % p == 0:
            sizes[gen.rng.randrange(parts)] *= p
            n //= p
        p += 1
    if n > 1:
        sizes[gen.rng.randrange(parts)] *= n
    return sizes


def target_shape(gen: Any, t: Any) -> tuple[int, ...]:
    """A shape to view/reshape into: usually the same numel, sometimes -1, sometimes wrong."""
    rng, n = gen.rng, t.numel()
    roll = rng.random()
    if roll < 0.06:
        return tuple(rng.randint(-2, 5) for _ in range(rng.randint(0, 3)))
    if roll < 0.08:
        return (rng.choice(BIG), 4)
    if roll < 0.12:
        return wrapping_shape(gen, t)
    if roll < 0.14:
        sizes = [rng.randint(-1, 4) for _ in range(rng.randint(1, 3))]
        sizes[rng.randrange(len(sizes))] = hostile(gen)
        return tuple(sizes)
    if n == 0:
        sizes = list(t.shape)
        rng.shuffle(sizes)
        if rng.random() < 0.3:
            sizes.append(rng.choice((-1, 0, 3)))
        return tuple(sizes)
    sizes = factor(gen, n, rng.randint(0 if n == 1 else 1, 5))
    if sizes and rng.random() < 0.25:
        sizes[rng.randrange(len(sizes))] = -1
    if rng.random() < 0.1:
        sizes.insert(rng.randint(0, len(sizes)), -1)  # a second -1 now and then
    return tuple(sizes)


def nested(gen: Any, shape: tuple[int, ...]) -> Any:
    """A tensor argument with ``shape``: torch.empty(...), now and then through .t()."""
    if len(shape) == 2 and gen.rng.random() < 0.4:
        flipped = (shape[1], shape[0])
        return Nested(f"torch.empty{_args(flipped)}.t()", lambda torch: torch.empty(flipped).t())
    return Nested(f"torch.empty({shape!r})", lambda torch: torch.empty(shape))


def _args(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")" if shape else "(())"


def expand_target(gen: Any, t: Any) -> tuple[int, ...]:
    rng = gen.rng
    sizes = [rng.choice((1, 0, 2, 3, -1)) if s == 1 else (-1 if rng.random() < 0.2 else s)
             for s in t.shape]
    lead = [rng.choice((1, 2, 3)) for _ in range(rng.choice((0, 0, 1, 2)))]
    sizes = lead + sizes
    roll = rng.random()
    if 0 in t.shape and roll < 0.3:  # a negative size, let through by the 0 (expand's quirk)
        sizes = [rng.choice((-2, -3, -1, 0, 2)) if s == 1 else s for s in t.shape]
        if 1 not in t.shape or rng.random() < 0.3:
            lead = [rng.choice((-2, -3))] + lead  # a new leading dim of negative size
        return tuple(lead + sizes)
    if roll < 0.05 and sizes:
        sizes[rng.randrange(len(sizes))] = rng.choice((-1, -2, 5))
    elif roll < 0.065:
        sizes = sizes + [hostile(gen)] if rng.random() < 0.5 else [hostile(gen)] + sizes
    elif roll < 0.08:
        sizes = [rng.choice(BIG)] + sizes
    elif roll < 0.11 and sizes:
        sizes = sizes[1:]
    return tuple(sizes)
