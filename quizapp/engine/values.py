"""The values a tensor holds, as nested lists exactly like torch's Tensor.tolist()."""

from __future__ import annotations

VALUES_LIMIT = 4096  # values are given only for results of at most this many elements


def values_allowed(shape, limit: int = VALUES_LIMIT) -> bool:
    """At most ``limit`` elements, and for an empty tensor at most that many list slots.

    ``tolist()`` of a (2**31, 0) tensor has no elements but 2**31 empty lists, so the slots
    (sizes multiplied dim by dim up to the first 0) are bounded too; negative sizes (a torch
    quirk of expand) cannot be listed at all.
    """
    numel, slots = 1, 0
    for size in shape:
        if size < 0:
            return False
        numel *= size
        slots += numel
    return numel <= limit and (numel > 0 or slots <= limit)


def values_of(t, limit: int = VALUES_LIMIT):
    """Nested lists of ``t``'s elements (a scalar for 0-d), or None.

    None when the storage's data is unknown (empty, rand, randn, empty_strided, or a copy of
    those) or when the result would hold more than ``limit`` elements.  Each element is read
    through the layout: ``storage.read(offset + sum(index[d] * stride[d]))``; elements were
    already rounded to the dtype when the storage was made (float32 via a struct round trip,
    float16 via 'e', bfloat16 by nearest-even on the top 16 bits, ints wrapped, bools as bool).
    """
    read = t.storage.read
    if read is None:
        return None
    shape, stride, offset = t.shape, t.stride, t.storage_offset
    if not shape:
        return read(offset)
    if not values_allowed(shape, limit):
        return None
    last = len(shape) - 1

    def build(dim: int, position: int) -> list:
        size, step = shape[dim], stride[dim]
        if dim == last:
            return [read(position + i * step) for i in range(size)]
        return [build(dim + 1, position + i * step) for i in range(size)]

    return build(0, offset)


def storage_values_of(t, limit: int = VALUES_LIMIT) -> list | None:
    """Every element of ``t``'s storage in storage order (what ``t.untyped_storage()`` holds,
    read as ``t``'s dtype), or None when unknown or longer than ``limit``.

    Views share their root's storage, so this shows the memory an offset and strides walk
    over; a copy's storage holds the copied elements in its own dense order.
    """
    read = t.storage.read
    count = t.storage.nbytes // t.dtype.itemsize
    if read is None or count > limit:
        return None
    return [read(pos) for pos in range(count)]
