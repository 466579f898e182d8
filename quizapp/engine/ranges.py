"""torch.arange on CPU: its checks, its length and each element as the AVX2 kernel computes it."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from .dtypes import CPP_TYPE_NAMES, DEFAULT_FLOAT, DEFAULT_INT, DTYPES
from .reasons import torch_error
from .scalars import (
    cast_unchecked,
    convert_for_full,
    fraction_to_float32,
    fraction_to_float64,
    round_float32,
    wrap_int,
)
from .tensor import DType

INT64_MAX = 2**63 - 1
UINT64 = 2**64
GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE: longer ranges are split across threads
# Vectorized<T>::size() under AVX2: the kernel computes blocks of this many from one base value.
VECTOR_WIDTH = {"float32": 8, "float64": 4, "float16": 16, "bfloat16": 16}
# Integers up to 2**bits are exact in the dtype, so no rounding can happen anywhere below that.
MANTISSA_BITS = {"float32": 24, "float64": 53, "float16": 11, "bfloat16": 8}


def _wrap64(value: int) -> int:
    return ((value + 2**63) % UINT64) - 2**63


def _cpp_double(x: float) -> str:
    # std::ostream << double (precision 6), as TORCH_CHECK prints it
    return "nan" if math.isnan(x) else f"{x:g}"


def _to_int64(value, dtype: DType) -> int:
    # Scalar::to<int64_t>(): checked_convert, "int64_t" in the message whatever the target dtype
    return convert_for_full(value, DTYPES["int64"]) if not isinstance(value, bool) else int(value)


def compute_arange_length(start, end, step, dtype: DType) -> tuple[int, tuple]:
    """RangeFactories.cpp arange_out: validate, then the number of elements and accumulators."""
    if dtype.kind == "bool":
        raise torch_error(
            "NotImplementedError",
            f"\"arange_cpu\" not implemented for '{dtype.scalar_type}'",
            "dtype_unsupported",
            "arange",
            dtype.name,
        )
    dstart, dend, dstep = float(start), float(end), float(step)
    if not (dstep > 0 or dstep < 0):
        raise torch_error("RuntimeError", "step must be nonzero", "arange_step_zero", step)
    if not (math.isfinite(dstart) and math.isfinite(dend)):
        raise torch_error(
            "RuntimeError",
            f"unsupported range: {_cpp_double(dstart)} -> {_cpp_double(dend)}",
            "arange_not_finite",
            start,
            end,
        )
    if not ((dstep > 0 and dend >= dstart) or (dstep < 0 and dend <= dstart)):
        raise torch_error(
            "RuntimeError",
            "upper bound and lower bound inconsistent with step sign",
            "arange_sign",
            start,
            end,
            step,
        )
    if dtype.name == "int64":  # integer arithmetic, wrapping like int64_t
        xstart, xend, xstep = (_to_int64(v, dtype) for v in (start, end, step))
        if xstep == 0:
            raise torch_error("ValueError", "step must be nonzero", "arange_step_truncated", step)
        sign = 1 if xstep > 0 else -1
        numerator = _wrap64(_wrap64(_wrap64(xend - xstart) + xstep) - sign)
        quotient = abs(numerator) // abs(xstep) * (1 if (numerator >= 0) == (xstep > 0) else -1)
        size_d = float(quotient)
    else:
        try:
            size_d = math.ceil((dend - dstart) / dstep)
        except OverflowError:
            size_d = math.inf
    if not (0 <= size_d <= 2.0**63):
        raise torch_error(
            "RuntimeError", "invalid size, possible overflow?", "arange_size", start, end, step
        )
    length = int(size_d)
    if length > INT64_MAX:  # static_cast<int64_t>(2**63) lands on INT64_MIN
        raise torch_error(
            "RuntimeError",
            "IntArrayRef contains an int that cannot be represented as a SymInt: "
            "-9223372036854775808",
            "arange_size",
            start,
            end,
            step,
        )
    accumulators: tuple[int | float, ...]
    if dtype.kind == "int":
        accumulators = (_to_int64(start, dtype), _to_int64(step, dtype))
    elif dtype.name in ("float16", "bfloat16"):  # acc_type is float: checked Scalar::to<float>
        accumulators = tuple(_to_acc_float(v) for v in (start, step))
    else:
        accumulators = (float(start), float(step))
    return length, accumulators


def _to_acc_float(value) -> float:
    if isinstance(value, bool):
        value = int(value)
    return convert_for_full(value, DTYPES["float32"])


def infer_arange_dtype(start, end, step) -> DType:
    """torch.arange: int64 when every bound is an integer (bools count), else the default float."""
    if all(isinstance(v, int) for v in (start, end, step)):
        return DEFAULT_INT
    return DEFAULT_FLOAT


def _exact(acc_start, acc_step, length: int, mantissa_bits: int) -> bool:
    # Every path of the kernel gives the same result when the accumulation is exact.
    if acc_start != int(acc_start) or acc_step != int(acc_step):
        return False
    extreme = max(abs(acc_start), abs(acc_start + acc_step * max(length - 1, 0)))
    return extreme < 2**mantissa_bits


def arange_reader(dtype: DType, length: int, accumulators: tuple) -> Callable[[int], object] | None:
    """Element ``pos`` of arange as cpu_serial_kernel_vec computes it (None if thread-dependent).

    Positions below the last full pair of vectors come from Vectorized::arange(base, step) with
    ``base`` rounded to the dtype once per vector; the tail uses ``start + step * idx``.  The
    compiler fuses those multiply-adds (one rounding), except the per-element ``base + k * step``
    of the 16-bit types, which rounds the product first.  Measured against torch 2.13 on AVX2.
    """
    start, step = accumulators
    if dtype.kind == "int":
        return lambda pos: wrap_int(start + step * pos, dtype)
    half_like = dtype.name in ("float16", "bfloat16")
    if not (math.isfinite(start) and math.isfinite(step)) or _exact(
        start, step, length, MANTISSA_BITS[dtype.name]
    ):
        return lambda pos: cast_unchecked(start + step * pos, dtype)  # no rounding anywhere
    if length > GRAIN_SIZE:
        return None  # at::parallel_for splits by thread count: not knowable here
    width = VECTOR_WIDTH[dtype.name]
    vector_end = (length // (2 * width)) * (2 * width)
    exact_step = Fraction(step)
    to_acc = fraction_to_float32 if half_like else fraction_to_float64

    def fused(k: int, base: float) -> float:  # fma(step, k, base) in the accumulator type
        if not math.isfinite(base):  # a base already rounded to +-inf stays there
            return base + step * k
        exact = exact_step * k + Fraction(base)
        if exact == 0:  # IEEE: -0 only when both the product and the addend are -0
            return base + step * k
        return to_acc(exact)

    def element(base: float, k: int) -> float:
        if half_like:
            return round_float32(base + round_float32(k * step))
        return fused(k, base)

    def read(pos: int) -> object:
        if pos < vector_end:
            block = pos - pos % width
            base = cast_unchecked(fused(block, start), dtype)
            return cast_unchecked(element(base, pos - block), dtype)
        return cast_unchecked(fused(pos, start), dtype)

    return read


__all__ = ["CPP_TYPE_NAMES", "arange_reader", "compute_arange_length", "infer_arange_dtype"]
