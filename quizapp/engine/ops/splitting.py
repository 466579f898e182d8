"""Ops that cut one dim into several views: unbind, split, chunk, tensor_split."""

from __future__ import annotations

from collections.abc import Sequence

from ..geometry import canonicalize_dim, format_sizes, validate_concrete_ints, wrap_int64
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_view
from .pieces import MAX_EAGER_PIECES, make_pieces
from .slicing import INT64_MAX, select_layout, slice_dim

_new_tuple = tuple.__new__


def unbind(t: Tensor, dim: int = 0) -> Outcome:
    """Tensor.unbind(dim): one select per index along dim (a 0-d tensor has no dim to unbind)."""
    d = canonicalize_dim(dim, len(t[0]))
    if not t[0]:  # self.size(0) on a 0-d tensor
        canonicalize_dim(d, 0, wrap_scalar=False)
    shape, stride = t[0], t[1]
    count = shape[d]
    if 0 < count <= MAX_EAGER_PIECES and 0 not in shape:  # every select is in range: inline it
        rest_shape, rest_stride = shape[:d] + shape[d + 1 :], stride[:d] + stride[d + 1 :]
        step, offset, storage, dtype, base = stride[d], t[2], t[3], t[4], t[6] or t
        if max(offset, offset + (count - 1) * step) <= INT64_MAX:
            pieces: Sequence[Tensor] = tuple(
                [
                    _new_tuple(
                        Tensor,
                        (rest_shape, rest_stride, offset + k * step, storage, dtype, True, base),
                    )
                    for k in range(count)
                ]
            )
            return _new_tuple(Outcome, (pieces, "unbind", (t, d, count)))
    if count < 0:  # a negative size (expand's quirk): std::vector<Tensor> tensors(size) throws
        raise torch_error(
            "RuntimeError",
            "cannot create std::vector larger than max_size()",
            "unbind_negative",
            count,
            d,
        )
    pieces = make_pieces(count, lambda k: select_layout(t, d, k))
    return make_outcome(pieces, "unbind", (t, d, len(pieces)))


