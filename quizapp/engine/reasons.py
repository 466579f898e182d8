"""Plain-English `why` sentences for op outcomes, rendered lazily from a key and the numbers."""

from __future__ import annotations

from collections.abc import Callable

from .copy_reasons import COPY_WHY, DENSE_ORDER_RULE
from .error_reasons import ERROR_WHY
from .tensor import TorchError
from .view_chunks import chunks_text, count_text, refused_view_text, shape_text


def _view(t, shape, stride):
    if not t[0]:
        return (
            f"a 0-d tensor holds one element, so view gives every new dim stride 1: "
            f"{shape_text(stride)}"
        )
    if 0 in t[0]:
        kept = "keeps the old strides (same shape)" if shape == t[0] else "gets row-major strides"
        return f"an empty tensor addresses no memory, so view {kept}: {shape_text(stride)}"
    return (
        f"view keeps storage and offset {t[2]}: {chunks_text(t[0], t[1])}, and new shape "
        f"{shape_text(shape)} can be laid over that memory with strides {shape_text(stride)}"
    )


def _copy(t, shape, op):
    return (
        f"{op} had to copy: shape {shape_text(shape)} does not fit the old memory as it lies, "
        f"so the elements went into a new contiguous storage in row-major order; "
        f"{refused_view_text(t[0], t[1], shape)}"
    )


def index_text(index: tuple) -> str:
    """An index tuple as it was typed: [1, :, ::2, None, ...]."""

    def item_text(item) -> str:
        if isinstance(item, slice):
            text = "" if item.start is None else str(item.start)
            text += ":" + ("" if item.stop is None else str(item.stop))
            return text + ("" if item.step is None else f":{item.step}")
        return "..." if item is Ellipsis else str(item)

    return "[" + ", ".join(map(item_text, index)) + "]"


def _getitem(t, result, index):
    return (
        f"basic indexing {index_text(index)} only selects, slices and inserts dims, so the result "
        f"is a view: shape {shape_text(result[0])}, strides {shape_text(result[1])}, "
        f"offset {result[2]}"
    )


def _select(t, result, dim, index):
    d = dim % len(t[0])
    return (
        f"select removes dim {d} (size {t[0][d]}) and moves the offset by "
        f"{index % t[0][d]}×{t[1][d]} to {result[2]}"
    )


def _tensor_split_sections(t, d, sections, count):
    base, extra = divmod(t[0][d], sections)
    if extra == 0:
        longer = f"so every piece has {base}"
    elif extra == 1:
        longer = "so the first one is one longer"
    else:
        longer = f"so the first {extra} are one longer"
    return (
        f"tensor_split makes {count_text(count, 'view')} along dim {d}: "
        f"{t[0][d]} = {sections}×{base} + {extra}, {longer}"
    )


