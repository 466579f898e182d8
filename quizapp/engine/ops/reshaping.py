"""Ops that regroup elements in order: view, reshape, flatten, unflatten, ravel, the *_as forms."""

from __future__ import annotations

from math import prod

from ..contiguity import is_contiguous
from ..geometry import (
    CONTIGUOUS_STRIDES_CACHE,
    INT64_MAX,
    canonicalize_dim,
    compute_storage_nbytes_contiguous,
    compute_stride,
    contiguous_strides_cached,
    format_sizes,
    infer_size,
    validate_concrete_ints,
    wrap_int64,
)
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor, TorchError
from ..views import check_new_sizes, make_tensor, make_view
from .copying import contiguous, copy_storage

_new_tuple = tuple.__new__
_CONTIGUOUS = CONTIGUOUS_STRIDES_CACHE

# torch 2.13's own message, quoted word for word (not our prose): the explorer shows what torch
# would raise, and the differential tests compare this text with torch's.
_VIEW_REFUSED = (
    "view size is not compatible with input tensor's size and stride (at least one dimension spans "
    "across two contiguous subspaces). Use .reshape(...) instead."
)


def _row_major_alias(t: Tensor, size: tuple, numel: int) -> tuple | None:
    # The hot path of view/reshape: a row-major input and a target of positive sizes with the
    # same element count always views with row-major strides (computeStride sees one chunk
    # with base stride 1).  Anything else returns None and takes the general path.
    if t[1] == _CONTIGUOUS.get(t[0]) and numel and (not size or min(size) > 0):
        if prod(size) == numel:
            return _CONTIGUOUS.get(size) or contiguous_strides_cached(size)
    return None


def view(t: Tensor, size) -> Outcome:
    """Tensor.view(*shape): same storage and offset, strides from computeStride or an error."""
    size = size if type(size) is tuple else tuple(size)
    shape = t[0]
    numel = prod(shape)
    if (numel and t[1] == _CONTIGUOUS.get(shape) and (not size or min(size) > 0)
            and prod(size) == numel):  # _row_major_alias, inlined: the hot path
        stride = _CONTIGUOUS.get(size) or contiguous_strides_cached(size)
        result = _new_tuple(Tensor, (size, stride, t[2], t[3], t[4], True, t[6] or t))
        return _new_tuple(Outcome, (result, "view", (t, size, stride)))
    shape, stride = _view_layout(t, size, numel)
    return make_outcome(make_view(t, shape, stride, t[2]), "view", (t, shape, stride))


def _view_layout(t: Tensor, size: tuple, numel: int) -> tuple[tuple, tuple]:
    # The CPU view kernel takes IntArrayRef (asIntArrayRefSlow first), then view_impl:
    # infer_size, computeStride, and alias_with_sizes_and_strides, whose set_sizes_and_strides
    # replaces negative strides (checked) and refreshes the numel (checked).
    validate_concrete_ints(size)
    shape = infer_size(size, numel)
    stride = compute_stride(t[0], t[1], shape)
    if stride is None:
        raise torch_error("RuntimeError", _VIEW_REFUSED, "view_refused", t[0], t[1], shape)
    if not numel or prod(shape) != numel:  # a product infer_size wrapped in int64
        stride = check_new_sizes(shape, stride)
    return shape, stride


def view_as(t: Tensor, other: Tensor) -> Outcome:
    """Tensor.view_as(other) = view(other.size())."""
    return view(t, other[0])


def _reshape_to(t: Tensor, size: tuple, alias_key: str, copy_key: str) -> Outcome:
    # at::native::reshape_symint: a contiguous input is handed to view_symint as asked (so the
    # view kernel's checks and messages apply); otherwise infer_size_dv, then _reshape_alias
    # when computeStride succeeds, else _unsafe_view(clone()).
    numel = prod(t[0])
    stride: tuple | None  # None: computeStride finds no view
    if is_contiguous(t[0], t[1]):
        shape, stride = _view_layout(t, size, numel)
        return make_outcome(make_view(t, shape, stride, t[2]), alias_key, (t, shape, stride))
    shape = infer_size(size, numel)
    stride = compute_stride(t[0], t[1], shape)
    if stride is not None:  # _reshape_alias's CPU kernel takes IntArrayRef
        validate_concrete_ints(stride)
        if prod(shape) != numel:  # a product infer_size wrapped in int64
            stride = check_new_sizes(shape, stride)
        return make_outcome(make_view(t, shape, stride, t[2]), alias_key, (t, shape, stride))
    # clone() allocates a contiguous copy in the *old* shape; _unsafe_view then runs
    # computeStride over it (in int64 arithmetic, which a wrapped product can fool) and
    # set_sizes_and_strides with its checks
    nbytes = compute_storage_nbytes_contiguous(t[0], t[4].itemsize)
    clone_stride = contiguous_strides_cached(t[0])
    new_stride = compute_stride(t[0], clone_stride, shape)
    if new_stride is None:
        raise torch_error("RuntimeError", _VIEW_REFUSED, "view_refused", t[0], t[1], shape)
    if prod(shape) != numel:
        new_stride = check_new_sizes(shape, new_stride)
    storage = copy_storage(t, clone_stride, nbytes)
    copy = make_tensor(shape, new_stride, storage, t[4])
    return make_outcome(copy, copy_key, (t, shape))


