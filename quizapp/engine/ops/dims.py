"""Ops that add, drop or reorder dims without moving data: squeeze, permute, transposes, ..."""

from __future__ import annotations

from operator import itemgetter

from ..geometry import INT64_MAX, canonicalize_dim, format_sizes
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_view
from .strided import check_symint_strides

_new_tuple = tuple.__new__


def squeeze(t: Tensor, dim=None) -> Outcome:
    """Tensor.squeeze(dim): drop the selected size-1 dims with their strides; always a new view."""
    shape, stride = t[0], t[1]
    ndim = len(shape)
    if dim is None:
        if 1 not in shape:  # nothing to drop: same sizes and strides in a new view
            new_shape, new_stride = shape, stride
        else:
            keep = [d for d in range(ndim) if shape[d] != 1]
            new_shape = tuple([shape[i] for i in keep])
            new_stride = tuple([stride[i] for i in keep])
        return _squeezed(t, new_shape, new_stride, dim)
    if isinstance(dim, int):
        d = dim if 0 <= dim < ndim else canonicalize_dim(dim, ndim)
        if ndim and shape[d] == 1:
            new_shape, new_stride = shape[:d] + shape[d + 1 :], stride[:d] + stride[d + 1 :]
        else:
            new_shape, new_stride = shape, stride
        return _squeezed(t, new_shape, new_stride, dim)
    seen = set()  # dim_list_to_bitset (TensorShape.cpp)
    for item in dim:
        d = canonicalize_dim(item, ndim)
        if d in seen:
            raise torch_error(
                "RuntimeError",
                f"dim {d} appears multiple times in the list of dims",
                "repeated_dim",
                tuple(dim),
                d,
            )
        seen.add(d)
    keep = [i for i in range(ndim) if i not in seen or shape[i] != 1]
    new_shape = tuple([shape[i] for i in keep])
    new_stride = tuple([stride[i] for i in keep])
    return _squeezed(t, new_shape, new_stride, dim)


def _squeezed(t: Tensor, new_shape: tuple, new_stride: tuple, dim) -> Outcome:
    if 0 in new_shape:  # make_view's numel and stride checks
        result = make_view(t, new_shape, new_stride, t[2])
    else:
        result = _new_tuple(Tensor, (new_shape, new_stride, t[2], t[3], t[4], True, t[6] or t))
    return _new_tuple(Outcome, (result, "squeeze", (t, new_shape, dim)))


def unsqueeze(t: Tensor, dim: int) -> Outcome:
    """Tensor.unsqueeze(dim): insert size 1 with stride size[d]*stride[d] (1 at the end)."""
    shape, stride = t[0], t[1]
    ndim = len(shape)
    d = canonicalize_dim(dim, ndim + 1)
    new_stride = shape[d] * stride[d] if d < ndim else 1
    new_shape, new_strides = shape[:d] + (1,) + shape[d:], stride[:d] + (new_stride,) + stride[d:]
    if not 0 <= new_stride <= INT64_MAX:  # inferUnsqueezeGeometry_symint wraps in int64, then
        new_strides = check_symint_strides(t, new_shape, new_strides, t[2])  # as_strided_symint
    result = make_view(t, new_shape, new_strides, t[2])
    return make_outcome(result, "unsqueeze", (t, result, d))


def permute(t: Tensor, dims) -> Outcome:
    """Tensor.permute(*dims): sizes and strides reordered; offset and storage unchanged."""
    shape, stride = t[0], t[1]
    ndim = len(shape)
    if len(dims) != ndim:
        raise torch_error(
            "RuntimeError",
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{ndim} is not equal to len(dims) = {len(dims)}",
            "permute_length",
            ndim,
            tuple(dims),
        )
    if ndim > 1 and sorted(dims) == _IDENTITY[ndim]:  # already a permutation of 0..ndim-1
        pick = itemgetter(*dims)
        result = make_view(t, pick(shape), pick(stride), t[2])
        return make_outcome(result, "permute", (t, result, tuple(dims)))
    order = _checked_order(dims, ndim)
    result = make_view(t, tuple([shape[d] for d in order]), tuple([stride[d] for d in order]), t[2])
    return make_outcome(result, "permute", (t, result, tuple(order)))


_IDENTITY = [list(range(n)) for n in range(65)]  # sorted(dims) of a valid permutation
_MOVES: dict[tuple, tuple] = {}  # (ndim, source, destination) -> (order, picker), ndim <= 64


def _picker(order: tuple):
    """A function returning the items of a tuple in ``order``, always as a tuple."""
    if len(order) == 1:
        return tuple  # one dim: the tuple itself (a 1-tuple of itself has the same items)
    return itemgetter(*order)


# Tensor.T on ndim >= 2: the reversed order and its picker, precomputed per rank
_REVERSED = [(tuple(range(n - 1, -1, -1)), _picker(tuple(range(n - 1, -1, -1)))) if n > 1
             else None for n in range(65)]


def _checked_order(dims, ndim: int) -> list:
    order = []
    for item in dims:  # wrap and check one by one: a repeat can hide a later bad dim
        d = canonicalize_dim(item, ndim)
        if d in order:
            raise torch_error(
                "RuntimeError",
                "permute(): duplicate dims are not allowed.",
                "permute_repeated",
                tuple(dims),
                d,
            )
        order.append(d)
    return order


