"""Wrong answers people really give, computed from the right facts (never used as answers)."""

from __future__ import annotations

from collections.abc import Sequence

from quizapp.engine.geometry import compute_channels_last_strides, compute_contiguous_strides


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    """Row-major strides, as for a fresh tensor of ``shape`` (size-0 dims counted as 1)."""
    return list(compute_contiguous_strides(tuple(shape)))


def column_major_strides(shape: Sequence[int]) -> list[int]:
    """Strides counted from the wrong end: the first dim gets stride 1."""
    return contiguous_strides(shape[::-1])[::-1]


def inclusive_strides(shape: Sequence[int]) -> list[int]:
    """Each dim's stride wrongly including its own size."""
    return [s * max(n, 1) for s, n in zip(contiguous_strides(shape), shape, strict=True)]


def in_bytes(values: Sequence[int], itemsize: int) -> list[int] | None:
    """The same numbers in bytes (None when that changes nothing)."""
    if itemsize == 1:
        return None
    return [v * itemsize for v in values]


def position_of(index: Sequence[int], strides: Sequence[int], offset: int = 0) -> int:
    """Storage position of ``index`` under ``strides`` (used to price a wrong stride assumption)."""
    return offset + sum(i * s for i, s in zip(index, strides, strict=True))


STRIDE_MISTAKES = {
    "contiguous": (
        "Those are the contiguous strides for this shape, but the tensor was permuted or sliced: "
        "views keep the strides of the memory they walk."
    ),
    "bytes": "Those are byte strides; torch counts strides in elements, whatever the dtype.",
    "previous": "Those are the strides before the last call ({code}); apply it too.",
    "column_major": (
        "You counted from the wrong end: in a fresh tensor the last dimension has stride 1."
    ),
}


def channels_last_strides(shape: Sequence[int]) -> list[int]:
    """NHWC-order strides for an (N, C, H, W) or (N, C, D, H, W) shape."""
    return list(compute_channels_last_strides(tuple(shape)))


def naive_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Contiguity judged without the size-1 exemption (what people often check by eye)."""
    return list(strides) == contiguous_strides(shape)


def nest(flat: Sequence[int], shape: Sequence[int]) -> object:
    """``flat`` poured into ``shape`` row by row (what people get reading storage in order)."""
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat[: shape[0]])
    block = 1
    for s in shape[1:]:
        block *= s
    return [nest(flat[i * block : (i + 1) * block], shape[1:]) for i in range(shape[0])]
