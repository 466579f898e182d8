"""Differential-test support for the op layer: random layouts built in both torch and the engine.

``Case`` keeps every (engine Tensor, torch tensor) pair of one generated case, so that `_base`
identity and storage sharing can be compared too; ``compare_results`` checks every field.
"""

from __future__ import annotations

import math

import torch

from quizapp.engine.contiguity import (
    is_channels_last_3d_contiguous,
    is_channels_last_contiguous,
    is_contiguous,
    is_non_overlapping_and_dense,
)
from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.tensor import Tensor, TorchError
from quizapp.engine.torch_explain import torch_message
from quizapp.engine.values import values_of

TORCH_DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
    "int32": torch.int32,
    "int16": torch.int16,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "bool": torch.bool,
}

SIZE_CHOICES = (0, 1, 1, 1, 2, 2, 3, 3, 4, 5)


class Case:
    """The tensors of one generated case: engine id -> (engine tensor, torch tensor)."""

    def __init__(self, rng) -> None:
        self.rng = rng
        self.pairs: dict[int, tuple[Tensor, torch.Tensor]] = {}

    def add(self, engine: Tensor, theirs: torch.Tensor) -> tuple[Tensor, torch.Tensor]:
        self.pairs[id(engine)] = (engine, theirs)
        return engine, theirs

    def torch_of(self, engine: Tensor) -> torch.Tensor | None:
        pair = self.pairs.get(id(engine))
        return None if pair is None else pair[1]

    # ----- random layouts ---------------------------------------------------------------
    def random_shape(self, max_rank: int = 5) -> tuple:
        rank = self.rng.randint(0, max_rank)
        return tuple(self.rng.choice(SIZE_CHOICES) for _ in range(rank))

    def base(self, dtype: str | None = None) -> tuple[Tensor, torch.Tensor]:
        """A fresh factory tensor, values known unless it comes from empty_strided."""
        rng = self.rng
        dtype = dtype or rng.choice(
            (
                "float32",
                "float32",
                "int64",
                "float16",
                "bfloat16",
                "int32",
                "uint8",
                "bool",
                "float64",
                "int8",
            )
        )
        shape = self.random_shape()
        kind = rng.choice(("arange", "arange", "tensor", "full", "strided"))
        tdt = TORCH_DTYPES[dtype]
        numel = math.prod(shape)
        if kind == "arange" and dtype != "bool":
            flat_e = CONSTRUCTORS["arange"](start=0, end=numel, step=1, dtype=dtype).value
            flat_t = torch.arange(0, numel, 1, dtype=tdt)
            self.add(flat_e, flat_t)
            return self.add(OPS["view"](flat_e, size=shape).value, flat_t.view(shape))
        if kind == "tensor":
            data = self._nested(shape, dtype)
            return self.add(
                CONSTRUCTORS["tensor"](data=data, dtype=dtype).value, torch.tensor(data, dtype=tdt)
            )
        if kind == "full":
            value = rng.choice((0, 1, -3, 2.5, True))
            return self.add(
                CONSTRUCTORS["full"](size=shape, fill_value=value, dtype=dtype).value,
                torch.full(shape, value, dtype=tdt),
            )
        stride = self.random_strides(shape)
        return self.add(
            CONSTRUCTORS["empty_strided"](size=shape, stride=stride, dtype=dtype).value,
            torch.empty_strided(shape, stride, dtype=tdt),
        )

    def _nested(self, shape: tuple, dtype: str):
        rng = self.rng
        if not shape:
            if dtype == "bool":
                return rng.random() < 0.5
            if dtype in ("float32", "float64", "float16", "bfloat16"):
                return rng.choice((rng.randint(-50, 50), round(rng.uniform(-100, 100), 3)))
            return rng.randint(-100, 100) if dtype != "uint8" else rng.randint(0, 255)
        return [self._nested(shape[1:], dtype) for _ in range(shape[0])]

    def random_strides(self, shape: tuple) -> tuple:
        """Contiguous, permuted-dense, overlapping or gappy strides; odd strides on size-1 dims."""
        rng = self.rng
        mode = rng.random()
        if mode < 0.35:
            order = list(range(len(shape)))
            rng.shuffle(order)
            stride = [0] * len(shape)
            acc = 1
            for d in reversed(order):
                stride[d] = acc
                acc *= max(shape[d], 1)
        else:
            stride = [rng.choice((0, 1, 1, 2, 3, 4, 6, 8, 12)) for _ in shape]
        return tuple(
            rng.choice((stride[d], 7, 100)) if shape[d] == 1 else stride[d]
            for d in range(len(shape))
        )

    def layout(self) -> tuple[Tensor, torch.Tensor]:
        """A base tensor possibly reshaped by as_strided / permute / slicing / expand first."""
        rng = self.rng
        e, t = self.base()
        for _ in range(rng.choice((0, 1, 1, 2))):
            step = rng.random()
            try:
                if step < 0.3 and e.storage.nbytes:
                    shape = self.random_shape(4)
                    stride = self.random_strides(shape)
                    limit = e.storage.nbytes // e.dtype.itemsize
                    span = sum((s - 1) * st for s, st in zip(shape, stride, strict=True) if s)
                    if 0 in shape or span < limit:
                        off = rng.randint(0, max(limit - span - 1, 0))
                        e, t = self.add(
                            OPS["as_strided"](
                                e, size=shape, stride=stride, storage_offset=off
                            ).value,
                            t.as_strided(shape, stride, off),
                        )
                elif step < 0.5 and e.ndim:
                    dims = list(range(e.ndim))
                    rng.shuffle(dims)
                    e, t = self.add(OPS["permute"](e, dims=tuple(dims)).value, t.permute(dims))
                elif step < 0.75 and e.ndim:
                    d = rng.randrange(e.ndim)
                    start, stop = rng.randint(0, 3), rng.choice((None, 1, 2, 4, 6))
                    index = (slice(None),) * d + (slice(start, stop, rng.choice((1, 1, 2, 3))),)
                    e, t = self.add(OPS["__getitem__"](e, index=index).value, t[index])
                elif step < 0.9:
                    target = tuple(s if s != 1 else rng.choice((1, 2, 3)) for s in e.shape)
                    target = (rng.choice((2, 1)),) * rng.randint(0, 1) + target
                    e, t = self.add(OPS["expand"](e, size=target).value, t.expand(target))
                else:
                    e, t = self.add(OPS["detach"](e).value, t.detach())
            except TorchError:
                pass  # an invalid transform leaves the layout as it was
        return e, t


