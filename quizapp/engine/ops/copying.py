"""Ops that may allocate (contiguous, clone), detach, and the lazy reader behind every copy."""

from __future__ import annotations

from math import prod

from ..contiguity import is_contiguous, is_contiguous_in_format, is_non_overlapping_and_dense
from ..geometry import (
    CONTIGUOUS_STRIDES_CACHE,
    INT64_MAX,
    compute_channels_last_strides,
    compute_contiguous_strides,
    compute_storage_nbytes,
    compute_storage_nbytes_contiguous,
    contiguous_strides_cached,
    infer_dense_strides,
)
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Storage, Tensor, new_storage
from ..views import make_tensor, replace_negative_strides, validate_sizes_nonnegative

_new_tuple = tuple.__new__
_CONTIGUOUS = CONTIGUOUS_STRIDES_CACHE


def copy_storage(t: Tensor, dense_stride: tuple, nbytes: int) -> Storage:
    """A new Storage holding ``t``'s elements laid out with ``dense_stride`` (offset 0).

    Nothing is copied: ``read(pos)`` recovers each index from the dense position (for a
    non-overlapping dense layout, index[d] = pos // stride[d] % size[d]) and reads the source
    through ``t``'s own layout, so the cost is per element actually read.
    """
    source_read = t[3].read
    if source_read is None:
        return new_storage(nbytes)
    terms = tuple([term for term in zip(dense_stride, t[0], t[1], strict=True) if term[1] > 1])
    start = t[2]

    def read(pos: int) -> object:
        p = start
        for dst, size, src in terms:
            p += (pos // dst) % size * src
        return source_read(p)

    return new_storage(nbytes, read)


def _memory_format_strides(t: Tensor, memory_format: str) -> tuple:
    # at::empty(sizes, memory_format) (EmptyTensor.cpp empty_generic): storage size first
    # (computeStorageNbytesContiguous), then row-major strides (checked), then the restride.
    shape = t[0]
    compute_storage_nbytes_contiguous(shape, t[4].itemsize)
    strides = compute_contiguous_strides(shape, check_overflow=True)
    if memory_format == "contiguous_format":
        return strides
    rank = 4 if memory_format == "channels_last" else 5
    if len(shape) != rank:
        raise torch_error(
            "RuntimeError",
            f"required rank {rank} tensor to use {memory_format} format",
            "memory_format_rank",
            memory_format,
            rank,
            len(shape),
        )
    # set_sizes_and_strides: a product that wrapped negative is recomputed, checked
    return replace_negative_strides(shape, compute_channels_last_strides(shape))


def clone(t: Tensor, memory_format: str = "preserve_format") -> Outcome:
    """Tensor.clone(memory_format): new storage at offset 0, never a view (TensorFactories.cpp)."""
    shape, stride, dtype = t[0], t[1], t[4]
    itemsize = dtype.itemsize
    if memory_format == "preserve_format" and stride == _CONTIGUOUS.get(shape) and shape:
        # fast path: a row-major input is dense, so empty_strided keeps its strides and
        # computeStorageNbytes is numel * itemsize (checked against int64 as the loop does)
        numel = prod(shape)
        nbytes = numel * itemsize
        if numel > 0 and nbytes <= INT64_MAX:
            storage = copy_storage(t, stride, nbytes)
            result = _new_tuple(Tensor, (shape, stride, 0, storage, dtype, False, None))
            return _new_tuple(Outcome, (result, "clone_dense", (t, result, memory_format)))
    if shape and min(shape) < 0:  # expand's negative-size quirk: empty*() refuses to allocate
        validate_sizes_nonnegative(shape, "clone")
    if memory_format == "preserve_format":
        if is_non_overlapping_and_dense(shape, stride):
            new_stride, key = stride, "clone_dense"  # empty_strided with the same strides
        else:
            new_stride, key = infer_dense_strides(shape, stride), "clone_inferred"
        compute_storage_nbytes(shape, new_stride, itemsize)
    else:
        new_stride, key = _memory_format_strides(t, memory_format), "clone_format"
    numel = prod(shape)
    storage = copy_storage(t, new_stride, numel * itemsize)
    result = make_tensor(shape, new_stride, storage, dtype)
    return make_outcome(result, key, (t, result, memory_format))


def contiguous(t: Tensor, memory_format: str = "contiguous_format") -> Outcome:
    """Tensor.contiguous(memory_format): self when already contiguous in that format, else clone."""
    stride = t[1]
    if memory_format == "contiguous_format":
        if stride == _CONTIGUOUS.get(t[0]):  # the common case, fast
            return _new_tuple(Outcome, (t, "contiguous_same", (t, memory_format)))
        dense = contiguous_strides_cached(t[0])
        if stride == dense:
            return _new_tuple(Outcome, (t, "contiguous_same", (t, memory_format)))
        shape, dtype = t[0], t[4]
        if shape and min(shape) > 0 and not is_contiguous(shape, stride):
            nbytes = prod(shape) * dtype.itemsize  # what clone(contiguous_format) allocates
            if nbytes <= INT64_MAX:  # no overflow: its checks all pass, its strides are `dense`
                storage = copy_storage(t, dense, nbytes)
                result = _new_tuple(Tensor, (shape, dense, 0, storage, dtype, False, None))
                return _new_tuple(Outcome, (result, "contiguous_copy", (t, result, memory_format)))
    shape = t[0]
    if memory_format == "preserve_format":
        # is_contiguous(Preserve) falls back to the default flag; the op itself refuses Preserve.
        if is_contiguous(shape, stride):
            return make_outcome(t, "contiguous_same", (t, "contiguous_format"))
        raise torch_error(
            "RuntimeError",
            "preserve memory format is unsupported by the contiguous operator",
            "contiguous_preserve",
            shape,
            stride,
        )
    if is_contiguous_in_format(shape, stride, memory_format):
        return make_outcome(t, "contiguous_same", (t, memory_format))
    result = clone(t, memory_format)[0]
    return make_outcome(result, "contiguous_copy", (t, result, memory_format))


def detach(t: Tensor) -> Outcome:
    """Tensor.detach(): same storage and metadata, but not a view and with no _base."""
    result = _new_tuple(Tensor, (t[0], t[1], t[2], t[3], t[4], False, None))
    return make_outcome(result, "detach", (t,))