def transpose(t: Tensor, dim0: int, dim1: int) -> Outcome:
    """Tensor.transpose(dim0, dim1): swap two sizes and strides (a new view even if equal)."""
    shape, stride = t[0], t[1]
    ndim = len(shape)
    a = dim0 if 0 <= dim0 < ndim else canonicalize_dim(dim0, ndim)
    b = dim1 if 0 <= dim1 < ndim else canonicalize_dim(dim1, ndim)
    if ndim == 2 and a != b:  # the matrix case (t(), mT, transpose(0, 1)): both dims swap
        new_shape = (shape[1], shape[0])
        if 0 in new_shape:
            result = make_view(t, new_shape, (stride[1], stride[0]), t[2])
        else:
            result = _new_tuple(
                Tensor, (new_shape, (stride[1], stride[0]), t[2], t[3], t[4], True, t[6] or t)
            )
        return _new_tuple(Outcome, (result, "transpose", (t, result, a, b)))
    if ndim == 0 or a == b:
        return make_outcome(make_view(t, shape, stride, t[2]), "transpose_same", (t, a, b))
    swapped_shape = list(shape)
    swapped_stride = list(stride)
    swapped_shape[a], swapped_shape[b] = shape[b], shape[a]
    swapped_stride[a], swapped_stride[b] = stride[b], stride[a]
    result = make_view(t, tuple(swapped_shape), tuple(swapped_stride), t[2])
    return make_outcome(result, "transpose", (t, result, a, b))


def swapaxes(t: Tensor, axis0: int, axis1: int) -> Outcome:
    """Tensor.swapaxes = transpose."""
    return transpose(t, axis0, axis1)


def swapdims(t: Tensor, dim0: int, dim1: int) -> Outcome:
    """Tensor.swapdims = transpose."""
    return transpose(t, dim0, dim1)


def t_(t: Tensor) -> Outcome:
    """Tensor.t(): transpose(0, 1) for 2-D, an identity view for 0-D and 1-D."""
    ndim = len(t[0])
    if ndim > 2:
        raise torch_error(
            "RuntimeError",
            f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D",
            "t_rank",
            ndim,
        )
    return transpose(t, 0, 0 if ndim < 2 else 1)


def T(t: Tensor) -> Outcome:
    """Tensor.T (numpy_T): reverse all dims; deprecated but allowed for ndim other than 2."""
    shape = t[0]
    ndim = len(shape)
    if 1 < ndim <= 64:  # permute's valid-permutation path with a precomputed reversal
        reversal = _REVERSED[ndim]
        assert reversal is not None  # set for every rank from 2 to 64
        dims, pick = reversal
        new_shape = pick(shape)
        if 0 in new_shape:
            result = make_view(t, new_shape, pick(t[1]), t[2])
        else:
            result = _new_tuple(Tensor, (new_shape, pick(t[1]), t[2], t[3], t[4], True, t[6] or t))
        return _new_tuple(Outcome, (result, "permute", (t, result, dims)))
    return permute(t, tuple(range(ndim - 1, -1, -1)))


def mT(t: Tensor) -> Outcome:
    """Tensor.mT: transpose the last two dims; the SAME tensor for 0-D, an error for 1-D."""
    ndim = len(t[0])
    if ndim == 0:
        return make_outcome(t, "mT_scalar", (t,))
    if ndim == 1:
        raise torch_error(
            "RuntimeError",
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
            "mT_rank",
        )
    return transpose(t, -2, -1)


def movedim(t: Tensor, source, destination) -> Outcome:
    """Tensor.movedim(source, destination): listed dims move, the rest keep their order."""
    shape = t[0]
    ndim = len(shape)
    if type(source) is int and type(destination) is int and ndim:  # one dim moves: fast path
        s = source if 0 <= source < ndim else canonicalize_dim(source, ndim)
        d = destination if 0 <= destination < ndim else canonicalize_dim(destination, ndim)
        key = (ndim, s, d)
        move = _MOVES.get(key)
        if move is None:
            moved = list(range(ndim))
            del moved[s]
            moved.insert(d, s)  # the same order the general loop below builds
            order = tuple(moved)
            move = _MOVES[key] = (order, _picker(order))
        order, pick = move
        new_shape = pick(shape)
        if 0 in new_shape:
            result = make_view(t, new_shape, pick(t[1]), t[2])
        else:
            result = _new_tuple(Tensor, (new_shape, pick(t[1]), t[2], t[3], t[4], True, t[6] or t))
        return _new_tuple(Outcome, (result, "movedim", (t, order)))
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise torch_error(
            "RuntimeError",
            f"movedim: Invalid source or destination dims: source ({format_sizes(src)} dims) "
            f"should contain the same number of dims as destination ({format_sizes(dst)} dims)",
            "movedim_length",
            src,
            dst,
        )
    wrapped_src = [canonicalize_dim(d, ndim) for d in src]
    wrapped_dst = [canonicalize_dim(d, ndim) for d in dst]
    for name, given, wrapped in (("source", src, wrapped_src), ("destination", dst, wrapped_dst)):
        if len(set(wrapped)) != len(wrapped):
            raise torch_error(
                "RuntimeError",
                f"movedim: repeated dim in `{name}` ({format_sizes(given)})",
                "movedim_repeated",
                name,
                given,
            )
    if ndim == 0:
        return make_outcome(make_view(t, (), (), t[2]), "movedim", (t, ()))
    placed = [-1] * ndim
    for s, d in zip(wrapped_src, wrapped_dst, strict=True):
        placed[d] = s
    rest = iter([d for d in range(ndim) if d not in set(wrapped_src)])
    order = tuple([o if o != -1 else next(rest) for o in placed])
    result = permute(t, order)[0]
    return make_outcome(result, "movedim", (t, order))


def moveaxis(t: Tensor, source, destination) -> Outcome:
    """Tensor.moveaxis = movedim."""
    return movedim(t, source, destination)