def torch_call(case: Case, theirs: torch.Tensor, name: str, kwargs: dict):
    """Call torch the way the expression layer would, translating engine-side arguments."""
    kw = {}
    for key, value in kwargs.items():
        if isinstance(value, Tensor):
            value = case.torch_of(value)
        elif key == "memory_format" and value is not None:
            value = getattr(torch, value)
        kw[key] = value
    if name == "__getitem__":
        return theirs[kw["index"]]
    if name in ("T", "mT"):
        return getattr(theirs, name)
    if name == "squeeze" and kw.get("dim", 0) is None:
        return theirs.squeeze()
    if name == "tensor_split":
        return theirs.tensor_split(kw["indices_or_sections"], kw.get("dim", 0))
    return getattr(theirs, name)(**kw)


def run_both(case: Case, engine: Tensor, theirs: torch.Tensor, name: str, kwargs: dict):
    """(engine outcome or TorchError, torch result or exception)."""
    try:
        mine = OPS[name](engine, **kwargs)
    except TorchError as err:
        mine = err
    try:
        ref = torch_call(case, theirs, name, kwargs)
    except Exception as err:  # noqa: BLE001 - any torch exception is part of the comparison
        ref = err
    return mine, ref


# ----- comparison ---------------------------------------------------------------------------
def first_line(err: Exception) -> str:
    """torch's first message line, its build's C++ source location left out (as explain does)."""
    return torch_message(err)


def storage_key(t: torch.Tensor) -> int:
    return t.untyped_storage()._cdata