def split(t: Tensor, split_size, dim: int = 0) -> Outcome:
    """Tensor.split(split_size | sizes, dim): narrow views of consecutive ranges."""
    shape = t[0]
    if not isinstance(split_size, int):
        return _split_with_sizes(t, tuple(split_size), dim)
    if not shape:
        raise torch_error(
            "RuntimeError", "split expects at least a 1-dimensional tensor", "split_scalar"
        )
    if split_size < 0:
        raise torch_error(
            "RuntimeError",
            f"split expects split_size be non-negative, but got split_size={split_size}",
            "split_negative",
            split_size,
        )
    d = canonicalize_dim(dim, len(shape))
    n = shape[d]
    if split_size == 0 and n != 0:
        raise torch_error(
            "RuntimeError",
            f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}",
            "split_zero",
            n,
        )
    if n < 0:  # a negative size (expand's quirk): split_symint makes one piece of length n,
        # and its narrow(dim, 0, n) refuses the length first (TensorShape.cpp narrow_symint)
        raise torch_error(
            "RuntimeError", "narrow(): length must be non-negative.", "narrow_length", n
        )
    if split_size == 0:
        count, last = 1, n
    elif 0 < n + split_size <= INT64_MAX:  # common case: no wrap, floor == C++ truncation
        count = max((n + split_size - 1) // split_size, 1)
        last = split_size - (split_size * count - n)
    else:
        count, last = _wrapped_split_count(n, split_size)

    if 0 < split_size and n + split_size <= INT64_MAX and 0 <= last and count <= MAX_EAGER_PIECES:
        # every piece is an in-range slice (the last one ends at n): build them directly
        stride, offset, storage, dtype, base = t[1], t[2], t[3], t[4], t[6] or t
        step = stride[d]
        if 0 not in shape and max(offset, offset + (count - 1) * split_size * step) <= INT64_MAX:
            head, tail = shape[:d], shape[d + 1 :]
            full = head + (split_size,) + tail
            views = [
                _new_tuple(
                    Tensor, (full, stride, offset + k * split_size * step, storage, dtype, True, base)
                )
                for k in range(count - 1)
            ]
            views.append(
                make_view(t, head + (last,) + tail, stride, offset + (count - 1) * split_size * step)
            )
            return _new_tuple(Outcome, (tuple(views), "split", (t, d, split_size, count)))

    def piece(k: int) -> Tensor:
        length = split_size if k < count - 1 else last
        return slice_dim(t, d, k * split_size, k * split_size + length)

    pieces = make_pieces(count, piece)
    return make_outcome(pieces, "split", (t, d, split_size, len(pieces)))


def _wrapped_split_count(n: int, split_size: int) -> tuple[int, int]:
    """split_symint's k = max((n + ss - 1) / ss, 1), last = ss - (ss * k - n) in wrapping int64,
    truncating: near INT64_MAX the sum wraps negative, so torch returns ONE whole piece."""
    total = wrap_int64(n + split_size - 1)
    quotient = total // split_size if total >= 0 else -(-total // split_size)
    count = max(quotient, 1)
    return count, wrap_int64(split_size - wrap_int64(split_size * count - n))


def _split_with_sizes(t: Tensor, sizes: tuple, dim: int) -> Outcome:
    # aten::split_with_sizes: its CompositeExplicitAutograd kernel takes IntArrayRef (checked
    # before anything else), then every entry >= 0 (in order), then the sum must match.
    validate_concrete_ints(sizes)
    shape = t[0]
    if not shape:
        raise torch_error(
            "RuntimeError", "split expects at least a 1-dimensional tensor", "split_scalar"
        )
    d = canonicalize_dim(dim, len(shape))
    n = shape[d]
    starts = []
    total = 0
    for length in sizes:
        if length < 0:
            raise torch_error(
                "RuntimeError",
                "split_with_sizes expects split_sizes have only non-negative entries, but got "
                f"split_sizes={format_sizes(sizes)}",
                "split_sizes_negative",
                sizes,
            )
        starts.append(total)
        total += length
    if total != n:
        raise torch_error(
            "RuntimeError",
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
            f"dimension {dim}), but got split_sizes={format_sizes(sizes)}",
            "split_sizes_sum",
            sizes,
            n,
            total,
        )
    pieces = tuple(
        [slice_dim(t, d, s, s + length) for s, length in zip(starts, sizes, strict=True)]
    )
    return make_outcome(pieces, "split_sizes", (t, d, sizes))


def chunk(t: Tensor, chunks: int, dim: int = 0) -> Outcome:
    """Tensor.chunk(chunks, dim): split with ceil(size / chunks); may return fewer pieces."""
    shape = t[0]
    if not shape:
        raise torch_error(
            "RuntimeError", "chunk expects at least a 1-dimensional tensor", "chunk_scalar"
        )
    if chunks <= 0:
        raise torch_error(
            "RuntimeError",
            f"chunk expects `chunks` to be greater than 0, got: {chunks}",
            "chunk_count",
            chunks,
        )
    d = canonicalize_dim(dim, len(shape))
    n = shape[d]
    total = n + chunks - 1
    if 0 <= total <= INT64_MAX:
        split_size = total // chunks
    else:  # at::chunk sums in int64: near INT64_MAX the sum wraps negative and the C++
        total = wrap_int64(total)  # division truncates, so split() then objects
        split_size = total // chunks if total >= 0 else -(-total // chunks)
    if split_size == 0 and n == 0:  # keep the requested number of (empty) chunks
        pieces = make_pieces(chunks, lambda k: slice_dim(t, d, 0, 0))
        return make_outcome(pieces, "chunk", (t, d, chunks, 0, len(pieces)))
    pieces = split(t, split_size, d)[0]
    return make_outcome(pieces, "chunk", (t, d, chunks, split_size, len(pieces)))


def tensor_split(t: Tensor, indices_or_sections, dim: int = 0) -> Outcome:
    """Tensor.tensor_split(sections | indices, dim): numpy-style pieces via slice (clamped)."""
    shape = t[0]
    ndim = len(shape)
    if not shape:
        raise torch_error(
            "RuntimeError",
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims",
            "tensor_split_scalar",
        )
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        d = canonicalize_dim(dim, ndim)  # the dim is checked before the section count
        if sections <= 0:
            raise torch_error(
                "RuntimeError",
                f"number of sections must be larger than 0, got {sections}",
                "tensor_split_count",
                sections,
            )
        base, extra = divmod(shape[d], sections)
        if shape[d] >= 0 and sections <= MAX_EAGER_PIECES:  # in-range slices: no closure
            pieces: Sequence[Tensor] = tuple(
                [
                    slice_dim(t, d, k * base + min(k, extra), (k + 1) * base + min(k + 1, extra))
                    for k in range(sections)
                ]
            )
            return _new_tuple(
                Outcome, (pieces, "tensor_split_sections", (t, d, sections, sections))
            )

        def piece(k: int) -> Tensor:
            start = k * base + min(k, extra)
            return slice_dim(t, d, start, start + base + (1 if k < extra else 0))

        pieces = make_pieces(sections, piece)
        return make_outcome(pieces, "tensor_split_sections", (t, d, sections, len(pieces)))
    indices = tuple(indices_or_sections)
    d = canonicalize_dim(dim, ndim)
    bounds = (0,) + indices + (shape[d],)
    pieces = tuple([slice_dim(t, d, bounds[k], bounds[k + 1]) for k in range(len(indices) + 1)])
    return make_outcome(pieces, "tensor_split_indices", (t, d, indices))
