"""The picture of a refused view: the old dims in their chunks, the new shape laid against them."""

# Every number drawn comes from the engine's RefusedView (compute_refused_view), the same
# replay of computeStride that writes the refusal's why, so the picture and the sentence can
# never disagree. Chunks are told apart by colour AND by their letter and outline; the break
# that the new shape would have to cross is drawn thick and labelled with its equation.

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from quizapp.engine.view_chunks import RefusedView, shape_text

CHUNK_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIM_W, DIM_H = 84, 58  # one old dim's box
DIM_GAP = 6  # between dims of one chunk
CHUNK_GAP = 30  # between chunks: where a break is drawn
PAD = 6  # a chunk's outline around its dims
NEW_H = 46
MARGIN = 8
LINE = 18


@dataclass(frozen=True, slots=True)
class RefusedPicture:
    """A refused ``.view(...)`` of one chain step, and the two chains that would run instead."""

    step: int  # the refused step's number in the chain
    code: str  # the refused call as the chain spells it, ".view(24)"
    refused: RefusedView
    reshape_expr: str | None  # the chain with .reshape(...) in its place (None: no such chain)
    contiguous_expr: str | None  # ... with .contiguous().view(...)


def chunk_name(k: int) -> str:
    return f"chunk {CHUNK_LETTERS[k % len(CHUNK_LETTERS)]}"


def dims_text(first: int, last: int) -> str:
    return f"dim {first}" if first == last else f"dims {first}–{last}"


def chunk_of_dim(refused: RefusedView, dim: int) -> int:
    return next(k for k, (first, last, _) in enumerate(refused.chunks) if first <= dim <= last)


def describe_break(refused: RefusedView) -> tuple[str, str] | None:
    """The broken rule in two lines: the equation, then it filled in with the numbers."""
    if refused.broken is None:
        return None
    i, j, stride_i, span = refused.broken
    shape, stride = refused.shape, refused.stride
    if shape[j] != 1:
        return (f"dims {i} and {j} merge only if stride[{i}] = stride[{j}] × size[{j}]",
                f"here stride[{i}] = {stride_i}, but stride[{j}] × size[{j}] = "
                f"{stride[j]} × {shape[j]} = {span}, and {stride_i} ≠ {span}")
    return (f"dims {i} and {j} merge only if stride[{i}] = the span of the chunk from dim {j}",
            f"here stride[{i}] = {stride_i}, but that span is {span} (dim {j} has size 1, so "
            f"its own stride is ignored), and {stride_i} ≠ {span}")


def new_dim_roles(refused: RefusedView) -> dict[int, str]:
    """What each new dim does in computeStride's fill, in words."""
    roles = {}
    for k, dims in refused.filled:
        for d in dims:
            roles[d] = f"fills {chunk_name(k)} (with the new dims beside it)"
    failing = len(refused.chunks) - 1 - len(refused.filled)
    for d in refused.partial:
        roles[d] = f"fits inside {chunk_name(failing)}"
    if refused.crossing is not None:
        if refused.broken is None:
            roles[refused.crossing] = f"would split {chunk_name(failing)} unevenly"
        else:
            i, j = refused.broken[0], refused.broken[1]
            roles[refused.crossing] = (f"would span the break between dims {i} and {j} "
                                       f"({chunk_name(chunk_of_dim(refused, i))} and "
                                       f"{chunk_name(chunk_of_dim(refused, j))}): refused")
    for d in range(len(refused.new_shape)):
        roles.setdefault(d, "never reached: the fill stopped before it" if refused.crossing
                         is not None else "left over: every chunk was already filled")
    return roles


def describe_refused(picture: RefusedPicture) -> str:
    """The picture in words: its desc, also printed below it."""
    refused = picture.refused
    chunks = "; ".join(f"{chunk_name(k)} is {dims_text(first, last)} ({elements} elements)"
                       for k, (first, last, elements) in enumerate(refused.chunks))
    parts = [f"A view of shape {shape_text(refused.new_shape)} needs new strides over the same "
             "memory. "
             f"The old dims of shape {shape_text(refused.shape)} with strides "
             f"{shape_text(refused.stride)} merge into {len(refused.chunks)} "
             f"chunk{'s' if len(refused.chunks) != 1 else ''}: {chunks}."]
    if refused.crossing is not None:
        size = refused.new_shape[refused.crossing]
        parts.append(f"Filling the chunks from the innermost, new dim {refused.crossing} "
                     f"(size {size}) {new_dim_roles(refused)[refused.crossing]}.")
    else:
        parts.append("Every chunk is filled before all the new dims are placed.")
    rule = describe_break(refused)
    if rule is not None:
        parts.append(f"The rule: {rule[0]}; {rule[1]}.")
    return " ".join(parts)


