"""Python basic indexing x[idx] with ints, slices (positive steps), None and Ellipsis."""

from __future__ import annotations

from ..geometry import canonicalize_dim
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_view
from .advanced_indexing import BoolList, Index, Mask, advanced_index, canonicalize_advanced
from .slicing import slice_layout
from .strided import check_symint_strides, checked_storage_offset

_new_tuple = tuple.__new__
PY_SSIZE_T_MAX = INT64_MAX = 2**63 - 1
SYMINT_MIN = -(2**62)  # c10::SymInt::min_representable_int()

_SCALAR_INDEX = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
    "to convert a 0-dim tensor to a number"
)


def _unpack_slice(item: slice) -> tuple[int, int, int]:
    # PySlice_Unpack (clamps to Py_ssize_t), then python_variable_indexing.cpp's __PySlice_Unpack
    # clips start/stop below c10::SymInt::min_representable_int() (-2**62) up to it (with the
    # "Truncating the start/stop/step of slice" UserWarning), then "step must be > zero".
    step = 1 if item.step is None else item.step
    if step == 0:
        raise torch_error("ValueError", "slice step cannot be zero", "slice_step_zero")
    if step < 0:
        raise torch_error(
            "ValueError", "step must be greater than zero", "slice_step_negative", step
        )
    start, stop = item.start, item.stop
    if start is None:
        start = 0
    elif not SYMINT_MIN <= start <= PY_SSIZE_T_MAX:
        start = min(max(start, SYMINT_MIN), PY_SSIZE_T_MAX)
    if stop is None:
        stop = PY_SSIZE_T_MAX
    elif not SYMINT_MIN <= stop <= PY_SSIZE_T_MAX:
        stop = min(max(stop, SYMINT_MIN), PY_SSIZE_T_MAX)
    return start, stop, step if step <= PY_SSIZE_T_MAX else PY_SSIZE_T_MAX


class UnknowableRead(Exception):
    """torch would read a size from memory past the tensor's size and stride storage."""

    def __init__(self, dim: int, ndim: int) -> None:
        super().__init__(dim, ndim)
        self.dim, self.ndim = dim, ndim


def size_read_past_end(shape: tuple, stride: tuple, dim: int) -> int:
    """What TensorIndexing.h reads as sizes[dim] when two Ellipses push ``dim`` past the end.

    applySelect and applySlice index ``self.sym_sizes()`` with ``operator[]``, which does not
    bounds-check.  c10::SizesAndStrides keeps up to 5 dims inline: 5 size slots, then 5 stride
    slots, zeroed when dims are added (a new view's storage starts zeroed, and no op in the
    language shrinks a tensor in place); past 5 dims one heap block holds ndim sizes then ndim
    strides.  A read inside that storage is exact; one beyond it (inline slot 10 on, heap slot
    2*ndim on) lands in other memory and raises UnknowableRead.
    """
    ndim = len(shape)
    if dim < ndim:
        return shape[dim]
    first_stride_slot = 5 if ndim <= 5 else ndim
    if dim < first_stride_slot:
        return 0
    k = dim - first_stride_slot
    if k >= first_stride_slot:
        raise UnknowableRead(dim, ndim)
    return stride[k] if k < ndim else 0


def _select(
    t, shape: tuple, stride: tuple, offset: int, dim: int, index: int, real_dim: int, items=()
):
    # TensorIndexing.h applySelect: bounds checked against the current dim; the message names
    # the position of the index in the tuple (real_dim), the why also the tensor's own dim.
    if not shape and index == 0 and dim == 0:
        raise torch_error("IndexError", _SCALAR_INDEX, "index_scalar")
    size = size_read_past_end(shape, stride, dim) if shape else 0
    if not (size > -1 - index and size > index):
        raise torch_error(
            "IndexError",
            f"index {index} is out of bounds for dimension {real_dim} with size {size}",
            "index_range",
            index,
            real_dim,
            size,
            items or (index,),
            len(t[0]),
        )
    if dim >= len(shape):  # passed the garbage bounds check: select() itself rejects the dim
        canonicalize_dim(dim, len(shape))
    if index < 0:
        index += size
    offset += index * stride[dim]
    shape, stride = shape[:dim] + shape[dim + 1 :], stride[:dim] + stride[dim + 1 :]
    if offset > INT64_MAX:  # select's int64 offset wraps (empty tensors with huge strides)
        offset = checked_storage_offset(t, shape, stride, offset)
    return shape, stride, offset


def _unsqueeze(t: Tensor, shape: tuple, stride: tuple, offset: int, dim: int):
    dim = canonicalize_dim(dim, len(shape) + 1)
    new_stride = shape[dim] * stride[dim] if dim < len(shape) else 1
    shape, stride = shape[:dim] + (1,) + shape[dim:], stride[:dim] + (new_stride,) + stride[dim:]
    if not 0 <= new_stride <= INT64_MAX:  # wrapped SymInt product (see ops.dims.unsqueeze)
        stride = check_symint_strides(t, shape, stride, offset)
    return shape, stride


