"""Tensor.flip(dims): a copy whose elements run backwards along the dims given."""

from __future__ import annotations

from ..geometry import canonicalize_dim
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import Tensor
from ..views import make_tensor
from .copying import clone, copy_storage

_new_tuple = tuple.__new__


def flip(t: Tensor, dims: tuple[int, ...]) -> Outcome:
    """aten/src/ATen/native/TensorTransformations.cpp flip: dim_list_to_bitset wraps each dim
    (maybe_wrap_dim, a 0-d tensor taking -1 and 0) and refuses one seen twice; then the result
    is ``at::empty_like(self, MemoryFormat::Preserve)`` -- the layout clone() gives: the same
    strides for a dense, non-overlapping input, else infer_dense_strides -- filled with
    out[i] = self[..., size - 1 - i, ...] along every flipped dim.  Always a new storage, even
    for no dims or a single element (the kernel's fast path still copies)."""
    shape, stride = t[0], t[1]
    seen: list[int] = []
    for dim in dims:
        wrapped = canonicalize_dim(dim, len(shape))
        if wrapped in seen:
            raise torch_error("RuntimeError",
                              f"dim {wrapped} appears multiple times in the list of dims",
                              "flip_repeated", dims, wrapped)
        seen.append(wrapped)
    layout = clone(t, "preserve_format")[0]  # empty_like(Preserve) and its checks
    # The source read backwards: along a flipped dim, start at its last element and step back.
    offset, mirrored = t[2], list(stride)
    for d in seen if shape else ():
        if shape[d] > 1:
            offset += (shape[d] - 1) * stride[d]
            mirrored[d] = -stride[d]
    source = _new_tuple(Tensor, (shape, tuple(mirrored), offset, t[3], t[4], False, None))
    storage = copy_storage(source, layout[1], layout[3].nbytes)
    result = make_tensor(layout[0], layout[1], storage, t[4])
    return make_outcome(result, "flip", (t, result, tuple(sorted(seen))))
