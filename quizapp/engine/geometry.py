"""Shape and stride arithmetic behind the ops: -1 inference, view strides, dense strides, bounds."""

from __future__ import annotations

from math import prod

from .reasons import torch_error
from .tensor import format_sizes
from .views import unsigned_product

INT64_MAX = 2**63 - 1
UINT64 = 2**64
SYMINT_MIN = -(2**62)  # c10::SymInt::min_representable_int(): below it a SymInt lives on the heap
# The end of torch's message when an IntArrayRef kernel receives such a heap SymInt
# (c10::asIntArrayRefSlow, c10/core/SymIntArrayRef.h).  torch starts the message with the C++
# file and line of the generated wrapper ("/__w/.../RegisterCPU_3.cpp:5710: "), which depends on
# the build; the engine reports the rest, and torch_explain drops that location before comparing.
NOT_CONCRETE = "SymIntArrayRef expected to contain only concrete integers"


def wrap_int64(value: int) -> int:
    """Two's-complement wrap of a Python int to int64 (what C++ int64 arithmetic leaves behind)."""
    return ((value + 2**63) % UINT64) - 2**63


def validate_concrete_ints(values) -> None:
    """c10::asIntArrayRefSlow: an int-list argument torch's Python parser turned into SymInts
    must hold no value below SYMINT_MIN when it reaches a kernel taking IntArrayRef (view,
    as_strided, expand, split_with_sizes, the factories), checked before the kernel runs."""
    if values and min(values) < SYMINT_MIN:
        raise torch_error("RuntimeError", NOT_CONCRETE, "symint_range", min(values))


def canonicalize_dim(dim: int, ndim: int, wrap_scalar: bool = True) -> int:
    """c10::maybe_wrap_dim: map a possibly negative dim into [0, ndim); 0-d accepts -1 and 0."""
    if 0 <= dim < ndim:
        return dim
    if ndim <= 0:
        if not wrap_scalar:
            raise torch_error(
                "IndexError",
                f"Dimension specified as {dim} but tensor has no dimensions",
                "dim_on_scalar",
                dim,
            )
        ndim = 1
    if -ndim <= dim < ndim:
        return dim + ndim if dim < 0 else dim
    raise torch_error(
        "IndexError",
        f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})",
        "dim_out_of_range",
        dim,
        ndim,
    )


