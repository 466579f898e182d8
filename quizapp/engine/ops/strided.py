"""Views with computed strides: diagonal, unfold (sliding windows) and raw as_strided."""

from __future__ import annotations

from math import prod

from ..geometry import (
    INT64_MAX,
    SYMINT_MIN,
    canonicalize_dim,
    compute_storage_nbytes,
    format_sizes,
    validate_concrete_ints,
    wrap_int64,
)
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_view, validate_numel

_new_tuple = tuple.__new__


def diagonal(t: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Outcome:
    """Tensor.diagonal(offset, dim1, dim2): drop both dims, append one with stride T[d1]+T[d2]."""
    shape, stride = t[0], t[1]
    ndim = len(shape)
    d1 = dim1 if 0 <= dim1 < ndim else canonicalize_dim(dim1, ndim)
    d2 = dim2 if 0 <= dim2 < ndim else canonicalize_dim(dim2, ndim)
    if d1 == 0 and d2 == 1 and offset == 0:  # the default diagonal: dims 0 and 1, no shift
        new_shape = shape[2:] + (max(min(shape[0], shape[1]), 0),)
        new_stride = stride[2:] + (stride[0] + stride[1],)
        if new_stride[-1] <= INT64_MAX and t[2] <= INT64_MAX:
            result = make_view(t, new_shape, new_stride, t[2])
            return _new_tuple(Outcome, (result, "diagonal", (t, result, offset, d1, d2)))
    if d1 == d2:
        raise torch_error(
            "RuntimeError",
            f"diagonal dimensions cannot be identical {dim1}, {dim2}",
            "diagonal_same",
            dim1,
            dim2,
            d1,
        )
    if offset >= 0:
        length = max(min(shape[d1], shape[d2] - offset), 0)
        shift = offset * stride[d2]
    else:
        length = max(min(shape[d1] + offset, shape[d2]), 0)
        shift = -offset * stride[d1]
    storage_offset = t[2] + shift if length > 0 else t[2]  # eager leaves it alone when empty
    keep = [d for d in range(ndim) if d != d1 and d != d2]
    new_shape = tuple([shape[d] for d in keep]) + (length,)
    new_stride = tuple([stride[d] for d in keep]) + (stride[d1] + stride[d2],)
    if storage_offset > INT64_MAX or new_stride[-1] > INT64_MAX:  # int64 wraps, as_strided checks
        new_stride = new_stride[:-1] + (wrap_int64(new_stride[-1]),)
        storage_offset = wrap_int64(storage_offset)
        check_as_strided(t, new_shape, new_stride, storage_offset)
    result = make_view(t, new_shape, new_stride, storage_offset)
    return make_outcome(result, "diagonal", (t, result, offset, d1, d2))


def unfold(t: Tensor, dimension: int, size: int, step: int) -> Outcome:
    """Tensor.unfold(dimension, size, step): windows of `size` every `step` along one dim."""
    shape, stride = t[0], t[1]
    ndim = len(shape)
    d = canonicalize_dim(dimension, ndim)
    max_size = 1 if ndim == 0 else shape[d]
    if size > max_size:
        raise torch_error(
            "RuntimeError",
            f"maximum size for tensor at dimension {d} is {max_size} but size is {size}",
            "unfold_size",
            d,
            max_size,
            size,
        )
    if size < 0:
        raise torch_error(
            "RuntimeError", f"size is {size} but must be >= 0", "unfold_negative", size
        )
    if step <= 0:
        raise torch_error("RuntimeError", f"step is {step} but must be > 0", "unfold_step", step)
    if ndim == 0:
        result = make_view(t, (size,), (1,), t[2])
        return make_outcome(result, "unfold", (t, result, d, size, step))
    windows = (shape[d] - size) // step + 1
    scaled = stride[d] * step
    if scaled > INT64_MAX or windows > INT64_MAX:  # int64 wraps (windows: size 0, step 1 on a
        scaled, windows = wrap_int64(scaled), wrap_int64(windows)  # dim of 2**63-1); as_strided
        new_shape = shape[:d] + (windows,) + shape[d + 1 :] + (size,)  # then objects
        new_stride = stride[:d] + (scaled,) + stride[d + 1 :] + (stride[d],)
        check_as_strided(t, new_shape, new_stride, t[2])
    new_shape = shape[:d] + (windows,) + shape[d + 1 :] + (size,)
    if windows * size > shape[d]:  # overlapping windows add elements: unfold ends in as_strided,
        validate_numel(new_shape)  # whose set_sizes_and_strides runs safe_compute_numel
    new_stride = stride[:d] + (scaled,) + stride[d + 1 :] + (stride[d],)
    result = make_view(t, new_shape, new_stride, t[2])
    return make_outcome(result, "unfold", (t, result, d, size, step))




def checked_storage_offset(t: Tensor, shape: tuple, stride: tuple, offset: int) -> int:
    """select/slice/diagonal compute ``offset + k * stride`` in int64 and end in as_strided:
    the wrapped offset is kept if >= 0, else setStrided says "Tensor: invalid storage offset".
    Only empty tensors with huge strides get here (a non-empty view stays inside its storage)."""
    offset = wrap_int64(offset)
    if offset < 0:
        check_as_strided(t, shape, stride, offset)
    return offset


def check_symint_strides(t: Tensor, shape: tuple, stride: tuple, offset: int) -> tuple:
    """Strides an op computed as SymInts (wrapping int64 products) before as_strided_symint:
    below SYMINT_MIN the CPU kernel refuses them, otherwise as_strided's checks apply."""
    stride = tuple([wrap_int64(st) for st in stride])
    validate_concrete_ints(stride)  # the CPU as_strided kernel takes IntArrayRef
    check_as_strided(t, shape, stride, offset)
    return stride


def check_as_strided(t: Tensor, size: tuple, stride: tuple, offset: int) -> None:
    """at::as_strided's checks, in torch's order (TensorShape.cpp, Resize.h)."""
    for value in size + stride:  # IntArrayRef -> SymIntArrayRef at the dispatcher
        if value < SYMINT_MIN:
            raise torch_error(
                "RuntimeError",
                f"IntArrayRef contains an int that cannot be represented as a SymInt: {value}",
                "symint_range",
                value,
            )
    if len(size) != len(stride):
        raise torch_error(
            "RuntimeError",
            "mismatch in length of strides and shape",
            "as_strided_length",
            size,
            stride,
        )
    for st in stride:
        if st < 0:
            raise torch_error(
                "RuntimeError",
                "as_strided: Negative strides are not supported at the moment, got strides: "
                f"{format_sizes(stride)}",
                "as_strided_negative_stride",
                stride,
            )
    if offset < 0:
        raise torch_error(
            "RuntimeError", f"Tensor: invalid storage offset {offset}", "as_strided_offset", offset
        )
    # Resize.h checkInBoundsForStorage: only elements actually addressed count (0 if empty).
    # torch 2.13 runs computeStorageNbytes(size, stride, itemsize, storage_offset), i.e. the
    # offset joins the checked unsigned sum, so a huge offset fails with "Storage size calculation
    # overflowed" instead of wrapping past the bounds test (that check without the offset can
    # only overflow when this one does, with the same message).
    itemsize = t[4].itemsize
    total = compute_storage_nbytes(size, stride, itemsize, offset)
    if total:
        available = t[3].nbytes
        if total > available:
            raise torch_error(
                "RuntimeError",
                f"setStorage: sizes {format_sizes(size)}, strides {format_sizes(stride)}, storage "
                f"offset {offset}, and itemsize {itemsize} requiring a storage size of {total} "
                f"are out of bounds for storage of size {available}",
                "as_strided_bounds",
                size,
                stride,
                offset,
                itemsize,
                total,
                available,
            )
    validate_numel(size)


def as_strided(t: Tensor, size, stride, storage_offset: int | None = None) -> Outcome:
    """Tensor.as_strided(size, stride, storage_offset): exactly that metadata over t's storage."""
    size, stride = tuple(size), tuple(stride)
    validate_concrete_ints(size + stride)  # the CPU kernel takes IntArrayRef, checked first
    offset = t[2] if storage_offset is None else storage_offset  # default: the input's offset
    if (
        size
        and len(size) == len(stride)
        and offset >= 0
        and min(size) > 0
        and min(stride) >= 0
        and 0 < compute_storage_nbytes(size, stride, t[4].itemsize, offset) <= t[3].nbytes
        and prod(size) <= INT64_MAX
    ):  # every check of check_as_strided passes: none of them can raise for this input
        result = make_view(t, size, stride, offset)
        return _new_tuple(Outcome, (result, "as_strided", (t, result)))
    check_as_strided(t, size, stride, offset)
    result = make_view(t, size, stride, offset)
    return make_outcome(result, "as_strided", (t, result))
