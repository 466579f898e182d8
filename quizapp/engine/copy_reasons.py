"""Plain-English `why` sentences of the copying ops: contiguous, clone, flip and .to(format)."""

from __future__ import annotations

from collections.abc import Callable

from .contiguity import is_contiguous, is_contiguous_in_format, is_non_overlapping_and_dense
from .view_chunks import shape_text

_FORMAT_NAMES = {
    "contiguous_format": "row-major contiguous",
    "channels_last": "channels-last contiguous",
    "channels_last_3d": "channels-last-3d contiguous",
}


def _contiguous_same(t, fmt):
    return (
        f"strides {shape_text(t[1])} are already {_FORMAT_NAMES[fmt]} for shape "
        f"{shape_text(t[0])}, so contiguous() returns the very same tensor"
    )


def _contiguous_copy(t, result, fmt):
    note = (
        " (an empty tensor counts as row-major, not as channels-last)"
        # Reference 3.2: no zero-numel shortcut for channels-last, unlike row-major contiguity.
        if (fmt != "contiguous_format" and 0 in t[0] and is_contiguous(t[0], t[1]))
        else ""
    )
    return (
        f"strides {shape_text(t[1])} are not {_FORMAT_NAMES[fmt]} for shape {shape_text(t[0])}"
        f"{note}, so contiguous() copied into a new storage with strides {shape_text(result[1])}"
    )


# at::infer_dense_strides (ATen/ExpandUtils.cpp) sorts the dims, from row-major order, with a
# comparison that declines to order a stride-0 dim against any other and breaks a tie of strides
# by size: the same order as this rule (tests/engine check it against torch's clone()).
DENSE_ORDER_RULE = ("from row-major order, dims are sorted by stride, smallest innermost; a "
                    "stride-0 dim keeps its row-major place, and of two equal strides the "
                    "smaller size goes inside")


def _preserve_how(t):
    if is_non_overlapping_and_dense(t[0], t[1]):
        return "the input is dense and non-overlapping, so its strides are kept as they are"
    return (
        f"the input strides {shape_text(t[1])} overlap or leave gaps, so dense strides are "
        f"inferred in their order: {DENSE_ORDER_RULE}"
    )


def _clone(t, result, fmt):
    how = f"laid out in {fmt.replace('_', ' ')}" if fmt != "preserve_format" else _preserve_how(t)
    return (
        f"clone always copies into a new storage at offset 0 with strides "
        f"{shape_text(result[1])}: {how}"
    )


_FORMAT_LAYOUTS = {
    "contiguous_format": "row-major, last dim innermost",
    "channels_last": "channels-last, C innermost (stride 1), then W, H and N outermost",
    "channels_last_3d": "channels-last-3d, C innermost (stride 1), then W, H, D and N outermost",
}


_CL_NAMES = {4: ((1, "C"), (3, "W"), (2, "H"), (0, "N")),
             5: ((1, "C"), (4, "W"), (3, "H"), (2, "D"), (0, "N"))}


def _not_channels_last(shape, stride):
    """Which check of c10::is_channels_last_strides_2d/3d fails (the suggestion is row-major)."""
    if stride[1] == 0:
        return "C (dim 1) has stride 0"
    minimum, inside = 0, ""
    for d, name in _CL_NAMES[len(shape)]:
        if shape[d] == 0:
            return f"{name} (dim {d}) is empty"
        if stride[d] < minimum:
            return (f"{name} (dim {d}) has stride {stride[d]}, but {inside}, which channels-last "
                    f"puts inside it, already spans {minimum}")
        if d == 0 and minimum == stride[1]:
            return "N's stride equals C's, an ambiguous layout that counts as row-major"
        minimum, inside = stride[d] * (shape[d] if shape[d] > 1 else 1), f"{name} (dim {d})"
    return "they are not ordered C, W, H..."


def _suggestion(t, suggested):
    """Why suggest_memory_format gave ``suggested`` for these strides."""
    if suggested != "contiguous_format":
        order = "C, W, H, N" if suggested == "channels_last" else "C, W, H, D, N"
        return (f"strides {shape_text(t[1])} grow in channels-last order ({order}), so torch "
                f"suggests {suggested} for them")
    if len(t[0]) not in (4, 5):
        return (f"a {len(t[0])}-d tensor always suggests contiguous_format (the channels-last "
                "formats need 4 or 5 dims)")
    return (f"strides {shape_text(t[1])} are not channels-last ordered ("
            f"{_not_channels_last(t[0], t[1])}), so torch suggests contiguous_format for them")


def _to_same(t, fmt, suggested):
    if fmt == "preserve_format":
        return ("with preserve_format (the default) and no copy=True, .to() has nothing to "
                "convert, so it returns the very same tensor, strides and all")
    note = ("" if is_contiguous_in_format(t[0], t[1], fmt)
            else f"; the strides are not even {_FORMAT_NAMES[fmt]}, which .to() never checks")
    return (f"{_suggestion(t, suggested)}: that is the format asked for, so .to() returns the very "
            f"same tensor without copying{note}")


def _to_copy(t, result, fmt, suggested, copy):
    if copy:
        why = "copy=True always copies"
    else:
        why = f"{_suggestion(t, suggested)}; that is not the {fmt} asked for, so .to() copies"
        if is_contiguous_in_format(t[0], t[1], fmt):
            why += (f", although the strides are already {_FORMAT_NAMES[fmt]} (.to() compares "
                    "formats; contiguous(memory_format=...) would return the same tensor)")
    how = _preserve_how(t) if fmt == "preserve_format" else f"laid out {_FORMAT_LAYOUTS[fmt]}"
    return (f"{why}: the copy goes into a new storage at offset 0 with strides "
            f"{shape_text(result[1])}, {how}")


def _flip(t, result, dims):
    along = ("no dim, so the elements keep their order" if not dims else
             "dim " + ", ".join(map(str, dims)) if len(dims) == 1 else
             "dims " + ", ".join(map(str, dims)))
    return (f"flip always copies, reversing {along}, into a new storage at offset 0 with "
            f"strides {shape_text(result[1])} (clone's layout): {_preserve_how(t)}")


COPY_WHY: dict[str, Callable[..., str]] = {
    "flip": _flip,
    "clone_dense": _clone,
    "clone_inferred": _clone,
    "clone_format": _clone,
    "contiguous_same": _contiguous_same,
    "contiguous_copy": _contiguous_copy,
    "to_same": _to_same,
    "to_copy": _to_copy,
}
