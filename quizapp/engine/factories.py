"""Constructors (torch.arange, zeros, ones, full, empty, rand, randn, empty_strided, tensor)."""

from __future__ import annotations

from collections.abc import Callable

from .dtypes import DEFAULT_FLOAT, canonicalize_dtype, infer_python_scalar_dtype
from .geometry import (
    compute_contiguous_strides,
    compute_storage_nbytes,
    compute_storage_nbytes_contiguous,
    validate_concrete_ints,
)
from .literals import parse_tensor_data
from .outcome import Outcome, make_outcome
from .ranges import arange_reader, compute_arange_length, infer_arange_dtype
from .reasons import torch_error
from .scalars import cast_unchecked, convert_for_full
from .tensor import DType, Storage
from .views import (
    make_tensor,
    replace_negative_strides,
    validate_numel,
    validate_sizes_nonnegative,
)

_FLOAT_KINDS = ("float32", "float64", "float16", "bfloat16")


def _allocate(size, dtype: DType, factory: str) -> tuple[tuple, tuple, int]:
    # at::empty: sizes non-negative, storage bytes fit int64, then contiguous strides.  The
    # kernels take IntArrayRef (asIntArrayRefSlow first); zeros checks its sizes before that.
    if factory != "zeros":
        validate_concrete_ints(size)
    size = tuple(size)
    validate_sizes_nonnegative(size, factory)
    nbytes = compute_storage_nbytes_contiguous(size, dtype.itemsize)
    return size, compute_contiguous_strides(size, check_overflow=True), nbytes


def _constant(size, dtype: DType, value, factory: str) -> Outcome:
    shape, stride, nbytes = _allocate(size, dtype, factory)
    element = cast_unchecked(value, dtype)
    result = make_tensor(shape, stride, Storage(nbytes, lambda pos: element), dtype)
    return make_outcome(result, "factory_filled", (factory, result, element))


def zeros(size, dtype=None) -> Outcome:
    """torch.zeros(size): contiguous, every element 0."""
    return _constant(size, canonicalize_dtype(dtype) or DEFAULT_FLOAT, 0, "zeros")


def ones(size, dtype=None) -> Outcome:
    """torch.ones(size): contiguous, every element 1."""
    return _constant(size, canonicalize_dtype(dtype) or DEFAULT_FLOAT, 1, "ones")


def full(size, fill_value, dtype=None) -> Outcome:
    """torch.full(size, fill_value): dtype from the value unless given; checked conversion."""
    dtype = canonicalize_dtype(dtype) or infer_python_scalar_dtype(fill_value)
    shape, stride, nbytes = _allocate(size, dtype, "full")
    numel = 1
    for s in shape:
        numel *= s
    if numel == 1 and dtype.name in ("float16", "bfloat16"):
        element = cast_unchecked(fill_value, dtype)  # scalar_fill path: no overflow check
    else:
        element = convert_for_full(fill_value, dtype)
    result = make_tensor(shape, stride, Storage(nbytes, lambda pos: element), dtype)
    return make_outcome(result, "factory_filled", ("full", result, element))


def _unknown(size, dtype, factory: str) -> Outcome:
    shape, stride, nbytes = _allocate(size, dtype, factory)
    result = make_tensor(shape, stride, Storage(nbytes), dtype)
    return make_outcome(result, "factory_unknown", (factory, result))


def empty(size, dtype=None) -> Outcome:
    """torch.empty(size): contiguous, contents unknown."""
    return _unknown(size, canonicalize_dtype(dtype) or DEFAULT_FLOAT, "empty")


def _random(size, dtype, factory: str, kernel: str) -> Outcome:
    dtype = canonicalize_dtype(dtype) or DEFAULT_FLOAT
    outcome = _unknown(size, dtype, factory)
    empty_result = outcome[0].numel == 0
    if dtype.name not in _FLOAT_KINDS and not (factory == "randn" and empty_result):
        raise torch_error(
            "NotImplementedError",
            f"\"{kernel}\" not implemented for '{dtype.scalar_type}'",
            "dtype_unsupported",
            factory,
            dtype.name,
        )
    return outcome


def rand(size, dtype=None) -> Outcome:
    """torch.rand(size): uniform random floats, unknown to the engine."""
    return _random(size, dtype, "rand", "check_uniform_bounds")


def randn(size, dtype=None) -> Outcome:
    """torch.randn(size): normal random floats, unknown to the engine."""
    return _random(size, dtype, "randn", "normal_kernel_cpu")


def empty_strided(size, stride, dtype=None) -> Outcome:
    """torch.empty_strided(size, stride): exactly that layout over a fresh storage."""
    dtype = canonicalize_dtype(dtype) or DEFAULT_FLOAT
    size, stride = tuple(size), tuple(stride)
    validate_concrete_ints(size + stride)  # the CPU kernel takes IntArrayRef
    validate_sizes_nonnegative(size, "empty_strided")  # checked before the stride count
    if len(size) != len(stride):
        raise torch_error(
            "RuntimeError",
            f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
            f"({len(stride)})",
            "empty_strided_length",
            size,
            stride,
        )
    nbytes = compute_storage_nbytes(size, stride, dtype.itemsize)
    fixed = replace_negative_strides(size, stride)  # set_sizes_and_strides, then numel
    validate_numel(size)
    result = make_tensor(size, fixed, Storage(nbytes), dtype)
    return make_outcome(result, "factory_unknown", ("empty_strided", result))


def arange(start=0, end=None, step=1, dtype=None) -> Outcome:
    """torch.arange(start, end, step): 1-D, values as the CPU kernel computes them."""
    if end is None:
        start, end = 0, start
    dtype = canonicalize_dtype(dtype) or infer_arange_dtype(start, end, step)
    length, accumulators = compute_arange_length(start, end, step, dtype)
    nbytes = compute_storage_nbytes_contiguous((length,), dtype.itemsize)
    storage = Storage(nbytes, arange_reader(dtype, length, accumulators))
    result = make_tensor((length,), (1,), storage, dtype)
    return make_outcome(result, "factory_arange", (result, start, end, step))


def tensor(data, dtype=None) -> Outcome:
    """torch.tensor(data): shape and dtype inferred from nested lists, elements converted."""
    shape, flat, dtype = parse_tensor_data(data, canonicalize_dtype(dtype))
    stride = compute_contiguous_strides(shape)
    result = make_tensor(
        shape, stride, Storage(len(flat) * dtype.itemsize, flat.__getitem__), dtype
    )
    return make_outcome(result, "factory_tensor", (result,))


CONSTRUCTORS: dict[str, Callable[..., Outcome]] = {
    "arange": arange,
    "empty": empty,
    "zeros": zeros,
    "ones": ones,
    "rand": rand,
    "randn": randn,
    "full": full,
    "empty_strided": empty_strided,
    "tensor": tensor,
}