def _not_basic(item) -> TypeError:
    return TypeError(f"index {item!r} is not basic indexing (int, slice, None or ...)")


def getitem(t: Tensor, index) -> Outcome:
    """Tensor.__getitem__ (python_variable_indexing.cpp): basic indices make a new view; lists
    of ints, lists of bools and masks make the copy at::index makes (advanced_indexing)."""
    shape, stride, offset = t[0], t[1], t[2]
    if type(index) is list or isinstance(index, Mask):
        index = (index,)  # wrapTuple: a list that holds no sequence, slice, None or ...
    if type(index) is not tuple:  # a single item is applied to dim 0 without the count check
        kind = type(index)
        if kind is int and shape and 0 <= index < shape[0]:  # in-range select of dim 0
            offset += index * stride[0]
            shape, stride = shape[1:], stride[1:]
            if offset > INT64_MAX:  # select's int64 offset wraps (empty tensors, huge strides)
                offset = checked_storage_offset(t, shape, stride, offset)
            result = make_view(t, shape, stride, offset)
            return _new_tuple(Outcome, (result, "getitem", (t, result, (index,))))
        if index is None:
            shape, stride = _unsqueeze(t, shape, stride, offset, 0)
        elif kind is slice:
            shape, stride, offset = slice_layout(t, shape, stride, offset, 0, *_unpack_slice(index))
        elif kind is int:
            shape, stride, offset = _select(t, shape, stride, offset, 0, index, 0)
        elif index is not Ellipsis:
            raise _not_basic(index)
        result = make_view(t, shape, stride, offset)
        return make_outcome(result, "getitem", (t, result, (index,)))
    ndim = len(shape)
    specified = 0
    if any(type(item) is list or isinstance(item, Mask) for item in index):
        index = tuple(canonicalize_advanced(item) for item in index)
    recorded: list[tuple[int, object]] = []  # (dim, list or mask) for at::index
    for item in index:
        kind = type(item)
        if kind is int or kind is slice or kind is Index:
            specified += 1
        elif isinstance(item, Mask | BoolList):
            specified += len(item.shape)  # count_specified_dimensions: a mask counts its dims
        elif item is not None and item is not Ellipsis:
            raise _not_basic(item)  # bools and other values are not in the language
    if specified > ndim:
        raise torch_error(
            "IndexError",
            f"too many indices for tensor of dimension {ndim}",
            "index_too_many",
            ndim,
            specified,
        )
    dim = spanned = 0
    for pos, item in enumerate(index):
        kind = type(item)
        if kind is slice and item.step is None and item.start is None and item.stop is None:
            if dim < len(shape):
                dim += 1  # a bare ":" keeps the dim as it is (applySlice's no-op case)
                continue
        elif kind is int and 0 <= item < (shape[dim] if dim < len(shape) else 0):
            offset += item * stride[dim]  # an in-range select: drop the dim
            shape = shape[:dim] + shape[dim + 1 :]
            stride = stride[:dim] + stride[dim + 1 :]
            if offset > INT64_MAX:  # select's int64 offset wraps (empty, huge strides)
                offset = checked_storage_offset(t, shape, stride, offset)
            continue
        if item is None:
            shape, stride = _unsqueeze(t, shape, stride, offset, dim)
            dim += 1
        elif isinstance(item, Index | Mask | BoolList):
            if isinstance(item, Mask) and not item.shape:
                # a 0-d bool tensor: unsqueeze, then index with [0] if it holds True, else []
                shape, stride = _unsqueeze(t, shape, stride, offset, dim)
                item = Index((0,) * item.flat()[0], (int(item.flat()[0]),), (1,))
            # A mask of rank k stands for k dims of the tensor but is one entry of the index
            # list at::index gets (expandTensors makes it k): the entry's place is the dim less
            # the extra dims of the masks before it (what torch 2.13 does, by its results).
            recorded.append((dim - spanned, item))
            rank = len(item.shape) if isinstance(item, Mask | BoolList) else 1
            dim += rank
            spanned += rank - 1
        elif item is Ellipsis:
            dim += ndim - specified  # a second Ellipsis is not rejected (torch quirk)
        elif type(item) is slice:
            start, stop, step = _unpack_slice(item)
            # applySlice returns the input unchanged when start == 0, step == 1 and
            # sizes[dim] <= stop, reading sizes[dim] unchecked (see size_read_past_end)
            if not (
                start == 0
                and step == 1
                and shape
                and size_read_past_end(shape, stride, dim) <= stop
            ):
                shape, stride, offset = slice_layout(
                    t, shape, stride, offset, dim, start, stop, step
                )
            dim += 1
        else:
            shape, stride, offset = _select(t, shape, stride, offset, dim, item, pos, index)
    # x[()] and x[...] are aliases: a new view object, never x itself
    result = make_view(t, shape, stride, offset)
    if recorded:
        return advanced_index(t, result, recorded)
    return make_outcome(result, "getitem", (t, result, index))