OUTCOME_WHY: dict[str, Callable[..., str]] = {
    "view": _view,
    "reshape_alias": lambda t, shape, stride: (
        "reshape needed no copy, so it returned a view: " + _view(t, shape, stride)
    ),
    "flatten_alias": lambda t, shape, stride: (
        "flatten needed no copy, so it returned a view: " + _view(t, shape, stride)
    ),
    "reshape_copy": lambda t, shape: _copy(t, shape, "reshape"),
    "flatten_copy": lambda t, shape: _copy(t, shape, "flatten"),
    "flatten_same": lambda t, d: (
        f"start_dim and end_dim are both {d}, so flatten returns the same tensor"
    ),
    "ravel": lambda t, flat, copied: (
        "ravel is contiguous().view(-1): "
        + (
            f"strides {shape_text(t[1])} are not row-major, so it first copies, then views the copy"
            if copied
            else f"the input is contiguous, so it is a view at offset {flat[2]}"
        )
    ),
    "unflatten": lambda t, result, d, sizes: (
        f"unflatten splits dim {d} (size {t[0][d] if t[0] else 1}) into "
        f"{shape_text(result[0][d : d + len(sizes)])}, "
        f"a view with strides {shape_text(result[1])}"
    ),
    **COPY_WHY,
    "detach": lambda t: "detach shares the storage and layout but is not a view and has no _base",
    "squeeze": lambda t, shape, dim: (
        f"squeeze drops size-1 dims with their strides: {shape_text(t[0])} becomes "
        f"{shape_text(shape)}"
        if shape != t[0]
        else f"squeeze found no size-1 dim to drop in {shape_text(t[0])}, but "
        "still returns a new view"
    ),
    "unsqueeze": lambda t, result, d: (
        f"unsqueeze inserts a size-1 dim at {d} with stride {result[1][d]} "
        + ("(size*stride of the dim it precedes)" if d < len(t[0]) else "(1, as the new last dim)")
    ),
    "permute": lambda t, result, order: (
        f"permute{shape_text(order)} reorders sizes and strides to {shape_text(result[0])} and "
        f"{shape_text(result[1])}; no data moves"
    ),
    "transpose": lambda t, result, a, b: (
        f"transpose swaps dims {a} and {b}: strides {shape_text(t[1])} become "
        f"{shape_text(result[1])}"
    ),
    "transpose_same": lambda t, a, b: (
        f"transposing dim {a} with dim {b} changes nothing, but is still a new view"
    ),
    "mT_scalar": lambda t: "mT of a 0-d tensor returns the same tensor",
    "movedim": lambda t, order: f"movedim is permute{shape_text(order)}: dims move, data does not",
    "expand": lambda t, result: (
        f"expand repeats size-1 dims without copying: shape {shape_text(result[0])} with strides "
        f"{shape_text(result[1])}, where stride 0 reads the same element again"
    ),
    "narrow": lambda t, result, d, start, length: (
        f"narrow keeps {count_text(length, 'entry')} of dim {d} from {start}: offset "
        f"{t[2]} + {start}×{t[1][d]} = {result[2]}"
    ),
    "select": _select,
    "unbind": lambda t, d, count: (
        f"unbind gives {count_text(count, 'view')}, one select per index of dim {d}"
    ),
    "split": lambda t, d, size, count: (
        f"split gives {count_text(count, 'view')} of at most {size} along dim {d}"
    ),
    "split_sizes": lambda t, d, sizes: (
        f"split gives views of sizes {shape_text(sizes)} along dim {d}"
    ),
    "chunk": lambda t, d, chunks, size, count: (
        f"chunk({chunks}) splits dim {d} into pieces of ceil({t[0][d]}/{chunks}) = {size}, "
        f"which makes {count_text(count, 'view')}"
    ),
    "tensor_split_sections": _tensor_split_sections,
    "tensor_split_indices": lambda t, d, indices: (
        f"tensor_split cuts dim {d} at {shape_text(indices)} (clamped like slices) into views"
    ),
    "getitem": _getitem,
    "view_dtype": lambda t, result: (
        f"view(torch.{result[4].name}) reads the same bytes of the same storage as "
        f"{result[4].name}: " + (
            "the element size is the same, so shape, strides and offset stay"
            if t[4].itemsize == result[4].itemsize else
            f"each {t[4].name} element is {t[4].itemsize} bytes and each {result[4].name} "
            f"{result[4].itemsize}, so the last size, the offset and the other strides are "
            f"scaled by that ratio: shape {shape_text(result[0])}, strides "
            f"{shape_text(result[1])}, offset {result[2]}") + "; torch does not count it as a "
        "view (no _base)"
    ),
    "getitem_advanced": lambda t, result, count: (
        f"a list or mask in the index is advanced indexing, which always copies: "
        f"{count_text(count, 'indexed dim')} picked element by element into a new storage "
        f"with shape {shape_text(result[0])} and strides {shape_text(result[1])}, dense in the "
        f"order torch's iterator walks the input (a mask picks its True elements in row-major "
        f"order)"
    ),
    "diagonal": lambda t, result, offset, d1, d2: (
        f"diagonal walks dims {d1} and {d2} together with stride {result[1][-1]} (their sum), "
        f"{count_text(result[0][-1], 'entry')} from offset {result[2]}"
    ),
    "unfold": lambda t, result, d, size, step: (
        f"unfold makes windows of size {size} every {step} along dim {d}: "
        f"{count_text(result[0][d] if t[0] else 1, 'window')}, window stride {result[1][-1]}"
    ),
    "as_strided": lambda t, result: (
        f"as_strided takes shape {shape_text(result[0])}, strides {shape_text(result[1])} "
        f"and offset "
        f"{result[2]} as given, over the same storage"
    ),
    "factory_filled": lambda factory, result, element: (
        f"{factory} allocates a new contiguous storage for shape {shape_text(result[0])} "
        f"(strides {shape_text(result[1])}) and fills every element with {element!r}"
    ),
    "factory_unknown": lambda factory, result: (
        f"{factory} allocates a new storage of {count_text(result[3].nbytes, 'byte')} with strides "
        f"{shape_text(result[1])}; its values are not known in advance"
    ),
    "factory_arange": lambda result, start, end, step: (
        f"arange counts from {start} up to (not including) {end} in steps of {step}: "
        f"{count_text(result[0][0], result[4].name + ' element')} in a new 1-d storage"
    ),
    "factory_tensor": lambda result: (
        f"tensor copies the nested lists into a new contiguous {result[4].name} storage of shape "
        f"{shape_text(result[0])}"
    ),
}


__all__ = ["DENSE_ORDER_RULE", "OUTCOME_WHY", "index_text", "render_why", "torch_error"]


def render_why(key: str, params: tuple) -> str:
    """The sentence for an outcome (or, for an error key, the broken rule)."""
    template = OUTCOME_WHY.get(key) or ERROR_WHY.get(key)
    if template is None:
        return key.replace("_", " ")
    return template(*params)


def torch_error(type_name: str, message: str, key: str, *params) -> TorchError:
    """A TorchError whose `why` names the rule that was broken, in plain English."""
    return TorchError(type_name, message, render_why(key, params), (key, params))
