"""Advanced indexing x[[0, 2]], x[:, [1, 0]], x[mask]: a copy with TensorIterator's layout."""

# python_variable_indexing.cpp applySlicing applies the basic items (ints, slices, None, ...)
# as views and records each list or mask at the dim it stands for; at::index then runs
# (aten/src/ATen/native/TensorAdvancedIndexing.cpp): make_info expands masks into the long
# indices of their nonzero elements (expandTensors), broadcasts the indices (expand_outplace),
# moves them to the front when they are not adjacent (transposeToFront), and AdvancedIndex
# restrides self so each indexed dim becomes the index's shape with stride 0.  The result is
# the output a TensorIterator allocates over (out, restrided self, reshaped indices): see
# compute_iterator_strides.

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from typing import Any

from ..contiguity import is_channels_last_contiguous, is_contiguous, is_non_overlapping_and_dense
from ..dtypes import DEFAULT_FLOAT, DEFAULT_INT, DTYPES
from ..geometry import (
    compute_channels_last_strides,
    compute_contiguous_strides,
    compute_storage_nbytes,
)
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..scalars import cast_unchecked
from ..tensor import DType, Storage, Tensor, format_sizes, new_storage
from ..values import values_of
from ..views import make_tensor
from .reshaping import view

INDEX_ITEMSIZE = 8  # index tensors are int64
COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le,
    "==": operator.eq, "!=": operator.ne,
}


@dataclass(frozen=True, slots=True)
class Mask:
    """A bool tensor ``source <op> scalar`` used as an index; its elements are read lazily."""

    source: Tensor
    op: str
    scalar: int | float | bool

    @property
    def shape(self) -> tuple[int, ...]:
        return self.source[0]

    def flat(self) -> list[bool]:
        """The mask's elements in row-major order (the comparison as torch computes it)."""
        values = values_of(self.source, limit=2**62)
        compute = comparison_dtype(self.source[4], self.scalar)
        right = cast_unchecked(self.scalar, compute)
        compare = COMPARISONS[self.op]
        out: list[bool] = []

        def walk(value: object) -> None:
            if isinstance(value, list):
                for item in value:
                    walk(item)
            else:
                out.append(bool(compare(cast_unchecked(value, compute), right)))

        walk(values)
        return out


def comparison_dtype(dtype: DType, scalar: object) -> DType:
    """at::result_type(tensor, scalar): a Python scalar promotes only across kinds
    (bool < int < float); an int scalar lifts a bool tensor to int64, a float scalar any
    non-float tensor to the default float dtype."""
    if isinstance(scalar, bool) or dtype.kind == "float":
        return dtype
    if isinstance(scalar, int):
        return dtype if dtype.kind == "int" else DEFAULT_INT
    return DEFAULT_FLOAT