def compare_tensor(
    case: Case, e_in, t_in, e: Tensor, t: torch.Tensor, where: str, values: bool = True
) -> None:
    """Every observable field of one result tensor, engine vs torch."""
    assert isinstance(e, Tensor), f"{where}: engine gave {type(e).__name__}"
    got = (e.shape, e.stride, e.storage_offset, e.dtype.name)
    want = (tuple(t.shape), t.stride(), t.storage_offset(), str(t.dtype).removeprefix("torch."))
    assert got == want, f"{where}: layout {got} != torch {want}"
    assert e.is_view == t._is_view(), f"{where}: is_view {e.is_view} != {t._is_view()}"
    if e.base is None:
        assert t._base is None, f"{where}: engine base None, torch has one"
    else:
        mirrored = case.torch_of(e.base)
        if mirrored is not None:
            assert t._base is mirrored, f"{where}: _base is not the mirrored root"
        else:
            assert t._base is not None and tuple(t._base.shape) == e.base.shape
            assert t._base.stride() == e.base.stride
    if e_in is not None:
        assert (e is e_in) == (t is t_in), f"{where}: same-object {e is e_in} != {t is t_in}"
        shares = e.storage is e_in.storage
        assert shares == (storage_key(t) == storage_key(t_in)), f"{where}: storage sharing {shares}"
    assert e.storage.nbytes == t.untyped_storage().nbytes(), f"{where}: storage nbytes"
    flags = (
        is_contiguous(e.shape, e.stride),
        is_channels_last_contiguous(e.shape, e.stride),
        is_channels_last_3d_contiguous(e.shape, e.stride),
        is_non_overlapping_and_dense(e.shape, e.stride),
    )
    want_flags = (
        t.is_contiguous(),
        t.is_contiguous(memory_format=torch.channels_last),
        t.is_contiguous(memory_format=torch.channels_last_3d),
        torch.ops.aten.is_non_overlapping_and_dense(t),
    )
    assert flags == want_flags, f"{where}: contiguity flags {flags} != {want_flags}"
    mine = values_of(e) if values else None
    if mine is not None:
        assert repr(mine) == repr(t.tolist()), f"{where}: values {mine} != {t.tolist()}"
    case.add(e, t)


def compare_results(case: Case, e_in, t_in, mine, ref, where: str, values: bool = True) -> str:
    """Compare an op's outcome with torch's result; returns "error" or "ok" for statistics."""
    if isinstance(ref, Exception):
        assert isinstance(mine, TorchError), (
            f"{where}: torch raised {type(ref).__name__}({first_line(ref)!r}), engine returned "
            f"{getattr(mine, 'value', mine)!r}"
        )
        got, want = (mine.type_name, mine.message), (type(ref).__name__, first_line(ref))
        assert got == want, f"{where}: engine {got} != torch {want}"
        assert mine.why, f"{where}: error without why"
        return "error"
    assert not isinstance(mine, TorchError), (
        f"{where}: engine raised {mine.type_name}({mine.message!r}); torch gave {ref!r}"
    )
    assert isinstance(mine.why, str) and len(mine.why) > 20, f"{where}: weak why {mine.why!r}"
    value = mine.value
    if isinstance(ref, torch.Tensor):
        compare_tensor(case, e_in, t_in, value, ref, where, values)
        fresh = e_in is None or storage_key(ref) != storage_key(t_in)
        assert mine.allocated == fresh, f"{where}: allocated {mine.allocated} != {fresh}"
    else:
        assert not isinstance(value, Tensor), f"{where}: engine gave one tensor, torch several"
        assert len(value) == len(ref), f"{where}: {len(value)} pieces != {len(ref)}"
        for k, (e, t) in enumerate(zip(value, ref, strict=True)):
            compare_tensor(case, e_in, t_in, e, t, f"{where}[{k}]", values)
    return "ok"


def check_op(case: Case, name: str, kwargs: dict, pair=None) -> str:
    """Run ``name`` on a random (or given) layout in both worlds and compare everything."""
    e_in, t_in = pair or case.layout()
    mine, ref = run_both(case, e_in, t_in, name, kwargs if not callable(kwargs) else kwargs(e_in))
    where = f"{name}({kwargs}) on {e_in!r}"
    return compare_results(case, e_in, t_in, mine, ref, where)
