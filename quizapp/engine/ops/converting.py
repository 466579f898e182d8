"""Tensor.to(memory_format=..., copy=...): self when no conversion is needed, else a clone."""

from __future__ import annotations

from ..contiguity import suggest_memory_format
from ..outcome import Outcome, make_outcome
from ..tensor import Tensor
from ..views import validate_sizes_nonnegative
from .copying import clone


def to(t: Tensor, memory_format: str | None = None, copy: bool = False) -> Outcome:
    """Tensor.to(*, memory_format, copy) on the same dtype and device (TensorConversions.cpp).

    The Python binding (THPVariable_to) returns self when nothing is asked; otherwise
    at::native::to returns self when ``to_will_alias`` holds: no copy=True, and the format is
    preserve_format or equals ``suggest_memory_format()`` (a comparison of formats, not a
    contiguity check).  Else ``_to_copy`` allocates exactly as clone(memory_format) does:
    preserve_format keeps dense strides or infers dense ones, a concrete format lays out the
    copy with at::empty(sizes, memory_format) (rank errors included).
    """
    fmt = "preserve_format" if memory_format is None else memory_format
    suggested = suggest_memory_format(t[0], t[1])
    if not copy and (fmt == "preserve_format" or suggested == fmt):
        return make_outcome(t, "to_same", (t, fmt, suggested))
    shape = t[0]
    if shape and min(shape) < 0:  # expand's negative-size quirk: the allocation refuses it
        validate_sizes_nonnegative(shape, ".to()")
    result = clone(t, fmt)[0]
    return make_outcome(result, "to_copy", (t, result, fmt, suggested, copy))
