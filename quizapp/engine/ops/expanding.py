"""Broadcasting views: expand, expand_as, broadcast_to (size-1 dims repeat through stride 0)."""

from __future__ import annotations

from math import prod

from ..dtypes import tensor_type_string
from ..geometry import INT64_MAX, SYMINT_MIN, format_sizes, validate_concrete_ints, wrap_int64
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_view, validate_numel
from .strided import check_as_strided

_new_tuple = tuple.__new__


def _expand_geometry(t: Tensor, sizes: tuple) -> tuple[tuple, tuple]:
    # at::inferExpandGeometry (ATen/ExpandUtils.cpp): align right; a size-1 dim grows with
    # stride 0; a new leading dim gets stride 0 unless its target is 1.
    shape, stride = t[0], t[1]
    ndim = len(shape)
    n = len(sizes)
    if n < ndim:
        raise torch_error(
            "RuntimeError",
            f"expand({tensor_type_string(t[4])}{{{format_sizes(shape)}}}, "
            f"size={format_sizes(sizes)}): "
            f"the number of sizes provided ({n}) must be greater or equal to the number of "
            f"dimensions in the tensor ({ndim})",
            "expand_too_few",
            shape,
            sizes,
        )
    if ndim == 0:  # a 0-d tensor takes the sizes verbatim, all strides 0
        return sizes, (0,) * n
    out_size = [0] * n
    out_stride = [0] * n
    for i in range(n - 1, -1, -1):
        j = i - (n - ndim)
        if j >= 0:
            size, st = shape[j], stride[j]
        else:
            # a new dim's stride is an int64 product that may wrap (huge empty tensors)
            size, st = 1, wrap_int64(out_size[i + 1] * out_stride[i + 1]) if i + 1 < n else 1
        target = sizes[i]
        if target == -1:
            if j < 0:
                raise torch_error(
                    "RuntimeError",
                    "The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}",
                    "expand_leading_minus_one",
                    sizes,
                    i,
                )
            target = size
        if size != target:
            if size != 1:
                raise torch_error(
                    "RuntimeError",
                    f"The expanded size of the tensor ({target}) must match the existing size "
                    f"({size}) at non-singleton dimension {i}.  Target sizes: "
                    f"{format_sizes(sizes)}.  Tensor sizes: {format_sizes(shape)}",
                    "expand_mismatch",
                    shape,
                    sizes,
                    i,
                    target,
                    size,
                )
            size, st = target, 0
        out_size[i] = size
        out_stride[i] = st
    return tuple(out_size), tuple(out_stride)


def _expand_fast(shape: tuple, stride: tuple, sizes: tuple
                 ) -> tuple[tuple | None, tuple] | None:
    # The same geometry for well-formed targets; None sends anything unusual (errors, -1 in a
    # new dim, empty or overflowing results) to _expand_geometry and its exact checks, as does
    # a None shape (a negative size for a new dim).
    lead = len(sizes) - len(shape)
    if lead < 0 or not shape or min(sizes) == 0 or prod(sizes) > INT64_MAX:
        return None
    head = sizes[:lead]
    if sizes[lead:] == shape and 1 not in head:  # only new leading dims, all repeated
        return (None if min(sizes) < 0 else sizes), (0,) * lead + stride
    out_size, out_stride = list(sizes), [0] * len(sizes)
    i = lead
    for size, st, target in zip(shape, stride, sizes[lead:], strict=False):  # equal lengths
        if target == size or target == -1:
            out_size[i] = size
            out_stride[i] = st
        elif size != 1:
            return None
        i += 1
    for i in range(lead - 1, -1, -1):
        if sizes[i] == 1:
            out_stride[i] = out_size[i + 1] * out_stride[i + 1]
    if min(out_size) <= 0 or prod(out_size) > INT64_MAX:
        return None  # empty, negative (a torch quirk) or overflowing: the checked path
    return tuple(out_size), tuple(out_stride)


def expand(t: Tensor, size) -> Outcome:
    """Tensor.expand(*sizes): a view that repeats size-1 dims via stride 0 (never copies)."""
    sizes = size if type(size) is tuple else tuple(size)
    if sizes and min(sizes) < SYMINT_MIN:  # the CompositeExplicitAutograd kernel takes IntArrayRef
        validate_concrete_ints(sizes)
    fast = _expand_fast(t[0], t[1], sizes)
    if fast is not None and fast[0] is not None:  # positive sizes, small product: all checked
        result = _new_tuple(Tensor, (fast[0], fast[1], t[2], t[3], t[4], True, t[6] or t))
        return _new_tuple(Outcome, (result, "expand", (t, result)))
    new_shape, new_stride = _expand_geometry(t, sizes)
    if new_stride and min(new_stride) < 0:  # wrapped or negative-size products: expand ends
        check_as_strided(t, new_shape, new_stride, t[2])  # in as_strided, which objects
    validate_numel(new_shape)  # zeros, overflow, or negative targets (a torch quirk)
    result = make_view(t, new_shape, new_stride, t[2])
    return make_outcome(result, "expand", (t, result))


def expand_as(t: Tensor, other: Tensor) -> Outcome:
    """Tensor.expand_as(other) = expand(other.size())."""
    return expand(t, other[0])


def broadcast_to(t: Tensor, size) -> Outcome:
    """Tensor.broadcast_to(shape) = expand(shape)."""
    return expand(t, size)
