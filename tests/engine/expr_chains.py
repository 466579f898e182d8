"""Random expression chains for the differential tests, steered by real torch to stay mostly valid.

A chain starts from a constructor with a random rank-0..5 layout (zero-size dims, size-1 dims with
odd strides from empty_strided, zero strides, known or unknown data) and adds 1-6 steps whose
arguments are drawn around the current shape: mostly valid, sometimes out of range or malformed,
so that torch's errors and the language's errors are compared too.  The generator runs each
step on real torch only to know the shape the next step sees.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from expr_args import Maker, Nested, TorchConst, fmt
from expr_ops import NEGATIVE_DIM_MAKERS, OP_MAKERS

DTYPES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
          "uint8", "bool", "long", "double", "half", "int", "short", "float")
MAY_COPY = {"reshape", "reshape_as", "ravel", "flatten", "contiguous", "clone", "to"}
LANGUAGE_ERRORS = (".view(2.5)", ".frobnicate()", ".T()", ".split(2)", "[0.5]", ".view(1, True)",
                   ".permute(dims=0)", ".clone(torch.channels_last)", "[[[0, 1]]]", ".t",
                   ".view(2 * 3)", ".reshape(-9223372036854775809)", ".__class__",
                   "[..., 0, ...]", ".to(torch.float64)", ".to(dtype=torch.int32)")


class ChainGenerator:
    """Builds chains as text while running the same steps on real torch."""

    def __init__(self, rng: random.Random, torch: Any) -> None:
        self.rng, self.torch = rng, torch

    def convert(self, value: object) -> object:
        if isinstance(value, TorchConst):
            return getattr(self.torch, value.name)
        if isinstance(value, Nested):
            return value.build(self.torch)
        if isinstance(value, tuple):
            return tuple(self.convert(v) for v in value)
        if isinstance(value, list):
            return [self.convert(v) for v in value]
        return value

    def call(self, name: str, args: tuple = (), kwargs: dict | None = None,
             pick: int | None = None) -> Maker:
        """A method step: its text and a function applying it to a torch tensor."""
        kwargs = kwargs or {}
        parts = [fmt(a) for a in args] + [f"{k}={fmt(v)}" for k, v in kwargs.items()]
        text = f".{name}({', '.join(parts)})" + ("" if pick is None else f"[{pick}]")

        def run(t: Any) -> Any:
            out = getattr(t, name)(*self.convert(args), **self.convert(kwargs))
            return out if pick is None else out[pick]

        return text, run

    def chain(self) -> str:
        """One random chain (text only); torch results steer the choices."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self._chain()

    def _chain(self) -> str:
        text, build = self.constructor()
        try:
            t = build(None)
        except Exception:  # noqa: BLE001 - a failing constructor ends the chain
            return text
        for _ in range(self.rng.choice((1, 2, 3, 3, 4, 4, 5, 6))):
            if self.rng.random() < 0.012:
                return text + self.rng.choice(LANGUAGE_ERRORS)
            makers = OP_MAKERS
            if min(t.shape, default=0) < 0 and self.rng.random() < 0.6:
                makers = NEGATIVE_DIM_MAKERS  # what cuts a dim meets its negative size
            op_text, run = self.rng.choice(makers)(self, t)
            text += op_text
            if t.numel() > 2**22 and op_text.split("(")[0].lstrip(".") in MAY_COPY:
                return text  # torch would really copy it (the language refuses it anyway)
            try:
                t = run(t)
            except Exception:  # noqa: BLE001 - the chain ends with the failing step
                return text
            if t.dim() > 25:
                return text
        return text

    # -- shapes and small choices ------------------------------------------------------------
    def shape(self, max_rank: int = 5, max_size: int = 4) -> tuple[int, ...]:
        rng = self.rng
        rank = min(max_rank, rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5)))
        sizes = [rng.choice((0, 1, 1, 2, 2, 3, 3, 4)) for _ in range(rank)]
        if rng.random() < 0.8:
            sizes = [s if s else rng.randint(1, max_size) for s in sizes]  # zero dims stay rarer
        return tuple(min(s, max_size) for s in sizes)

    def dim(self, ndim: int, slack: float = 0.06) -> int:
        """A dim index: usually valid (possibly negative), sometimes just out of range."""
        n = max(ndim, 1)
        if self.rng.random() < slack:
            return self.rng.choice((n, -n - 1, n + 2))
        return self.rng.randint(-n, n - 1)

    def dtype(self) -> TorchConst:
        return TorchConst(self.rng.choice(DTYPES))

    def sizes_call(self, name: str, sizes: tuple[int, ...], keyword: str) -> Maker:
        """A call taking a size list, in one of the forms torch accepts."""
        rng = self.rng
        form = rng.random()
        if form < 0.45 and sizes:
            return self.call(name, sizes)
        if form < 0.7:
            return self.call(name, (sizes,))
        if form < 0.85:
            return self.call(name, (list(sizes),))
        return self.call(name, (), {keyword: sizes})

    # -- constructors ------------------------------------------------------------------------
    def constructor(self) -> Maker:
        rng = self.rng
        kind = rng.random()
        if kind < 0.32:
            name, args = "arange", self.arange_args()
        elif kind < 0.52:
            name = rng.choice(("empty", "zeros", "ones", "rand", "randn", "zeros", "ones"))
            shape = self.shape() if rng.random() < 0.97 else (rng.randint(65, 80),) * 2
            if shape and rng.random() < 0.03:  # a size below -2**62 (or at -2**63)
                shape = shape[:-1] + (rng.choice((-(2**62) - 1, -(2**63), -(2**62))),)
            args = shape if shape and rng.random() < 0.6 else (shape,)
        elif kind < 0.62:
            name, args = "full", (self.shape(), self.scalar())
        elif kind < 0.85:
            name, args = "empty_strided", self.strided_layout()
        else:
            name, args = "tensor", (self.data(),)
        kwargs = {"dtype": self.dtype()} if rng.random() < 0.18 else {}
        text = f"torch{self.call(name, args, kwargs)[0]}"
        return text, lambda _: getattr(self.torch, name)(*args, **self.convert(kwargs))

    def arange_args(self) -> tuple:
        rng = self.rng
        form = rng.random()
        if form < 0.6:
            n = rng.choice((0, 1, 2, 6, 8, 12, 16, 24, 24, 36, 48, 60, 64, 120))
            return (float(n),) if rng.random() < 0.3 else (n,)
        if form < 0.85:
            start = rng.randint(-5, 5)
            step = rng.choice((1, 2, 3, -1, -2)) if rng.random() < 0.95 else 0
            end = start + step * rng.randint(-1, 12)
            return (start, end, step) if rng.random() < 0.7 else (start, end)
        start, step = round(rng.uniform(-3, 3), 2), rng.choice((0.5, 0.25, 0.3, 1.5, -0.5))
        return start, round(start + step * rng.uniform(0, 12), 2), step

    def scalar(self) -> int | float | bool:
        rng = self.rng
        kind = rng.random()
        if kind < 0.5:
            return rng.randint(-5, 300) if rng.random() < 0.1 else rng.randint(-5, 9)
        if kind < 0.85:
            return round(rng.uniform(-4, 4), rng.choice((0, 1, 2, 7)))
        return rng.random() < 0.5

    def strided_layout(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Sizes and strides: permuted dense, with gaps, odd size-1 strides or zero strides."""
        rng = self.rng
        shape = self.shape()
        order = list(range(len(shape)))
        rng.shuffle(order)
        stride, acc = [0] * len(shape), 1
        for d in reversed(order):
            stride[d] = acc
            acc *= max(shape[d], 1) + (1 if rng.random() < 0.2 else 0)
        for d, s in enumerate(shape):
            if s == 1 and rng.random() < 0.6:
                stride[d] = rng.choice((0, 1, 5, 7, 100))
            elif rng.random() < 0.08:
                stride[d] = 0
        return tuple(shape), tuple(stride)

    def data(self) -> object:
        rng = self.rng
        shape = self.shape(max_rank=3, max_size=3)
        kind = rng.choice(("int", "float", "bool", "mixed"))

        def leaf() -> object:
            k = kind if kind != "mixed" else rng.choice(("int", "float", "bool"))
            if k == "int":
                return rng.randint(-3, 9) if rng.random() < 0.95 else rng.choice((300, -200))
            return round(rng.uniform(-3, 3), 2) if k == "float" else rng.random() < 0.5

        def build(dims: tuple[int, ...]) -> object:
            return leaf() if not dims else [build(dims[1:]) for _ in range(dims[0])]

        return build(shape)