def compute_dim_rows(refused: RefusedView) -> list[tuple[int, int, int, str]]:
    """The text alternative's old dims: (dim, size, stride, chunk)."""
    return [(d, size, step, chunk_name(chunk_of_dim(refused, d)))
            for d, (size, step) in enumerate(zip(refused.shape, refused.stride, strict=True))]


def compute_new_rows(refused: RefusedView) -> list[tuple[int, int, str]]:
    """The text alternative's new dims: (new dim, size, what it does)."""
    roles = new_dim_roles(refused)
    return [(d, size, roles[d]) for d, size in enumerate(refused.new_shape)]


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.width = 0
        self.height = 0

    def add(self, text: str, right: float, bottom: float) -> None:
        self.parts.append(text)
        self.width = max(self.width, int(right) + MARGIN)
        self.height = max(self.height, int(bottom) + MARGIN)

    def text(self, x: float, y: float, content: str, cls: str, anchor: str = "start") -> None:
        per = 8.0 if cls in ("pic-heading", "pic-equation") else 7.2  # px a character, at most
        left = x - per / 2 * len(content) if anchor == "middle" else x
        self.add(f'<text x="{x}" y="{y}" class="{cls}" text-anchor="{anchor}">'
                 f"{escape(content)}</text>", right=left + per * len(content), bottom=y + 4)


def layout_columns(refused: RefusedView) -> tuple[list[float], list[tuple[float, float]]]:
    """x of each old dim's box, and the x-range of each chunk's outline."""
    xs: list[float] = []
    spans: list[tuple[float, float]] = []
    x = MARGIN + PAD
    for first, last, _ in refused.chunks:
        start = x - PAD
        for _d in range(first, last + 1):
            xs.append(x)
            x += DIM_W + DIM_GAP
        x -= DIM_GAP
        spans.append((start, x + PAD))
        x += PAD + CHUNK_GAP + PAD
    return xs, spans


def place_new_dims(refused: RefusedView, spans: list[tuple[float, float]]
                   ) -> dict[int, tuple[float, float]]:
    """x-range of each new dim's box: under the chunk it fills; the crossing one over the break."""
    places: dict[int, tuple[float, float]] = {}

    def share(dims: tuple[int, ...], left: float, right: float) -> None:
        if not dims:
            return
        width = (right - left - DIM_GAP * (len(dims) - 1)) / len(dims)
        for n, d in enumerate(dims):
            x = left + n * (width + DIM_GAP)
            places[d] = (x, x + width)

    for k, dims in refused.filled:
        share(dims, *spans[k])
    failing = len(refused.chunks) - 1 - len(refused.filled)
    if refused.crossing is None:
        left_over = tuple(d for d in range(len(refused.new_shape)) if d not in places)
        share(left_over, MARGIN, spans[0][1])  # over the outermost chunk: nothing left there
        return places
    left, right = spans[failing]
    if refused.partial:  # the dims that fit keep the chunk's right part
        share(refused.partial, left + (right - left) / 2 + DIM_GAP / 2, right)
        right = left + (right - left) / 2 - DIM_GAP / 2
    outer = spans[failing - 1] if failing > 0 else None
    cross_left = (outer[0] + outer[1]) / 2 if outer else left
    places[refused.crossing] = (cross_left, right)
    share(tuple(range(refused.crossing)), MARGIN, cross_left - DIM_GAP)
    return places


