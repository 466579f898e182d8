"""Plain-English `why` sentences for torch errors: the rule the arguments broke, with numbers."""

from __future__ import annotations

from collections.abc import Callable

from .view_chunks import count_text, refused_view_text, shape_text


def _dim_range(dim, ndim):
    n = max(ndim, 1)
    return (
        f"dim {dim} is outside the {n} valid positions {-n}..{n - 1} "
        f"(negative dims count from the end"
        f"{'; a 0-d tensor accepts -1 and 0' if ndim <= 0 else ''})"
    )


def _numel_mismatch(shape, numel, newsize):
    return (
        f"a view or reshape keeps every element, but shape {shape_text(shape)} holds "
        f"{count_text(newsize, 'element')} while the tensor has {numel}"
    )


def _expand_mismatch(shape, sizes, i, target, size):
    return (
        f"expand can only grow size-1 dims: target dim {i} asks for {target} but the tensor's "
        f"matching dim has size {size}"
    )


def _storage_overflow(shape, stride):
    layout = f"shape {shape_text(shape)}" + (
        f" with strides {shape_text(stride)}" if stride else ""
    )
    return f"the bytes needed by {layout} do not fit in a signed 64-bit integer"


def _bounds(size, stride, offset, itemsize, total, available):
    return (
        f"the last element of shape {shape_text(size)} with strides {shape_text(stride)} from "
        f"offset {offset} ends at byte {total}, past the storage's "
        f"{count_text(available, 'byte')}"
    )


def _index_range(index, real_dim, size, items=None, ndim=None):
    """The range broken, on the tensor's own dim: torch's message numbers the index's entries,
    and a '...' or None before the entry makes that number differ from the tensor's dim."""
    items = (index,) if items is None else items
    ndim = real_dim + 1 if ndim is None else ndim
    before = items[:real_dim]
    specified = sum(type(i) is int or type(i) is slice for i in items)
    ellipses = sum(i is Ellipsis for i in before)
    dim = sum(type(i) is int or type(i) is slice for i in before) + ellipses * (ndim - specified)
    if dim >= ndim or ellipses > 1:  # a second '...' reads past the sizes: no dim of the tensor
        if size:
            where = f"the dim indexed at position {real_dim}"
            return f"index {index} is outside -{size}..{size - 1} for {where}"
        return f"index {index} addresses a dim of size 0 at position {real_dim}"
    if size:
        where = f"the tensor's dim {dim} (size {size})"
        text = f"index {index} is outside -{size}..{size - 1} for {where}"
    else:
        text = f"index {index} addresses the tensor's dim {dim}, which has size 0"
    if dim == real_dim:
        return text
    counted = []
    if ellipses:
        counted.append(f"after the '...' (which stands for {count_text(ndim - specified, 'dim')})")
    if any(i is None for i in before):
        counted.append("without the None entries (they add new dims)")
    return (
        f"{text}: torch's message says dimension {real_dim} because it numbers the entries of "
        f"the index, but counted {' and '.join(counted)} that entry is the tensor's dim {dim}"
    )


