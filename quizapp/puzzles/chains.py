"""Chains of torch calls for puzzles: the shown code, the engine expression, random op makers.

The op makers track the *shape* only, to pick arguments that are valid for the current tensor;
every answer is read from the engine's trace of the finished chain, never from this tracking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizapp.puzzles.rng import PuzzleRng

Shape = tuple[int, ...]
_LINE = 72


def args_text(values: Sequence[int]) -> str:
    """``2, 3, 4``: integers as call arguments."""
    return ", ".join(map(str, values))


def tuple_text(values: Sequence[int]) -> str:
    """``(2, 3, 4)``, ``(5,)`` or ``()``: integers as a Python tuple."""
    if len(values) == 1:
        return f"({values[0]},)"
    return f"({args_text(values)})"


def end_shape(ops: Sequence[Op], base: Shape) -> Shape:
    """The shape after the last of ``ops`` as the op makers track it; ``base`` if there are none."""
    return ops[-1].shape if ops else base


@dataclass(frozen=True, slots=True)
class Op:
    """One call, attribute or index appended to a chain, and the shape it leaves."""

    text: str  # ".transpose(0, 1)", "[1:, ::2]", ".chunk(3, 1)[2]"
    shape: Shape
    kind: str


@dataclass(frozen=True, slots=True)
class Chain:
    """``x = ctor + x_ops`` then ``y = x + y_ops``; the engine sees one expression."""

    ctor: str
    x_ops: tuple[Op, ...] = ()
    y_ops: tuple[Op, ...] = ()

    @property
    def x_expr(self) -> str:
        return self.ctor + "".join(op.text for op in self.x_ops)

    @property
    def expr(self) -> str:
        return self.x_expr + "".join(op.text for op in self.y_ops)

    @property
    def x_step(self) -> int:
        """Index of x's step in the engine's trace (the constructor is step 0).

        A constructor written with a call chained on it (``torch.arange(6).view(2, 3)``) is
        two steps; the constructors built here contain ``").`` exactly once per chained call.
        """
        return self.ctor.count(").") + len(self.x_ops)

    def tracked_shape(self, base: Shape) -> Shape:
        """y's shape as tracked by the op makers (``base`` is the constructor's shape).

        Only for choosing arguments such as an index; answers come from the engine.
        """
        return end_shape(self.x_ops + self.y_ops, tuple(base))

    def code(self) -> str:
        lines = assignment_lines("x", self.ctor, [op.text for op in self.x_ops])
        if self.y_ops:
            lines += assignment_lines("y", "x", [op.text for op in self.y_ops])
        return "\n".join(lines)


def assignment_lines(name: str, start: str, ops: Sequence[str]) -> list[str]:
    """``name = start<ops>``, split over several assignments when the line would be long."""
    lines: list[str] = []
    current = f"{name} = {start}"
    for text in ops:
        if len(current) + len(text) > _LINE and current != f"{name} = {start}":
            lines.append(current)
            current = f"{name} = {name}"
        current += text
    lines.append(current)
    return lines


def ctor_text(name: str, shape: Sequence[int], dtype: str | None = None) -> str:
    """``torch.empty(2, 3)`` or ``torch.zeros(2, 3, dtype=torch.float64)``."""
    extra = f", dtype=torch.{dtype}" if dtype else ""
    if not shape:
        return f"torch.{name}(()){extra}"
    return f"torch.{name}({args_text(shape)}{extra})"


def arange_text(shape: Sequence[int], start: int = 0, step: int = 1) -> str:
    """``torch.arange(24).view(2, 3, 4)`` style data with known values."""
    n = 1
    for s in shape:
        n *= s
    if start == 0 and step == 1:
        head = f"torch.arange({n})"
    elif step == 1:
        head = f"torch.arange({start}, {start + n})"
    else:
        head = f"torch.arange({start}, {start + n * step}, {step})"
    return head if len(shape) == 1 else f"{head}.view({args_text(shape)})"


def random_shape(rng: PuzzleRng, rank: int, lo: int = 2, hi: int = 5) -> Shape:
    return tuple(rng.randint(lo, hi) for _ in range(rank))


def permutation(rng: PuzzleRng, n: int) -> tuple[int, ...]:
    """A random order of ``range(n)`` that is not the identity (for n >= 2)."""
    while True:
        p = tuple(rng.shuffled(range(n)))
        if n < 2 or p != tuple(range(n)):
            return p


def dim_text(rng: PuzzleRng, d: int, ndim: int, negative: bool) -> str:
    """A dim argument, sometimes written counting from the end when ``negative``."""
    return str(d - ndim) if negative and rng.chance(35) else str(d)


def slice_text(start: int, stop: int | None, step: int) -> str:
    text = f"{start or ''}:{'' if stop is None else stop}"
    return text + (f":{step}" if step != 1 else "")


def index_text(parts: Sequence[str]) -> str:
    """``[:, 1::2]`` from per-dim parts, dropping trailing full slices."""
    items = list(parts)
    while items and items[-1] == ":":
        items.pop()
    return f"[{', '.join(items)}]"


def grow(
    rng: PuzzleRng,
    shape: Shape,
    makers: Sequence[Callable[[PuzzleRng, Shape, bool], Op | None]],
    count: int,
    negative: bool = False,
) -> tuple[Op, ...]:
    """Up to ``count`` random ops, each drawn from ``makers`` and valid for the running shape."""
    ops: list[Op] = []
    for _ in range(count):
        for _attempt in range(12):
            op = rng.choice(makers)(rng, shape, negative)
            if op is not None:
                ops.append(op)
                shape = op.shape
                break
    return tuple(ops)
