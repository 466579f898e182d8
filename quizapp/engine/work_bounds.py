"""Bounds on the work a step may ask of torch_explain, which really allocates what it runs."""

from __future__ import annotations

import math

from quizapp.engine.expression import ExpressionError, Step

MAX_ALLOCATED_ELEMENTS = 2**24  # torch_explain really allocates constructors and copies
MAY_COPY = frozenset({"reshape", "reshape_as", "ravel", "flatten", "contiguous", "clone", "to",
                      "flip"})
MAX_PIECES = 2**16  # split/chunk/unbind/tensor_split: torch really builds every piece


def compute_piece_count(name: str, kwargs: dict, shape: tuple[int, ...]) -> int | None:
    """How many tensors a tuple op returns, or None when torch refuses the arguments anyway."""
    dim = kwargs["dim"]
    if not -len(shape) <= dim < len(shape):
        return None
    size = shape[dim]
    if name == "unbind":
        return size
    value = kwargs.get("split_size", kwargs.get("chunks", kwargs.get("indices_or_sections")))
    if isinstance(value, tuple):
        return len(value) + (name == "tensor_split")
    # split, chunk and tensor_split each bind one of those (their signatures require it).
    assert value is not None
    if value <= 0:
        return None
    if name == "split":
        return max(-(-size // value), 1)
    if name == "chunk":
        return value if size == 0 else min(value, size)
    return value  # tensor_split(sections) always makes exactly that many


def validate_constructor_size(step: Step, kwargs: dict) -> None:
    """Refuse constructors whose storage would exceed the allocation bound (torch allocates it)."""
    count = _storage_elements(step.name, kwargs)
    if count is not None and count > MAX_ALLOCATED_ELEMENTS:
        raise ExpressionError(f"expected a constructor of at most {MAX_ALLOCATED_ELEMENTS} "
                              f"elements, got {count}", step.column)


def _storage_elements(name: str, kwargs: dict) -> int | float | None:
    """Elements the constructor allocates, or None when torch will refuse it anyway."""
    if name == "tensor":
        return None
    if name == "arange":
        start, end, step = kwargs["start"], kwargs["end"], kwargs["step"]
        if step == 0 or (end - start) * step < 0:
            return None
        count = (end - start) / step
        return math.ceil(count) if math.isfinite(count) else count
    size = kwargs["size"]
    if any(s < 0 for s in size):
        return None
    if name != "empty_strided":
        return math.prod(size)
    stride = kwargs["stride"]
    if len(stride) != len(size) or any(s < 0 for s in stride) or 0 in size:
        return None
    return 1 + sum((s - 1) * st for s, st in zip(size, stride, strict=True))
