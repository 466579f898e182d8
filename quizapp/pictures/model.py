"""The picture model of one step: which storage cell each element reads, and how often."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from math import prod

MAX_DRAWN = 256  # elements, and storage cells, drawn per picture; the rest is summarised
MAX_COUNTED = 65536  # reach counts are computed by walking at most this many elements
MAX_CHAIN_COUNTED = 2**18  # ... and at most this many over all the steps of one chain
MAX_PICTURES = 16  # steps drawn per chain (a 2,000-character chain may have hundreds)


@dataclass(frozen=True, slots=True)
class StepLayout:
    """What a picture is computed from: one step's layout and the storage it reads."""

    step: int  # the step's number in the chain (0 is the constructor)
    code: str
    shape: tuple[int, ...]
    stride: tuple[int, ...]
    storage_offset: int
    storage: int  # the storage's number in the document (#0, #1, ...)
    storage_size: int  # elements in the storage, read as the step's dtype
    read: Callable[[int], object] | None = None  # storage position -> value; None: unknown
    copied_from: tuple[int, int] | None = None  # (storage number, step) this step copied


@dataclass(frozen=True, slots=True)
class GridCell:
    """One element of the tensor: its index, the storage position it reads, its value."""

    index: tuple[int, ...]
    position: int
    value: object | None


@dataclass(frozen=True, slots=True)
class StorageCell:
    """One storage position: its value and how many elements read it (None: not counted)."""

    position: int
    value: object | None
    reached: int | None


@dataclass(frozen=True, slots=True)
class StepPicture:
    """Everything one step's picture shows, computed from its layout."""

    layout: StepLayout
    numel: int
    cells: tuple[GridCell, ...]  # the first MAX_DRAWN elements in index order
    strip: tuple[StorageCell, ...]  # a window of at most MAX_DRAWN storage positions
    counted: bool  # reach counts cover every element (numel <= MAX_COUNTED)
    unreached: int | None  # storage positions no element reads, in the whole storage
    repeated: int | None  # storage positions read by more than one element
    notes: tuple[str, ...]  # what was left out of the drawing, said in words

    @property
    def strip_start(self) -> int:
        return self.strip[0].position if self.strip else 0


def compute_position(index: tuple[int, ...], stride: tuple[int, ...], offset: int) -> int:
    """torch's element address: storage_offset + sum(index[d] * stride[d])."""
    return offset + sum(i * s for i, s in zip(index, stride, strict=True))


def compute_numel(shape: tuple[int, ...]) -> int:
    """Elements in ``shape``; a negative size (an expand quirk) holds none."""
    return 0 if any(size <= 0 for size in shape) else prod(shape)


def iterate_indices(shape: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every index of ``shape`` in row-major order (one empty index for a 0-d tensor), made
    one at a time: itertools.product would first hold every range of a dim of 2**40 whole."""
    if compute_numel(shape) == 0:
        return
    index = [0] * len(shape)
    while True:
        yield tuple(index)
        d = len(shape) - 1
        while d >= 0 and index[d] == shape[d] - 1:
            index[d] = 0
            d -= 1
        if d < 0:
            return
        index[d] += 1


def compute_positions(layout: StepLayout) -> list[int]:
    """Every element's storage position in row-major order, built one dim at a time (a list
    comprehension per dim: far cheaper than an address sum per element)."""
    if compute_numel(layout.shape) == 0:
        return []
    positions = [layout.storage_offset]
    for size, step in zip(layout.shape, layout.stride, strict=True):
        positions = [p + i * step for p in positions for i in range(size)]
    return positions


def read_value(layout: StepLayout, position: int) -> object | None:
    if layout.read is None or not 0 <= position < layout.storage_size:
        return None
    return layout.read(position)


def compute_strip_window(layout: StepLayout) -> range:
    """The storage positions drawn: all of a small storage, else MAX_DRAWN from the offset."""
    size = layout.storage_size
    if size <= MAX_DRAWN:
        return range(size)
    start = max(0, min(layout.storage_offset, size - MAX_DRAWN))
    return range(start, start + MAX_DRAWN)


def compute_step_picture(layout: StepLayout, count_limit: int = MAX_COUNTED) -> StepPicture:
    """The picture of ``layout``: grid cells, the storage strip, reach counts and notes.

    Reach counts are computed when the tensor has at most ``count_limit`` elements."""
    shape, stride, offset = layout.shape, layout.stride, layout.storage_offset
    numel = compute_numel(shape)
    cells = tuple(
        GridCell(index, position, read_value(layout, position))
        for index in islice(iterate_indices(shape), MAX_DRAWN)
        for position in (compute_position(index, stride, offset),))
    counted = numel <= min(count_limit, MAX_COUNTED)
    counts: Counter[int] = Counter(compute_positions(layout) if counted else ())
    window = compute_strip_window(layout)
    strip = tuple(StorageCell(p, read_value(layout, p), counts[p] if counted else None)
                  for p in window)
    unreached = repeated = None
    if counted:
        inside = [p for p in counts if 0 <= p < layout.storage_size]
        unreached = layout.storage_size - len(inside)
        repeated = sum(1 for p in inside if counts[p] > 1)
    notes = []
    if numel > len(cells):
        notes.append(f"The grid shows the first {len(cells):,} of {numel:,} elements "
                     "(in index order); the table lists the same ones.")
    if layout.storage_size > len(strip):
        notes.append(f"The strip shows storage positions {window.start:,} to "
                     f"{window.stop - 1:,} of {layout.storage_size:,}.")
    if not counted:
        notes.append(f"Reach counts are computed for at most {MAX_COUNTED:,} elements a step "
                     f"and {MAX_CHAIN_COUNTED:,} a chain; this tensor has {numel:,}, so the "
                     "strip does not grey unread cells.")
    if layout.read is None:
        notes.append("The values are unknown (uninitialised or random memory), so cells "
                     "show positions only.")
    return StepPicture(layout, numel, cells, strip, counted, unreached, repeated, tuple(notes))