def reshape(t: Tensor, shape) -> Outcome:
    """Tensor.reshape(*shape): a view when the strides allow one, otherwise a contiguous copy."""
    shape = shape if type(shape) is tuple else tuple(shape)
    stride = _row_major_alias(t, shape, prod(t[0]))
    if stride is not None:
        result = _new_tuple(Tensor, (shape, stride, t[2], t[3], t[4], True, t[6] or t))
        return _new_tuple(Outcome, (result, "reshape_alias", (t, shape, stride)))
    return _reshape_to(t, shape, "reshape_alias", "reshape_copy")


def reshape_as(t: Tensor, other: Tensor) -> Outcome:
    """Tensor.reshape_as(other) = reshape(other.size())."""
    return reshape(t, other[0])


def ravel(t: Tensor) -> Outcome:
    """Tensor.ravel() = contiguous().view(-1): a view of self, or of a fresh contiguous copy."""
    made_contiguous = contiguous(t)
    source = made_contiguous[0]
    flat = view(source, (-1,))[0]
    return make_outcome(flat, "ravel", (t, flat, source is not t))


def flatten(t: Tensor, start_dim: int = 0, end_dim: int = -1) -> Outcome:
    """Tensor.flatten(start_dim, end_dim): reshape merging dims start..end (may copy)."""
    shape = t[0]
    ndim = len(shape)
    start = canonicalize_dim(start_dim, ndim)
    end = canonicalize_dim(end_dim, ndim)
    if start > end:
        raise torch_error(
            "RuntimeError",
            "flatten() has invalid args: start_dim cannot come after end_dim",
            "flatten_order",
            start_dim,
            end_dim,
            start,
            end,
        )
    if ndim == 0:
        return _reshape_to(t, (1,), "flatten_alias", "flatten_copy")
    if start == end:
        return make_outcome(t, "flatten_same", (t, start))  # TensorShape.cpp returns self
    flat = prod(shape[start : end + 1])
    if not -(2**63) <= flat <= INT64_MAX:  # c10::multiply_integers accumulates in int64: an
        flat = wrap_int64(flat)  # empty tensor's (4, 2**62) flattens to 0, as torch's does
    merged = shape[:start] + (flat,) + shape[end + 1 :]
    numel = prod(shape)
    stride = _row_major_alias(t, merged, numel)
    if stride is not None:  # what _reshape_to finds for a row-major input, without the detour
        result = _new_tuple(Tensor, (merged, stride, t[2], t[3], t[4], True, t[6] or t))
        return _new_tuple(Outcome, (result, "flatten_alias", (t, merged, stride)))
    return _reshape_to(t, merged, "flatten_alias", "flatten_copy")  # native::reshape_symint


def unflatten(t: Tensor, dim: int, sizes) -> Outcome:
    """Tensor.unflatten(dim, sizes): split one dim into several (always a view)."""
    shape = t[0]
    ndim = len(shape)
    sizes = tuple(sizes)
    if not sizes:
        raise torch_error("RuntimeError", "unflatten: sizes must be non-empty", "unflatten_empty")
    wrapped = canonicalize_dim(dim, ndim)
    if ndim == 0:  # shape[dim] raises inside unflatten's try block
        raise torch_error(
            "RuntimeError", "unflatten got an unexpected error:", "unflatten_scalar", dim
        )
    if min(sizes) > 0 and prod(sizes) == shape[wrapped]:  # infer_size would return sizes as is
        result = view(t, shape[:wrapped] + sizes + shape[wrapped + 1 :])[0]
        return _new_tuple(Outcome, (result, "unflatten", (t, result, wrapped, sizes)))
    try:
        inferred = infer_size(sizes, shape[wrapped])
    except TorchError as err:
        if "is invalid for input of size" not in err.message:
            raise torch_error(
                "RuntimeError",
                "unflatten got an unexpected error:",
                "unflatten_unexpected",
                err.message,
            ) from None
        raise torch_error(
            "RuntimeError",
            f"unflatten: Provided sizes {format_sizes(sizes)} don't multiply up to the size of "
            f"dim {wrapped} ({shape[wrapped]}) in the input tensor",
            "unflatten_mismatch",
            sizes,
            wrapped,
            shape[wrapped],
        ) from None
    result = view(t, shape[:wrapped] + inferred + shape[wrapped + 1 :])[0]
    return make_outcome(result, "unflatten", (t, result, wrapped, sizes))
