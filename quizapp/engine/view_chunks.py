"""How computeStride cuts a layout into chunks of dims that merge, described for explanations."""

from __future__ import annotations


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


def _crossing_new_dim(shape: tuple, stride: tuple, new_shape: tuple
                      ) -> tuple[int, Break | None] | None:
    # Replays computeStride's fill to find the new dim that would straddle a break (None: it
    # would split the outermost chunk, which has no break before it).
    chunks, breaks = view_chunks(shape, stride)
    view_d = len(new_shape) - 1
    for k in range(len(chunks) - 1, -1, -1):
        target, filled = chunks[k][2], 1
        while view_d >= 0 and (filled < target or new_shape[view_d] == 1):
            filled *= new_shape[view_d]
            view_d -= 1
        if filled != target:
            return view_d + 1, breaks[k - 1] if k > 0 else None
    return None


def refused_view_text(shape: tuple, stride: tuple, new_shape: tuple) -> str:
    """Why computeStride found no strides: the chunks and the break a new dim would straddle."""
    found = _crossing_new_dim(shape, stride, new_shape)
    text = (
        f"shape {shape_text(shape)} with strides {shape_text(stride)}: {chunks_text(shape, stride)}"
    )
    if found is None:
        return text + f", and no grouping of new shape {shape_text(new_shape)} fits those chunks"
    new_dim, brk = found
    text += (
        f"; new dim {new_dim} (size {new_shape[new_dim]}) of shape {shape_text(new_shape)} would"
    )
    if brk is None:
        return text + " have to split the outermost chunk unevenly"
    i, j, st, span = brk
    if shape[j] != 1:
        need = f"stride[{j}]×size[{j}]={stride[j]}×{shape[j]}={span}"
    else:  # a size-1 dim's own stride is ignored; the chunk it starts spans this far
        need = (
            f"{span}, the span of the chunk that starts at dim {j} (its size-1 stride is ignored)"
        )
    return text + f" span the break between dims {i} and {j}: stride[{i}]={st} != {need}"