ERROR_WHY: dict[str, Callable[..., str]] = {
    "dim_on_scalar": lambda dim: f"a 0-d tensor has no dim {dim} to work on",
    "dim_out_of_range": _dim_range,
    "numel_overflow": lambda shape: f"the element count of {shape_text(shape)} overflows 64 bits",
    "two_inferred": lambda shape: (
        f"shape {shape_text(shape)} has more than one -1; only one size can be inferred"
    ),
    "negative_size": lambda shape, i: (
        f"size {shape[i]} at index {i} is negative and only -1 means 'infer'"
    ),
    "numel_mismatch": _numel_mismatch,
    "numel_not_divisible": lambda shape, numel, newsize: (
        f"the -1 in {shape_text(shape)} must make the product {numel}, but the other sizes "
        f"multiply to {newsize}, which does not divide {numel}"
    ),
    "ambiguous_inferred": lambda shape: (
        f"the tensor is empty and the other sizes of {shape_text(shape)} multiply to 0, so any "
        "value for -1 would fit"
    ),
    "stride_overflow": lambda shape: f"row-major strides for {shape_text(shape)} overflow 64 bits",
    "storage_overflow": _storage_overflow,
    "view_refused": lambda shape, stride, new_shape: (
        "view never copies, so the new shape has to fit the memory as it lies, and it does "
        "not: " + refused_view_text(shape, stride, new_shape)
    ),
    "flatten_order": lambda sd, ed, s, e: (
        f"start_dim {sd} (dim {s}) comes after end_dim {ed} (dim {e})"
    ),
    "unflatten_empty": lambda: "unflatten needs at least one size to split the dim into",
    "unflatten_scalar": lambda dim: "a 0-d tensor has no dim to unflatten",
    "unflatten_unexpected": lambda inner: f"the sizes were rejected while inferring -1: {inner}",
    "unflatten_mismatch": lambda sizes, d, size: (
        f"the sizes {shape_text(sizes)} must multiply to dim {d}'s size {size}"
    ),
    "memory_format_rank": lambda fmt, rank, ndim: (
        f"{fmt} orders the dims of a {rank}-d (N, C, ...) tensor, but this one is {ndim}-d"
    ),
    "contiguous_preserve": lambda shape, stride: (
        "with preserve_format, contiguous() raises only when it would have to copy: it returns "
        "a tensor that is already row-major contiguous as it is, but strides "
        f"{shape_text(stride)} are not row-major for shape {shape_text(shape)}, and "
        "preserve_format names no target layout for the copy"
    ),
    "repeated_dim": lambda dims, d: f"dim {d} is listed twice in {shape_text(dims)}",
    "permute_length": lambda ndim, dims: (
        f"permute needs one entry per dim: {len(dims)} given for a {ndim}-d tensor"
    ),
    "permute_repeated": lambda dims, d: f"permute{shape_text(dims)} names dim {d} twice",
    "t_rank": lambda ndim: f"t() only transposes tensors of at most 2 dims; this one has {ndim}",
    "mT_rank": lambda: "mT swaps the last two dims, and a 1-d tensor has only one",
    "movedim_length": lambda src, dst: (
        f"movedim pairs sources with destinations: {count_text(len(src), 'source')} but "
        f"{count_text(len(dst), 'destination')}"
    ),
    "movedim_repeated": lambda name, given: f"the {name} dims {shape_text(given)} repeat a dim",
    "expand_too_few": lambda shape, sizes: (
        f"expand can add dims but not remove them: {count_text(len(sizes), 'size')} for a "
        f"{len(shape)}-d tensor"
    ),
    "expand_leading_minus_one": lambda sizes, i: (
        f"-1 means 'keep this size', but new leading dim {i} has no size to keep"
    ),
    "expand_mismatch": _expand_mismatch,
    "slice_scalar": lambda: "a 0-d tensor has no dim to slice",
    "slice_step": lambda step: f"slice steps must be positive; got {step}",
    "symint_range": lambda value: (
        f"{value} is below -2**62, the least value a torch SymInt holds as a plain integer, so "
        "the kernel, which takes plain integers, refuses it"
    ),
    "unbind_negative": lambda count, d: (
        f"dim {d} has the negative size {count} (expand lets one through on an empty tensor), "
        "and unbind cannot make a negative number of tensors"
    ),
    "slice_step_zero": lambda: "a slice step of 0 would never advance",
    "slice_step_negative": lambda step: (
        f"torch tensors cannot be reversed by slicing (step {step}); use flip"
    ),
    "narrow_scalar": lambda: "a 0-d tensor has no dim to narrow",
    "view_dtype_scalar": lambda old, new: (
        f"a 0-d tensor has no last dim whose size could absorb the change from {old} to {new}, "
        "whose elements have different sizes"
    ),
    "view_dtype_stride": lambda old, new, d, stride, need: (
        f"viewing {old} as {new} regroups the bytes of neighbouring elements, so the last dim "
        f"must be dense (stride 1), not {stride}" if d == -1 else
        f"viewing {old} as {new} divides every stride by the element-size ratio {need}, and "
        f"stride[{d}] = {stride} does not divide"
    ),
    "view_dtype_size": lambda old, new, value, ratio: (
        f"each {new} element takes the bytes of {ratio} {old} elements, so the last size must be "
        f"a multiple of {ratio}, not {value}"
    ),
    "view_dtype_offset": lambda old, new, value, ratio: (
        f"the offset counts {old} elements; as {new} it must fall on a whole element, a "
        f"multiple of {ratio}, not {value}"
    ),
    "flip_repeated": lambda dims, d: (
        f"flip reverses each dim once: dim {d} appears twice in {tuple(dims)} (after negative "
        "dims are counted from the end)"
    ),
    "narrow_length": lambda length: f"narrow's length {length} is negative",
    "narrow_start": lambda start, cur, d: (
        f"start {start} is outside -{cur}..{cur} for dim {d} of size {cur}"
    ),
    "narrow_overflow": lambda start, length, cur, d: (
        f"entry {start} runs past the end of dim {d} (size {cur})"
        if length == 1
        else f"entries {start}..{start + length - 1} run past the end of dim {d} (size {cur})"
    ),
    "select_scalar": lambda: "a 0-d tensor has no dim to select from",
    "select_range": lambda index, size, d: (
        f"index {index} is outside -{size}..{size - 1} for dim {d}"
    ),
    "split_scalar": lambda: "a 0-d tensor has no dim to split",
    "split_negative": lambda ss: f"split size {ss} is negative",
    "split_zero": lambda n: f"pieces of size 0 can only cover a dim of size 0, not {n}",
    "split_sizes_negative": lambda sizes: (
        f"the split sizes {shape_text(sizes)} include a negative one"
    ),
    "split_sizes_sum": lambda sizes, n, total: (
        f"the split sizes {shape_text(sizes)} add up to {total}, not to the dim's size {n}"
    ),
    "chunk_scalar": lambda: "a 0-d tensor has no dim to chunk",
    "chunk_count": lambda c: f"chunk needs at least one piece, got {c}",
    "tensor_split_scalar": lambda: "a 0-d tensor has no dim to split",
    "tensor_split_count": lambda s: f"tensor_split needs at least one section, got {s}",
    "index_scalar": lambda: "a 0-d tensor has no dim to index; .item() reads its value",
    "index_range": _index_range,
    "index_too_many": lambda ndim, specified: (
        f"{count_text(specified, 'int/slice', 'ints/slices')} "
        f"{'indexes' if specified == 1 else 'index'} a {ndim}-d tensor (None and ... do not count)"
    ),
    "diagonal_same": lambda dim1, dim2, d: f"dim1={dim1} and dim2={dim2} both mean dim {d}",
    "unfold_size": lambda d, max_size, size: (
        f"a window of {size} does not fit in dim {d} of size {max_size}"
    ),
    "unfold_negative": lambda size: f"the window size {size} is negative",
    "unfold_step": lambda step: f"the window step {step} must be positive",
    "as_strided_length": lambda size, stride: (
        f"as_strided needs one stride per size: {count_text(len(size), 'size')}, "
        f"{count_text(len(stride), 'stride')}"
    ),
    "as_strided_negative_stride": lambda stride: (
        f"strides {shape_text(stride)} include a negative one"
    ),
    "as_strided_offset": lambda offset: f"storage offset {offset} is negative",
    "as_strided_bounds": _bounds,
    "factory_negative": lambda factory, size, s: (
        f"{factory} cannot allocate a dim of negative size {s} in {shape_text(size)}"
    ),
    "dtype_unsupported": lambda factory, dtype: f"{factory} has no {dtype} implementation on CPU",
    "arange_step_zero": lambda step: f"a step of {step} would never reach the end",
    "arange_step_truncated": lambda step: f"the step {step} truncates to 0 as an int64",
    "arange_not_finite": lambda start, end: f"the range {start} -> {end} is not finite",
    "arange_sign": lambda start, end, step: (
        f"stepping by {step} from {start} can never reach {end}"
    ),
    "arange_size": lambda start, end, step: (
        f"({end} - {start}) / {step} elements do not fit in a 64-bit size"
    ),
    "value_overflow": lambda value, dtype: f"{value!r} lies outside the range of {dtype}",
    "empty_strided_length": lambda size, stride: (
        f"one stride per size is needed: {count_text(len(size), 'size')}, "
        f"{count_text(len(stride), 'stride')}"
    ),
    "tensor_leaf": lambda kind: f"a {kind} sits where the shape says a number belongs",
    "tensor_int_range": lambda value: f"{value} does not fit in a 64-bit integer",
    "tensor_not_sequence": lambda dim: (
        f"a number sits where the shape says a list belongs (dim {dim})"
    ),
    "tensor_ragged": lambda n, dim, got: (
        f"the first list at dim {dim} has {count_text(n, 'item')}, so every list there must, "
        f"but one has {got}"
    ),
}
