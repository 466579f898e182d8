"""How computeStride cuts a layout into chunks of dims that merge, described for explanations."""

from __future__ import annotations

from dataclasses import dataclass


def shape_text(seq) -> str:
    """(2, 3) style, with the trailing comma Python prints for one element."""
    return "(" + ", ".join(map(str, seq)) + ("," if len(seq) == 1 else "") + ")"


def count_text(n: int, noun: str, plural: str = "") -> str:
    """``1 entry``, ``2 entries``, ``0 windows``: a number with its noun in the right form."""
    if n == 1:
        return f"{n} {noun}"
    if plural:
        return f"{n} {plural}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


Chunk = tuple[int, int, int]  # (first_dim, last_dim, elements)
Break = tuple[int, int, int, int]  # (i, j, stride_i, span)


def view_chunks(shape: tuple, stride: tuple) -> tuple[list[Chunk], list[Break]]:
    """The chunks computeStride cuts the old dims into, outermost first, and the breaks between.

    A chunk is (first_dim, last_dim, elements); a break is (i, j, stride_i, span) meaning dim i
    does not continue the chunk starting at dim j: stride[i] != span (= elements * base stride).
    """
    chunks: list[Chunk] = []
    breaks: list[Break] = []
    if not shape:
        return chunks, breaks
    last, base, elements = len(shape) - 1, stride[-1], 1
    for td in range(len(shape) - 1, -1, -1):
        elements *= shape[td]
        if td == 0 or (shape[td - 1] != 1 and stride[td - 1] != elements * base):
            chunks.append((td, last, elements))
            if td > 0:
                breaks.append((td - 1, td, stride[td - 1], elements * base))
                last, base, elements = td - 1, stride[td - 1], 1
    return chunks[::-1], breaks[::-1]


def chunks_text(shape: tuple, stride: tuple) -> str:
    """The chunks in words. torch calls them "contiguous subspaces", but a chunk's dims only
    merge into one evenly strided run (stride 4 apart, or 0): "contiguous" beside a page's
    contiguity column saying "no" read as a contradiction, so the words say what holds."""
    chunks, _ = view_chunks(shape, stride)
    if not chunks:
        return "a 0-d tensor is one element, a single evenly strided block"
    parts = []
    for first, last, elements in chunks:
        dims = (
            f"dim {first}"
            if first == last
            else f"dims ({', '.join(map(str, range(first, last + 1)))})"
        )
        parts.append(f"{dims} ({count_text(elements, 'element')})")
    verb = "forms" if parts[0].startswith("dim ") else "form"
    head = f"{parts[0]} {verb} one evenly strided block"
    if len(parts) == 1:
        return head
    return head + ", " + ", ".join(p + " another" for p in parts[1:])


@dataclass(frozen=True, slots=True)
class RefusedView:
    """Why computeStride found no strides for ``new_shape``, as numbers a picture can draw.

    ``filled`` pairs each chunk that was filled (innermost first, as computeStride goes) with
    the new dims that filled it; ``crossing`` is the new dim that would straddle a break (None:
    every chunk filled, yet new dims are left), ``partial`` the new dims inside the chunk it
    breaks out of (inner to it), and ``broken`` that break (None: the crossing dim would split
    the outermost chunk, which has no break before it)."""

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    new_shape: tuple[int, ...]
    chunks: tuple[Chunk, ...]
    breaks: tuple[Break, ...]
    filled: tuple[tuple[int, tuple[int, ...]], ...]  # (chunk number, new dims in it)
    crossing: int | None
    partial: tuple[int, ...]
    broken: Break | None


def compute_refused_view(shape: tuple, stride: tuple, new_shape: tuple) -> RefusedView:
    """Replays computeStride's fill over the chunks, innermost first, to find the new dim that
    would straddle a break."""
    chunks, breaks = view_chunks(shape, stride)
    view_d = len(new_shape) - 1
    filled: list[tuple[int, tuple[int, ...]]] = []
    crossing: int | None = None
    partial: tuple[int, ...] = ()
    broken: Break | None = None
    for k in range(len(chunks) - 1, -1, -1):
        target, product, start, over = chunks[k][2], 1, view_d, None
        while view_d >= 0 and (product < target or new_shape[view_d] == 1):
            product *= new_shape[view_d]
            if over is None and product > target:
                over = view_d  # this dim overshoots; size-1 dims after it join greedily
            view_d -= 1
        if product != target:
            crossing = view_d + 1 if over is None else over
            broken = breaks[k - 1] if k > 0 else None
            partial = tuple(range(crossing + 1, start + 1))
            break
        filled.append((k, tuple(range(view_d + 1, start + 1))))
    return RefusedView(tuple(shape), tuple(stride), tuple(new_shape), tuple(chunks),
                       tuple(breaks), tuple(filled), crossing, partial, broken)


def refused_view_text(shape: tuple, stride: tuple, new_shape: tuple) -> str:
    """Why computeStride found no strides, for a learner: the new dim that does not fit and the
    old dims it would have to run across in plain words, then the equation with its numbers,
    then the chunks the strides cut the old dims into."""
    refused = compute_refused_view(shape, stride, new_shape)
    chunks = f"strides {shape_text(stride)} cut the dims into chunks: {chunks_text(shape, stride)}"
    if refused.crossing is None:
        return (f"new shape {shape_text(new_shape)} does not fit shape {shape_text(shape)}: "
                f"every chunk of its memory is filled before all the new dims are placed "
                f"({chunks})")
    new_dim = refused.crossing
    text = f"new dim {new_dim} (size {new_shape[new_dim]}) of shape {shape_text(new_shape)} would"
    if refused.broken is None:
        first, last, _ = refused.chunks[0]
        return (f"{text} have to split the outermost chunk (dims {first} to {last} of shape "
                f"{shape_text(shape)}) unevenly ({chunks})")
    i, j, st, span = refused.broken
    text += (f" have to step evenly across dims {i} and {j} of shape {shape_text(shape)}, which "
             "are not one even run in memory")
    if shape[j] != 1:
        rule = (f"they would be if stride[{i}] = stride[{j}] × size[{j}], but here "
                f"{st} ≠ {stride[j]} × {shape[j]} = {span}")
    else:  # a size-1 dim's own stride is ignored; the chunk it starts spans this far
        rule = (f"they would be if stride[{i}] equalled {span}, the span of the chunk that "
                f"starts at dim {j} (a size-1 dim's own stride is ignored), but here "
                f"{st} ≠ {span}")
    return f"{text}; {rule} ({chunks})"