def render_refused_svg(picture: RefusedPicture, ids: str = "pic-refused") -> str:
    """The refused view as an inline <svg>, in the page's colours (classes in pictures.css)."""
    refused = picture.refused
    svg = _Svg()
    top = MARGIN
    svg.text(MARGIN, top + 13, f"Old shape {shape_text(refused.shape)}, strides "
             f"{shape_text(refused.stride)}", "pic-heading")
    svg.text(MARGIN, top + 13 + LINE, "dims that merge form a chunk", "pic-note")
    top += 2 * LINE + 20
    xs, spans = layout_columns(refused)
    for k, ((first, last, elements), (left, right)) in enumerate(zip(refused.chunks, spans,
                                                                     strict=True)):
        name = chunk_name(k)
        svg.add(f'<g class="pic-chunk pic-chunk-{k % 4}"><title>{escape(name)}: '
                f"{escape(dims_text(first, last))}, {elements} elements, one evenly strided run"
                f'</title><rect class="chunk-box" x="{left}" y="{top}" width="{right - left}" '
                f'height="{DIM_H + 2 * PAD + LINE}" rx="6"/></g>',
                right=right, bottom=top + DIM_H + 2 * PAD + LINE)
        svg.text(left + PAD, top + 14, f"{name} · {elements} el.", "pic-chunk-label")
    dim_top = top + LINE + PAD
    for d, x in enumerate(xs):
        svg.add(f'<rect class="box" x="{x}" y="{dim_top}" width="{DIM_W}" height="{DIM_H}"/>',
                right=x + DIM_W, bottom=dim_top + DIM_H)
        svg.text(x + DIM_W / 2, dim_top + 16, f"dim {d}", "pic-heading", anchor="middle")
        svg.text(x + DIM_W / 2, dim_top + 33, f"size {refused.shape[d]}", "pic-value",
                 anchor="middle")
        svg.text(x + DIM_W / 2, dim_top + 49, f"stride {refused.stride[d]}", "pic-value",
                 anchor="middle")
    chunk_bottom = top + DIM_H + 2 * PAD + LINE
    broken_x = None
    for k in range(1, len(spans)):
        x = (spans[k - 1][1] + spans[k][0]) / 2
        i = refused.chunks[k][0] - 1
        is_broken = refused.broken is not None and refused.broken[0] == i
        cls = "pic-break broken" if is_broken else "pic-break"
        svg.add(f'<line class="{cls}" x1="{x}" y1="{top - 6}" x2="{x}" '
                f'y2="{chunk_bottom + 10}"/>', right=x, bottom=chunk_bottom + 10)
        if is_broken:
            broken_x = x
            svg.text(x, top - 9, "✗ break", "pic-break-label", anchor="middle")
    top = chunk_bottom + 22
    svg.text(MARGIN, top + 13, f"New shape {shape_text(refused.new_shape)}", "pic-heading")
    svg.text(MARGIN, top + 13 + LINE, "new dims fill the chunks from the innermost", "pic-note")
    top += 2 * LINE + 6
    roles = new_dim_roles(refused)
    for d, (left, right) in sorted(place_new_dims(refused, spans).items()):
        crossing = d == refused.crossing
        unreached = d not in refused.partial and all(d not in dims for _, dims in refused.filled)
        cls = "pic-new crossing" if crossing else "pic-new unreached" if unreached else "pic-new"
        width = max(right - left, 24)
        svg.add(f'<g class="{cls}"><title>new dim {d}, size {refused.new_shape[d]}: '
                f'{escape(roles[d])}</title><rect class="box" x="{left}" y="{top}" '
                f'width="{width}" height="{NEW_H}"/></g>', right=left + width, bottom=top + NEW_H)
        label = f"{'✗ ' if crossing else ''}new dim {d}"
        svg.text(left + width / 2, top + 18, label if width >= 7 * len(label) else f"{d}",
                 "pic-heading", anchor="middle")
        svg.text(left + width / 2, top + 36, f"size {refused.new_shape[d]}", "pic-value",
                 anchor="middle")
    if broken_x is not None:  # the break again, over the new dim that would cross it
        svg.add(f'<line class="pic-break broken" x1="{broken_x}" y1="{top - 6}" '
                f'x2="{broken_x}" y2="{top + NEW_H + 6}"/>', right=broken_x, bottom=top + NEW_H)
    top += NEW_H + 14
    rule = describe_break(refused)
    if rule is not None:
        for line in rule:
            svg.text(MARGIN, top + 13, line[0].upper() + line[1:], "pic-equation")
            top += LINE
    elif refused.crossing is not None:
        svg.text(MARGIN, top + 13, f"New dim {refused.crossing} {roles[refused.crossing]}.",
                 "pic-equation")
    else:
        svg.text(MARGIN, top + 13, "Every chunk is filled before all the new dims are placed.",
                 "pic-equation")
    title = f"Step {picture.step}, {picture.code}: why view found no strides"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="pic pic-refused" role="img" '
            f'width="{svg.width}" height="{svg.height}" viewBox="0 0 {svg.width} {svg.height}" '
            f'aria-labelledby="{ids}-title" aria-describedby="{ids}-desc">'
            f'<title id="{ids}-title">{escape(title)}</title>'
            f'<desc id="{ids}-desc">{escape(describe_refused(picture))}</desc>'
            + "".join(svg.parts) + "</svg>")