@dataclass(frozen=True, slots=True)
class BoolList:
    """A literal list of True/False used as an index: a 1-d bool tensor."""

    values: tuple[bool, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return (len(self.values),)

    def flat(self) -> list[bool]:
        return list(self.values)


def canonicalize_advanced(item: object) -> object:
    """An index item as at::index meets it: a flat list of ints becomes a long Index, a
    non-empty list of bools a BoolList; anything else is returned as it is."""
    if type(item) is list:
        if item and all(isinstance(v, bool) for v in item):
            return BoolList(tuple(item))
        return list_index(item)
    return item


@dataclass(frozen=True, slots=True)
class Index:
    """A long index tensor: its values and layout (1-d here, possibly expanded to stride 0)."""

    values: tuple[int, ...]
    shape: tuple[int, ...]
    stride: tuple[int, ...]


def list_index(items: list) -> Index:
    """sequenceToVariable of a flat list of ints: a contiguous int64 tensor."""
    return Index(tuple(items), (len(items),), (1,))


def bool_indices(shape: tuple[int, ...], flat: list[bool]) -> list[Index]:
    """expandTensors: mask.nonzero() is (k, ndim) with strides (1, k) on CPU, and each
    nonzero.select(1, j) is a 1-d index of stride 1 -- the j-th coordinate of every True
    element in row-major order."""
    coords: list[tuple[int, ...]] = []
    strides = compute_contiguous_strides(shape)
    for pos, value in enumerate(flat):
        if value:
            coords.append(tuple(pos // s % n for s, n in zip(strides, shape, strict=True)))
    return [Index(tuple(c[j] for c in coords), (len(coords),), (1,)) for j in range(len(shape))]


def advanced_index(t: Tensor, sliced: Tensor, recorded: list[tuple[int, object]]) -> Outcome:
    """at::index(sliced, indices) for the lists and masks ``recorded`` at their dims."""
    shape, stride = sliced[0], sliced[1]
    indices: list[object] = []
    for dim, item in recorded:
        while len(indices) < dim:
            indices.append(None)
        indices.append(item)
    if len(indices) > len(shape):  # TORCH_META_FUNC2(index, Tensor)
        raise torch_error("IndexError", f"too many indices for tensor of dimension {len(shape)} "
                          f"(got {len(indices)})", "index_too_many", len(shape), len(indices))
    expanded: list[Index | None] = []  # expandTensors
    for item in indices:
        if isinstance(item, Mask | BoolList):
            mask_shape = item.shape
            for j, size in enumerate(mask_shape):
                src = len(expanded) + j
                if src >= len(shape):
                    raise torch_error(
                        "IndexError", f"Dimension out of range (expected to be in range of "
                        f"[{-max(len(shape), 1)}, {max(len(shape), 1) - 1}], but got {src})",
                        "dim_out_of_range", src, max(len(shape), 1))
                if size != shape[src]:
                    raise torch_error(
                        "IndexError", f"The shape of the mask {format_sizes(mask_shape)} at index "
                        f"{j} does not match the shape of the indexed tensor "
                        f"{format_sizes(shape)} at index {src}",
                        "index_mask_shape", mask_shape, j, shape, src)
            expanded.extend(bool_indices(mask_shape, item.flat()))
        else:
            expanded.append(item if isinstance(item, Index) or item is None else None)
    expanded = broadcast_indices(expanded)
    while len(expanded) < len(shape):
        expanded.append(None)
    positions = [d for d, item in enumerate(expanded) if item is not None]
    if positions != list(range(positions[0], positions[-1] + 1)):  # transposeToFront
        order = positions + [d for d in range(len(shape)) if d not in positions]
        shape = tuple(shape[d] for d in order)
        stride = tuple(stride[d] for d in order)
        expanded = [expanded[d] for d in order]
    return _index_result(t, sliced, shape, stride, expanded)


def broadcast_indices(indices: list[Index | None]) -> list[Index | None]:
    """expand_outplace over the defined indices: the same shape, or all expanded to one."""
    defined = [i for i in indices if i is not None]
    shapes = [i.shape for i in defined]
    if all(s == shapes[0] for s in shapes):
        return indices
    length = 1
    for s in shapes:
        if s[0] != 1:
            if length not in (1, s[0]):
                text = ", ".join(format_sizes(s) for s in shapes)
                raise torch_error("IndexError", "shape mismatch: indexing tensors could not be "
                                  f"broadcast together with shapes {text}", "index_broadcast",
                                  shapes)
            length = s[0]
    return [None if i is None else i if i.shape == (length,) else
            Index(i.values * length, (length,), (0,)) for i in indices]


def _index_result(t: Tensor, sliced: Tensor, shape: tuple, stride: tuple,
                  indices: list[Index | None]) -> Outcome:
    itemsize = t[4].itemsize
    before = after = 0
    indexed: list[tuple[int, int, Index]] = []  # (size, stride, index) of each indexed dim
    replacement: tuple[int, ...] = ()
    for d, item in enumerate(indices):
        if item is None:
            if indexed:
                after += 1
            else:
                before += 1
        else:
            indexed.append((shape[d], stride[d], item))
            replacement = item.shape
    if any(size == 0 for size, _, _ in indexed) and 0 not in replacement:
        raise torch_error("IndexError", "index is out of bounds for dimension with size 0",
                          "index_empty_dim")
    end = before + len(indexed)
    # restride_src: the indexed dims become the index's shape, with stride 0
    src_shape = shape[:before] + replacement + shape[end:]
    src_stride = stride[:before] + (0,) * len(replacement) + stride[end:]
    operands = [(src_shape, src_stride, itemsize)]
    for _, _, index in indexed:  # reshape_indexer: index.reshape([1]*before + shape + [1]*after)
        probe = Tensor(index.shape, index.stride, 0, Storage(2**63 - 1), DTYPES["int64"])
        reshaped = view(probe, (1,) * before + index.shape + (1,) * after)[0]
        operands.append((reshaped[0], reshaped[1], INDEX_ITEMSIZE))
    out_stride, perm = compute_iterator_strides(src_shape, operands)
    result_shape = src_shape
    _check_bounds(result_shape, perm, before, indexed)
    nbytes = compute_storage_nbytes(result_shape, out_stride, itemsize)
    storage = _gather_storage(sliced, result_shape, out_stride, before, shape, stride, indexed,
                              nbytes)
    result = make_tensor(result_shape, out_stride, storage, t[4])
    return make_outcome(result, "getitem_advanced", (t, result, len(indexed)))


def compute_iterator_strides(shape: tuple, operands: list[tuple[tuple, tuple, int]]
                             ) -> tuple[tuple, list[int]]:
    """The output strides TensorIterator (aten/src/ATen/TensorIterator.cpp) gives an undefined
    output over these inputs, and its dim permutation (fastest dim first).

    compute_fast_setup_type: when every input has the output's shape and all are contiguous
    (or all channels-last, or all the same non-overlapping dense strides) the output takes
    that layout.  Otherwise compute_strides (a broadcast dim has byte stride 0),
    reorder_dimensions (an insertion sort of the dims, fastest first, by each operand's
    strides in turn, skipping stride-0 pairs, a tie broken by the smaller size going first),
    and allocate_or_resize_outputs (dense strides in that order; the reversed order is plain
    row-major)."""
    ndim = len(shape)
    if all(op_shape == shape for op_shape, _, _ in operands):
        layouts = [(s, st) for s, st, _ in operands]
        if all(is_contiguous(s, st) for s, st in layouts):
            return compute_contiguous_strides(shape), list(range(ndim - 1, -1, -1))
        if ndim == 4 and all(is_channels_last_contiguous(s, st) for s, st in layouts):
            return compute_channels_last_strides(shape), list(range(ndim - 1, -1, -1))
        if all(is_non_overlapping_and_dense(s, st) for s, st in layouts) and all(
                st == layouts[-1][1] for _, st in layouts):
            return layouts[-1][1], list(range(ndim - 1, -1, -1))
    byte_strides = []
    for op_shape, op_stride, size in operands:
        offset = ndim - len(op_shape)
        strides = [0] * ndim
        for i, (n, s) in enumerate(zip(op_shape, op_stride, strict=True)):
            strides[offset + i] = 0 if n == 1 and shape[offset + i] != 1 else s * size
        byte_strides.append(strides)
    perm = list(range(ndim - 1, -1, -1))
    if ndim > 1:
        def should_swap(dim0: int, dim1: int) -> int:
            for strides in byte_strides:
                stride0, stride1 = strides[dim0], strides[dim1]
                if stride0 == 0 or stride1 == 0:
                    continue
                if stride0 < stride1:
                    return -1
                if stride0 > stride1:
                    return 1
                if shape[dim0] > shape[dim1]:
                    return 1
            return 0

        for i in range(1, ndim):
            dim1 = i
            for dim0 in range(i - 1, -1, -1):
                comparison = should_swap(perm[dim0], perm[dim1])
                if comparison > 0:
                    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                    dim1 = dim0
                elif comparison < 0:
                    break
    if perm == list(range(ndim - 1, -1, -1)):
        return compute_contiguous_strides(shape), perm
    strides_in_order, step = [], 1
    for d in perm:  # compatible_stride over the permuted shape, in elements
        strides_in_order.append(step)
        step *= shape[d]
    out = [0] * ndim
    for position, d in enumerate(perm):  # invert_perm
        out[d] = strides_in_order[position]
    return tuple(out), perm


def _check_bounds(shape: tuple, perm: list[int], before: int,
                  indexed: list[tuple[int, int, Index]]) -> None:
    """cpu_index_kernel checks each index value as it meets it, in the iterator's order
    (perm[0] fastest); the message numbers the index among the indices, not the dim."""
    if prod(shape) == 0:
        return
    length = indexed[0][2].shape[0]
    bad = [(size, index) for size, _, index in indexed
           if any(not -size <= v < size for v in index.values)]
    if not bad:
        return
    # Walk the iteration order only along the index's dim: every element of the other dims
    # meets the same index values, and the first element visited has index 0 in them.
    for k in range(length):
        for j, (size, _, index) in enumerate(indexed):
            value = index.values[k]
            if not -size <= value < size:
                raise torch_error("IndexError", f"index {value} is out of bounds for dimension "
                                  f"{j} with size {size}", "index_list_range", value, j, size)


def _gather_storage(sliced: Tensor, shape: tuple, out_stride: tuple, before: int,
                    src_shape: tuple, src_stride: tuple, indexed: list[tuple[int, int, Index]],
                    nbytes: int):
    """A new storage whose position p holds the element the output index at p reads:
    offset + the kept dims' index × stride + Σ index_j[k] × stride of indexed dim j."""
    read = sliced[3].read
    if read is None:
        return new_storage(nbytes)
    start = sliced[2]
    count = len(indexed)
    kept_stride = src_stride[:before] + src_stride[before + count:]
    terms = [(out_stride[d], shape[d]) for d in range(len(shape))]
    dense_ok = is_non_overlapping_and_dense(shape, out_stride) or prod(shape) <= 1

    def read_at(pos: int) -> object:
        if not dense_ok:
            return None
        idx = [pos // s % n if n > 1 else 0 for s, n in terms]
        k = idx[before]
        p = start
        for d, i in enumerate(idx[:before] + idx[before + 1:]):
            p += i * kept_stride[d]
        for size, step, index in indexed:
            value = index.values[k]
            p += (value + size if value < 0 else value) * step
        return read(p)

    return new_storage(nbytes, read_at)


__all__ = ["COMPARISONS", "BoolList", "Index", "Mask", "advanced_index", "canonicalize_advanced",
           "list_index"]