def infer_size(shape: tuple, numel: int) -> tuple:
    """at::infer_size_dv (ATen/InferSize.h): resolve one -1 so the product equals ``numel``."""
    if not shape or min(shape) >= -1:  # fast path; the loop below gives torch's exact errors
        inferred = shape.count(-1)
        if inferred == 0:
            if prod(shape) == numel:
                return shape
        elif inferred == 1:
            known = -prod(shape)
            if 0 < known <= INT64_MAX and numel % known == 0:
                i = shape.index(-1)
                return shape[:i] + (numel // known,) + shape[i + 1 :]
    newsize = 1
    infer_dim = None
    for i, s in enumerate(shape):
        if s == -1:
            if infer_dim is not None:
                raise torch_error(
                    "RuntimeError", "only one dimension can be inferred", "two_inferred", shape
                )
            infer_dim = i
        elif s >= 0:
            newsize = wrap_int64(newsize * s)  # int64_t arithmetic: a huge product wraps
        else:
            raise torch_error(
                "RuntimeError",
                f"invalid shape dimension {s} at index {i} of shape {format_sizes(shape)}",
                "negative_size",
                shape,
                i,
            )
    if infer_dim is None:
        if numel != newsize:
            raise torch_error(
                "RuntimeError",
                f"shape '{format_sizes(shape)}' is invalid for input of size {numel}",
                "numel_mismatch",
                shape,
                numel,
                newsize,
            )
        return shape
    if not ((newsize > 0 and numel % newsize == 0) or numel == newsize):
        raise torch_error(
            "RuntimeError",
            f"shape '{format_sizes(shape)}' is invalid for input of size {numel}",
            "numel_not_divisible",
            shape,
            numel,
            newsize,
        )
    if newsize == 0:
        raise torch_error(
            "RuntimeError",
            f"cannot reshape tensor of 0 elements into shape {format_sizes(shape)} because the "
            "unspecified dimension size -1 can be any value and is ambiguous",
            "ambiguous_inferred",
            shape,
        )
    return shape[:infer_dim] + (numel // newsize,) + shape[infer_dim + 1 :]


def compute_stride(oldshape: tuple, oldstride: tuple, newshape: tuple) -> tuple | None:
    """at::detail::computeStride (ATen/TensorUtils.cpp): strides for a view, or None if impossible.

    Old dims are cut into chunks of mutually contiguous dims (size-1 dims never end a chunk);
    each chunk is filled from the innermost new dims.
    """
    if not oldshape:  # 0-d input: every new dim gets stride 1
        return (1,) * len(newshape)
    if 0 in oldshape:  # zero elements: same shape keeps its strides, else row-major
        if oldshape == newshape:
            return oldstride
        return compute_contiguous_strides(newshape)
    if prod(newshape) != prod(oldshape):  # only a product infer_size wrapped gets here
        return _compute_stride_int64(oldshape, oldstride, newshape)
    if oldstride == contiguous_strides_cached(oldshape):
        return contiguous_strides_cached(newshape)  # one chunk with base 1: row-major result
    newstride = [0] * len(newshape)
    view_d = len(newshape) - 1
    td = len(oldshape) - 1
    while td >= 0:  # one chunk per pass, innermost first
        chunk_base = oldstride[td]
        tensor_numel = oldshape[td]
        first = td
        while first > 0:  # grow the chunk outward while dim first-1 continues it
            size = oldshape[first - 1]
            if size != 1 and oldstride[first - 1] != tensor_numel * chunk_base:
                break  # size-1 dims never end a chunk
            first -= 1
            tensor_numel *= size
        view_numel = 1  # fill the chunk from the innermost new dims (new 1s join greedily)
        while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
            newstride[view_d] = view_numel * chunk_base
            view_numel *= newshape[view_d]
            view_d -= 1
        if view_numel != tensor_numel:
            return None
        td = first - 1
    if view_d != -1:
        return None
    return tuple(newstride)


def _compute_stride_int64(oldshape: tuple, oldstride: tuple, newshape: tuple) -> tuple | None:
    """computeStride's loop word for word in wrapping int64 arithmetic, for a new shape whose
    true product differs from the old one (infer_size_impl multiplies in int64, so a shape such
    as (4, 2**62 + 1, 2) passes for 8 elements).  ``view_numel`` can then wrap negative and keep
    the loop going, so torch may find strides (negative ones included) where exact arithmetic
    finds none; set_sizes_and_strides and the numel check judge them afterwards."""
    newstride = [0] * len(newshape)
    view_d = len(newshape) - 1
    chunk_base = oldstride[-1]
    tensor_numel = 1
    view_numel = 1
    for td in range(len(oldshape) - 1, -1, -1):
        tensor_numel = wrap_int64(tensor_numel * oldshape[td])
        if td == 0 or (oldshape[td - 1] != 1
                       and oldstride[td - 1] != wrap_int64(tensor_numel * chunk_base)):
            while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
                newstride[view_d] = wrap_int64(view_numel * chunk_base)
                view_numel = wrap_int64(view_numel * newshape[view_d])
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if td > 0:
                chunk_base = oldstride[td - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(newstride)


CONTIGUOUS_STRIDES_CACHE: dict[tuple, tuple] = {}


def contiguous_strides_cached(shape: tuple) -> tuple:
    """compute_contiguous_strides memoised for shapes with elements (the view hot path)."""
    strides = CONTIGUOUS_STRIDES_CACHE.get(shape)
    if strides is None:
        if len(CONTIGUOUS_STRIDES_CACHE) >= 4096:
            CONTIGUOUS_STRIDES_CACHE.clear()  # bounded memory: start over
        strides = CONTIGUOUS_STRIDES_CACHE[shape] = compute_contiguous_strides(shape)
    return strides


def compute_contiguous_strides(shape: tuple, check_overflow: bool = False) -> tuple:
    """TensorImpl::empty_tensor_restride(Contiguous): row-major strides with max(size, 1).

    With ``check_overflow`` the int64 products are checked as torch does when it allocates;
    otherwise they wrap like computeStride's arithmetic.
    """
    strides = [1] * len(shape)
    acc = 1
    for d in range(len(shape) - 1, -1, -1):
        strides[d] = acc
        acc *= shape[d] if shape[d] > 1 else 1
    if acc > INT64_MAX:  # only reachable for zero-element shapes with huge other dims
        if check_overflow and max(strides) > INT64_MAX:
            raise torch_error(
                "RuntimeError", "Stride calculation overflowed", "stride_overflow", shape
            )
        strides = [wrap_int64(s) for s in strides]
    return tuple(strides)


# c10::get_channels_last_strides_2d / _3d: the order in which dims get increasing strides.
CHANNELS_LAST_ORDER = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}


def compute_channels_last_strides(shape: tuple) -> tuple:
    """c10::get_channels_last_strides_2d/3d: channels innermost, NO max(size, 1) (zeros appear)."""
    strides = [0] * len(shape)
    acc = 1
    for d in CHANNELS_LAST_ORDER[len(shape)]:
        strides[d] = wrap_int64(acc)
        acc *= shape[d]
    return tuple(strides)


def infer_dense_strides(shape: tuple, stride: tuple) -> tuple:
    """at::infer_dense_strides (ATen/ExpandUtils.cpp): dense strides in the input's dim order."""
    ndim = len(shape)
    if ndim == 0:
        return ()
    if ndim == 1:
        return (1,)
    perm = list(range(ndim - 1, -1, -1))  # innermost candidate first

    def should_swap(a: int, b: int) -> int:
        if stride[a] == 0 or stride[b] == 0:
            return 0
        if stride[a] != stride[b]:
            return -1 if stride[a] < stride[b] else 1
        return 1 if shape[a] > shape[b] else 0

    for i in range(1, ndim):  # insertion sort, stable like TensorIterator's reorder_dimensions
        j = i
        for k in range(i - 1, -1, -1):
            c = should_swap(perm[k], perm[j])
            if c > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif c < 0:
                break
    out = [0] * ndim
    acc = 1
    for d in perm:
        out[d] = acc
        if shape[d] > 1:
            acc *= shape[d]
    return tuple(out)


def compute_storage_nbytes(shape: tuple, stride: tuple, itemsize: int, offset: int = 0) -> int:
    """at::detail::computeStorageNbytes (EmptyTensor.cpp): bytes needed, 0 for zero-size shapes.

    Raises torch's "Storage size calculation overflowed" when the unsigned 64-bit arithmetic
    overflows or the result exceeds int64.
    """
    size = offset + 1
    overflowed = False
    for s, st in zip(shape, stride, strict=True):
        if s == 0:
            return 0
        strided = (st % UINT64) * ((s - 1) % UINT64)
        if strided >= UINT64:
            overflowed = True
        size = size + strided % UINT64
        if size >= UINT64:
            overflowed = True
            size %= UINT64
    size *= itemsize
    if overflowed or size > INT64_MAX:
        # torch 2.13 words a 0-d layout's overflow (only its offset can overflow) as the
        # contiguous variant does, without "and strides=[]" (measured)
        strides_text = f" and strides={format_sizes(stride)}" if shape else ""
        raise torch_error(
            "RuntimeError",
            f"Storage size calculation overflowed with sizes={format_sizes(shape)}"
            + strides_text,
            "storage_overflow",
            tuple(shape),
            tuple(stride),
        )
    return size


def compute_storage_nbytes_contiguous(shape: tuple, itemsize: int) -> int:
    """at::detail::computeStorageNbytesContiguous: numel * itemsize, checked as empty() does."""
    product, overflowed = unsigned_product(shape)
    nbytes = product * itemsize
    if overflowed or nbytes > INT64_MAX:
        raise torch_error(
            "RuntimeError",
            f"Storage size calculation overflowed with sizes={format_sizes(shape)}",
            "storage_overflow",
            tuple(shape),
            None,
        )
    return nbytes
