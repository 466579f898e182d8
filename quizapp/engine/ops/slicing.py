"""Views of a sub-range of one dim: slice, narrow, select."""

from __future__ import annotations

from ..geometry import canonicalize_dim, format_sizes, wrap_int64
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_view
from .strided import check_as_strided, checked_storage_offset

INT64_MAX = 2**63 - 1
_new_tuple = tuple.__new__


def slice_layout(
    t: Tensor,
    shape: tuple,
    stride: tuple,
    offset: int,
    dim: int,
    start: int | None,
    end: int | None,
    step: int = 1,
) -> tuple[tuple, tuple, int]:
    """aten::slice.Tensor (TensorShape.cpp) on a layout of ``t``'s storage: clamp start/end,
    scale the stride by step; returns the new (shape, stride, offset)."""
    if not shape:
        raise torch_error(
            "IndexError", "slice() cannot be applied to a 0-dim tensor.", "slice_scalar"
        )
    d = canonicalize_dim(dim, len(shape))
    if step <= 0:
        raise torch_error("RuntimeError", "slice step must be positive", "slice_step", step)
    n = shape[d]
    s = 0 if start is None else start
    e = INT64_MAX if end is None else end
    if s < 0:
        s += n
    if e < 0:
        e += n
    s = 0 if s < 0 else n if s >= n else s
    e = s if e < s else n if e >= n else e
    offset += s * stride[d]
    if step == 1:
        shape = shape[:d] + (e - s,) + shape[d + 1 :]
        if offset > INT64_MAX:  # int64 offset arithmetic wraps (empty tensors, huge strides)
            offset = checked_storage_offset(t, shape, stride, offset)
        return shape, stride, offset
    length = e - s + step - 1
    scaled = stride[d] * step
    if length > INT64_MAX or scaled > INT64_MAX:  # int64 arithmetic wraps in TensorShape.cpp
        length, scaled = wrap_int64(length), wrap_int64(scaled)
    length = length // step if length >= 0 else -(-length // step)  # C++ division truncates
    shape = shape[:d] + (length,) + shape[d + 1 :]
    stride = stride[:d] + (scaled,) + stride[d + 1 :]
    if offset > INT64_MAX:
        offset = wrap_int64(offset)
    if length < 0 or scaled < 0 or offset < 0:  # wrapped: slice ends in as_strided, which objects
        check_as_strided(t, shape, stride, offset)
    return shape, stride, offset


def slice_dim(t: Tensor, dim: int, start: int, end: int, step: int = 1) -> Tensor:
    """A view of ``t`` sliced along one dim (what narrow, split and tensor_split produce)."""
    shape = t[0]
    if step == 1 and 0 <= dim < len(shape) and 0 <= start <= end <= shape[dim]:
        # in-range bounds need no clamping: slice_layout's step-1 arithmetic, inlined
        stride = t[1]
        offset = t[2] + start * stride[dim]
        shape = shape[:dim] + (end - start,) + shape[dim + 1 :]
        if offset > INT64_MAX:
            offset = checked_storage_offset(t, shape, stride, offset)
        return make_view(t, shape, stride, offset)
    shape, stride, offset = slice_layout(t, t[0], t[1], t[2], dim, start, end, step)
    return make_view(t, shape, stride, offset)


def narrow(t: Tensor, dim: int, start: int, length: int) -> Outcome:
    """Tensor.narrow(dim, start, length) = slice(dim, start, start + length)."""
    shape = t[0]
    if not shape:
        raise torch_error(
            "RuntimeError", "narrow() cannot be applied to a 0-dim tensor.", "narrow_scalar"
        )
    if length < 0:
        raise torch_error(
            "RuntimeError", "narrow(): length must be non-negative.", "narrow_length", length
        )
    d = canonicalize_dim(dim, len(shape))
    cur = shape[d]
    if not -cur <= start <= cur:
        raise torch_error(
            "IndexError",
            f"start out of range (expected to be in range of [{-cur}, {cur}], but got {start})",
            "narrow_start",
            start,
            cur,
            d,
        )
    if start < 0:
        start += cur
    if start > cur - length:
        raise torch_error(
            "RuntimeError",
            f"start ({start}) + length ({length}) exceeds dimension size ({cur}).",
            "narrow_overflow",
            start,
            length,
            cur,
            d,
        )
    result = slice_dim(t, d, start, start + length)
    return make_outcome(result, "narrow", (t, result, d, start, length))


def select_layout(t: Tensor, dim: int, index: int) -> Tensor:
    # aten::select.int: drop the dim, move the offset by index * stride[dim].
    shape, stride = t[0], t[1]
    if not shape:
        raise torch_error(
            "IndexError", "select() cannot be applied to a 0-dim tensor.", "select_scalar"
        )
    d = canonicalize_dim(dim, len(shape))
    size = shape[d]
    if index < -size or index >= size:
        raise torch_error(
            "IndexError",
            f"select(): index {index} out of range for tensor of size {format_sizes(shape)} "
            f"at dimension {d}",
            "select_range",
            index,
            size,
            d,
        )
    if index < 0:
        index += size
    offset = t[2] + index * stride[d]
    shape, stride = shape[:d] + shape[d + 1 :], stride[:d] + stride[d + 1 :]
    if offset > INT64_MAX:  # int64 offset arithmetic wraps (empty tensors, huge strides)
        offset = checked_storage_offset(t, shape, stride, offset)
    return make_view(t, shape, stride, offset)


def select(t: Tensor, dim: int, index: int) -> Outcome:
    """Tensor.select(dim, index): remove the dim; offset += index * stride[dim]."""
    result = select_layout(t, dim, index)
    return make_outcome(result, "select", (t, result, dim, index))
