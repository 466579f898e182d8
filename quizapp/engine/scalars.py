"""Python numbers to the element values torch stores per dtype (rounding, wrapping, overflow)."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from .dtypes import CPP_TYPE_NAMES, INT_BITS
from .reasons import torch_error
from .tensor import DType

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_FLOAT32_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]
# Largest finite values c10::overflows compares against (float64 never overflows from Python).
_FLOAT_LIMITS = {
    "float32": _FLOAT32_MAX,
    "float16": 65504.0,
    "bfloat16": struct.unpack("<f", b"\x00\x00\x7f\x7f")[0],
}


def round_float32(x: float) -> float:
    """C++ (float)double: round to nearest-even float32; too large becomes +-inf."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_float16(x: float) -> float:
    """c10::Half(float(x)): torch narrows a double to float first, then to half."""
    f = round_float32(x)
    try:
        return struct.unpack("<e", struct.pack("<e", f))[0]
    except OverflowError:
        return math.copysign(math.inf, f)


def round_bfloat16(x: float) -> float:
    """c10::BFloat16(float(x)): round_to_nearest_even on the top 16 bits of the float32."""
    f = round_float32(x)
    if math.isnan(f):
        return f
    bits = struct.unpack("<I", struct.pack("<f", f))[0]
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def fraction_to_float32(value: Fraction) -> float:
    """Round an exact rational to float32 once (nearest-even, subnormals, overflow to inf)."""
    if value == 0:
        return 0.0
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if magnitude < Fraction(2) ** exponent:
        exponent -= 1
    elif magnitude >= Fraction(2) ** (exponent + 1):
        exponent += 1
    quantum = Fraction(2) ** (max(exponent, -126) - 23)
    scaled = magnitude / quantum
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n & 1):
        n += 1
    result = float(n * quantum)
    if result > _FLOAT32_MAX:
        result = math.inf
    return -result if value < 0 else result


def fraction_to_float64(value: Fraction) -> float:
    """Round an exact rational to a double once; beyond the range it becomes +-inf."""
    try:
        return float(value)
    except OverflowError:
        return math.copysign(math.inf, value)


def int_to_float(n: int, mantissa_bits: int) -> float:
    """static_cast<float/double>(int64): one correctly rounded step (Python's float() rounds to
    double first, which would round twice for float32)."""
    magnitude = abs(n)
    shift = magnitude.bit_length() - mantissa_bits
    if shift > 0:
        q, r = divmod(magnitude, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        magnitude = q << shift
    return float(-magnitude if n < 0 else magnitude)


def wrap_int(n: int, dtype: DType) -> int:
    """static_cast to a narrower integer type: keep the low bits, two's complement."""
    bits, signed = INT_BITS[dtype.name]
    n &= (1 << bits) - 1
    if signed and n >= 1 << (bits - 1):
        n -= 1 << bits
    return n


def cast_unchecked(value, dtype: DType):
    """static_cast<T>(value) as kernels do it (arange's output, float->float narrowing)."""
    name = dtype.name
    if dtype.kind == "bool":
        return value != 0
    if dtype.kind == "int":
        if isinstance(value, float):
            value = int(value) if math.isfinite(value) else INT64_MIN
        return wrap_int(value, dtype)
    if isinstance(value, int):
        value = int_to_float(value, 24 if name != "float64" else 53)
    if name == "float32":
        return round_float32(value)
    if name == "float16":
        return round_float16(value)
    if name == "bfloat16":
        return round_bfloat16(value)
    return float(value)


def _int_overflows(value, dtype: DType) -> bool:
    # c10::overflows<To, From>: unsigned targets accept negatives that wrap (uint8: -255..255);
    # a float source must lie within [lowest, max] of the target and not be NaN.
    bits, signed = INT_BITS[dtype.name]
    high = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    low = -(1 << (bits - 1)) if signed else 0
    if isinstance(value, float):
        if math.isnan(value):
            return True
        return value < low or value > float(high)  # the limit is compared as a double
    if not signed:
        return value > high or value < -high
    return value < low or value > high


def _checked_int(value, dtype: DType, type_name: str) -> int:
    if _int_overflows(value, dtype):
        raise torch_error(
            "RuntimeError",
            f"value cannot be converted to type {type_name} without overflow",
            "value_overflow",
            value,
            dtype.name,
        )
    if isinstance(value, float):
        value = int(value) if value < 2**63 else INT64_MIN  # x86 cvttsd2si at exactly 2**63
    return wrap_int(value, dtype)


def convert_for_full(value, dtype: DType):
    """c10::Scalar::to<T>() (checked_convert) as torch.full fills: C++ type names in errors."""
    if isinstance(value, bool):
        value = int(value)
    if dtype.kind == "bool":
        return value != 0
    if dtype.kind == "int":
        return _checked_int(value, dtype, CPP_TYPE_NAMES[dtype.name])
    limit = _FLOAT_LIMITS.get(dtype.name)
    if limit is not None and not (isinstance(value, float) and not math.isfinite(value)):
        if abs(value) > limit:  # c10::overflows: finite values beyond the type's max
            raise torch_error(
                "RuntimeError",
                f"value cannot be converted to type {CPP_TYPE_NAMES[dtype.name]} without overflow",
                "value_overflow",
                value,
                dtype.name,
            )
    return cast_unchecked(value, dtype)


def convert_for_tensor(value, dtype: DType):
    """torch/csrc/utils/python_scalars.h store_scalar, as torch.tensor() stores each element."""
    if dtype.kind == "bool":
        return value != 0
    if isinstance(value, bool):
        value = int(value)
    if dtype.kind == "int":
        return _checked_int(value, dtype, dtype.name)
    return cast_unchecked(float(value), dtype)  # THPUtils_unpackDouble first, then narrow
