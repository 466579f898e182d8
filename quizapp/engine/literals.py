"""torch.tensor(data): dtype inference, shape inference and element storage for nested lists."""

from __future__ import annotations

from .dtypes import BOOL, DEFAULT_FLOAT, DEFAULT_INT, promote_types
from .reasons import torch_error
from .scalars import convert_for_tensor
from .tensor import DType

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_SEQUENCES = (list, tuple)


def infer_scalar_type(obj) -> DType:
    """tensor_new.cpp infer_scalar_type: bool < int64 < float, an empty list counts as float."""
    if isinstance(obj, bool):
        return BOOL
    if isinstance(obj, int):
        return DEFAULT_INT
    if isinstance(obj, float):
        return DEFAULT_FLOAT
    if isinstance(obj, _SEQUENCES):
        if not obj:
            return DEFAULT_FLOAT
        result = infer_scalar_type(obj[0])
        for item in obj[1:]:
            result = promote_types(result, infer_scalar_type(item))
        return result
    raise TypeError(f"torch.tensor() data must be numbers or lists, not {type(obj).__name__}")


def compute_sizes(obj) -> tuple:
    """tensor_new.cpp compute_sizes: follow the first element down while it is a sequence."""
    sizes = []
    while isinstance(obj, _SEQUENCES):
        sizes.append(len(obj))
        if not obj:
            break
        obj = obj[0]
    return tuple(sizes)


def _store_scalar(obj, dtype: DType):
    # python_scalars.h store_scalar: a sequence where a number belongs is a TypeError
    if isinstance(obj, _SEQUENCES):
        kind = type(obj).__name__
        if dtype.kind == "float":
            raise torch_error("TypeError", f"must be real number, not {kind}", "tensor_leaf", kind)
        raise torch_error(
            "TypeError", f"'{kind}' object cannot be interpreted as an integer", "tensor_leaf", kind
        )
    if dtype.kind == "int" and isinstance(obj, int) and not INT64_MIN <= obj <= INT64_MAX:
        raise torch_error(
            "ValueError", "Overflow when unpacking long long", "tensor_int_range", obj
        )
    return convert_for_tensor(obj, dtype)


def _recursive_store(obj, sizes: tuple, dim: int, dtype: DType, out: list) -> None:
    # tensor_new.cpp recursive_store: every sequence at dim must have length sizes[dim]
    if dim == len(sizes):
        out.append(_store_scalar(obj, dtype))
        return
    if not isinstance(obj, _SEQUENCES):
        raise torch_error("TypeError", "not a sequence", "tensor_not_sequence", dim)
    if len(obj) != sizes[dim]:
        raise torch_error(
            "ValueError",
            f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(obj)})",
            "tensor_ragged",
            sizes[dim],
            dim,
            len(obj),
        )
    for item in obj:
        _recursive_store(item, sizes, dim + 1, dtype, out)


def parse_tensor_data(data, dtype: DType | None) -> tuple[tuple, list, DType]:
    """(shape, flat row-major element values, dtype) for torch.tensor(data, dtype=dtype)."""
    if dtype is None:
        dtype = infer_scalar_type(data)
    sizes = compute_sizes(data)
    numel = 1
    for s in sizes:
        numel *= s
    flat: list = []
    if numel:  # an empty result is never walked, so [[], [1]] is accepted as shape (2, 0)
        _recursive_store(data, sizes, 0, dtype, flat)
    return sizes, flat, dtype
