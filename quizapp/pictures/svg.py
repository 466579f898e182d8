"""Server-side SVG of a StepPicture: the storage strip above, the tensor grid below."""

# The SVG is inline in the page, so it takes the page's colours: text is currentColor and
# fills and strokes are the stylesheet's CSS variables (classes styled in explorer.css), which
# follow dark mode. Colour is never the only signal: unread cells are hatched and say so in
# their title, repeated reads carry a "×n" mark, the offset cell is labelled.

from __future__ import annotations

from collections import defaultdict
from html import escape

from quizapp.pictures.model import GridCell, StepPicture

CELL_W, CELL_H = 44, 40
STRIP_COLUMNS = 16
MARGIN = 8
LINE = 18  # height of a line of text
STRIP_ROW = 14 + CELL_H + 18  # position labels above, cells, offset mark below
ARROW_SPACE = 22  # room for a slice's column arrow above it and row arrow left of it
SLICE_GAP = 28


def format_value(value: object) -> str:
    """A value as a cell shows it: short, torch-like (1.0, 2.5, True, -3)."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e6:
            return f"{value:.1f}"
        return f"{value:.4g}"
    return str(value)


def shorten(text: str, limit: int = 6) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_index(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, index)) + "]"


def format_address(cell: GridCell, stride: tuple[int, ...], offset: int) -> str:
    """"2 + 1×4 + 0×1 = 6": how the element's storage position is computed."""
    terms = [str(offset)] + [f"{i}×{s}" for i, s in zip(cell.index, stride, strict=True)]
    return " + ".join(terms) + f" = {cell.position}"


def describe_cell(cell: GridCell, stride: tuple[int, ...], offset: int) -> str:
    value = "" if cell.value is None else f", value {format_value(cell.value)}"
    return (f"element {format_index(cell.index)} reads storage position {cell.position} "
            f"({format_address(cell, stride, offset)}){value}")


def compute_slices(picture: StepPicture) -> dict[tuple[int, ...], list[GridCell]]:
    """Drawn cells grouped into 2-d slices by their leading indices (one slice below 3-d)."""
    slices: dict[tuple[int, ...], list[GridCell]] = defaultdict(list)
    for cell in picture.cells:
        slices[cell.index[:-2]].append(cell)
    return dict(slices)


def slice_extent(picture: StepPicture) -> tuple[int, int]:
    """(rows, columns) of one 2-d slice: the last two dims, a 1-d tensor as one row."""
    shape = picture.layout.shape
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, max(shape[0], 0)
    return max(shape[-2], 0), max(shape[-1], 0)


def describe_strides(picture: StepPicture) -> list[str]:
    shape, stride = picture.layout.shape, picture.layout.stride
    if not shape:
        return ["A 0-d tensor: one element, no strides."]
    lines = []
    for dim, (size, step) in enumerate(zip(shape, stride, strict=True)):
        if len(shape) >= 2 and dim == len(shape) - 2:
            way = "down a column"
        elif dim == len(shape) - 1:
            way = "along a row"
        else:
            way = "to the next slice"
        repeat = " (the same cells again)" if step == 0 and size > 1 else ""
        lines.append(f"+{step} along dim {dim} ({way}, size {size}){repeat}")
    return lines


def count_cells(count: int) -> str:
    """"1 storage cell is", "3 storage cells are"."""
    return f"{count:,} storage cell is" if count == 1 else f"{count:,} storage cells are"


def describe_picture(picture: StepPicture) -> str:
    """The picture in words: its desc, also printed below it."""
    layout = picture.layout
    parts = [f"Storage #{layout.storage} holds {layout.storage_size:,} elements; the tensor "
             f"starts at storage offset {layout.storage_offset} and has {picture.numel:,} "
             "elements."]
    if picture.unreached is not None:
        parts.append(f"{count_cells(picture.unreached)} never read (hatched)."
                     if picture.unreached else "Every storage cell is read.")
    if picture.repeated:
        parts.append(f"{count_cells(picture.repeated)} read by more than one element "
                     "(marked ×n).")
    if layout.copied_from is not None:
        source, step = layout.copied_from
        parts.append(f"This step copies: its storage is new, copied from storage #{source} "
                     f"of step {step}.")
    return " ".join(parts)


class Canvas:
    """SVG elements as text, and the extent they cover."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.width = 0
        self.height = 0

    def add(self, text: str, right: float = 0, bottom: float = 0) -> None:
        self.parts.append(text)
        self.width = max(self.width, int(right) + MARGIN)
        self.height = max(self.height, int(bottom) + MARGIN)

    def text(self, x: float, y: float, content: str, cls: str, anchor: str = "start",
             extra: str = "") -> None:
        self.add(f'<text x="{x}" y="{y}" class="{cls}" text-anchor="{anchor}"{extra}>'
                 f"{escape(content)}</text>",
                 right=x + (7 * len(content) if anchor == "start" else 0), bottom=y + 4)


def draw_strip(canvas: Canvas, picture: StepPicture, top: int, ids: str, anchor: str) -> int:
    """The storage strip from ``top``; returns the y below it. A copy links to the picture of
    the step it copied, whose element id is ``anchor`` and the step's number."""
    layout = picture.layout
    canvas.text(MARGIN, top + 13, f"Storage #{layout.storage}: {layout.storage_size:,} "
                "elements in memory order", "pic-heading")
    top += LINE + 4
    if layout.copied_from is not None:
        source, step = layout.copied_from
        canvas.add(f'<a href="#{anchor}{step}" class="pic-link">', 0, 0)
        canvas.text(MARGIN, top + 13, f"↑ new storage, copied from storage #{source} "
                    f"(step {step})", "pic-note")
        canvas.add("</a>")
        top += LINE + 4
    readers: dict[int, list[str]] = defaultdict(list)
    for cell in picture.cells:
        readers[cell.position].append(format_index(cell.index))
    for k, slot in enumerate(picture.strip):
        row, col = divmod(k, STRIP_COLUMNS)
        x, y = MARGIN + col * CELL_W, top + row * STRIP_ROW + 14
        value = "" if slot.value is None else format_value(slot.value)
        classes = ["pic-slot"]
        if slot.reached == 0:
            classes.append("unreached")
            how = "never read by this tensor"
        elif slot.reached is None:
            how = "reach count not computed"
        else:
            names = readers.get(slot.position, [])
            shown = ", ".join(names[:4]) + (", …" if len(names) > 4 else "")
            how = f"read by {slot.reached} element{'s' if slot.reached != 1 else ''}" + (
                f": {shown}" if shown else "")
            if slot.reached > 1:
                classes.append("repeated")
        if slot.position == layout.storage_offset:
            classes.append("offset")
            how += "; the storage offset"
        title = f"storage position {slot.position}" + (f", value {value}" if value else "")
        hatch = (f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" '
                 f'fill="url(#{ids}-hatch)" class="hatched"/>') if slot.reached == 0 else ""
        body = [f'<g class="{" ".join(classes)}" data-pos="{slot.position}" tabindex="-1">',
                f"<title>{escape(title)}: {escape(how)}</title>",
                f'<rect class="box" x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}"/>',
                hatch,
                f'<text x="{x + CELL_W / 2}" y="{y - 4}" class="pic-pos" '
                f'text-anchor="middle">{slot.position}</text>']
        if value:
            body.append(f'<text x="{x + CELL_W / 2}" y="{y + 25}" class="pic-value" '
                        f'text-anchor="middle">{escape(shorten(value))}</text>')
        if slot.reached is not None and slot.reached > 1:
            body.append(f'<text x="{x + CELL_W - 3}" y="{y + 11}" class="pic-count" '
                        f'text-anchor="end">×{slot.reached}</text>')
        if slot.position == layout.storage_offset:
            body.append(f'<path class="pic-mark" d="M{x + CELL_W / 2} {y + CELL_H + 2} '
                        f'l5 7 h-10 z"/>')
            body.append(f'<text x="{x + 2}" y="{y + CELL_H + 16}" class="pic-note">'
                        f"offset {layout.storage_offset}</text>")
        body.append("</g>")
        canvas.add("".join(body), right=x + CELL_W + 60, bottom=y + CELL_H + 18)
    rows = -(-len(picture.strip) // STRIP_COLUMNS)
    top += rows * STRIP_ROW
    offset_shown = any(slot.position == layout.storage_offset for slot in picture.strip)
    if not offset_shown:
        canvas.text(MARGIN, top + 13, f"Storage offset {layout.storage_offset} (outside the "
                    "cells drawn)", "pic-note")
        top += LINE
    return top


def draw_grid(canvas: Canvas, picture: StepPicture, top: int, ids: str) -> int:
    """The tensor's 2-d slices side by side from ``top``; returns the y below them."""
    layout = picture.layout
    shape_text = "(" + ", ".join(map(str, layout.shape)) + ("," if len(layout.shape) == 1
                                                            else "") + ")"
    canvas.text(MARGIN, top + 13, f"Tensor of shape {shape_text}: each cell names the "
                "storage position it reads", "pic-heading")
    top += LINE + 2
    for line in describe_strides(picture):
        canvas.text(MARGIN, top + 12, line, "pic-note")
        top += LINE - 2
    top += 6
    if not picture.cells:
        canvas.text(MARGIN, top + 13, "No elements: nothing is read.", "pic-note")
        return top + LINE
    rows, cols = slice_extent(picture)
    rank = len(layout.shape)
    x0 = MARGIN
    first = True
    for lead, cells in compute_slices(picture).items():
        y0 = top
        if rank > 2:
            label = "[" + ", ".join([*map(str, lead), ":", ":"]) + "]"
            canvas.text(x0, y0 + 13, f"slice {label}", "pic-heading")
            y0 += LINE
        gx, gy = x0 + ARROW_SPACE, y0 + ARROW_SPACE
        if cols > 1 and rank >= 1:
            y = gy - 10
            canvas.add(f'<line class="pic-arrow" x1="{gx + CELL_W / 2}" y1="{y}" '
                       f'x2="{gx + CELL_W * 1.5 - 4}" y2="{y}" marker-end="url(#{ids}-head)"/>')
            canvas.text(gx + CELL_W * 1.5 + 2, y + 4, f"+{layout.stride[-1]}", "pic-note")
        if rows > 1:
            x = gx - 10
            canvas.add(f'<line class="pic-arrow" x1="{x}" y1="{gy + CELL_H / 2}" x2="{x}" '
                       f'y2="{gy + CELL_H * 1.5 - 4}" marker-end="url(#{ids}-head)"/>')
            canvas.text(x + 3, gy + CELL_H * 1.5 + 12, f"+{layout.stride[-2]}", "pic-note",
                        anchor="end")
        for cell in cells:
            r, c = (0, 0) if rank == 0 else (0, cell.index[0]) if rank == 1 else cell.index[-2:]
            x, y = gx + c * CELL_W, gy + r * CELL_H
            value = "" if cell.value is None else format_value(cell.value)
            focus = "0" if first else "-1"
            first = False
            body = [f'<g class="pic-el" data-pos="{cell.position}" tabindex="{focus}">',
                    f"<title>{escape(describe_cell(cell, layout.stride, layout.storage_offset))}"
                    "</title>",
                    f'<rect class="box" x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}"/>']
            if value:
                body.append(f'<text x="{x + CELL_W / 2}" y="{y + 18}" class="pic-value" '
                            f'text-anchor="middle">{escape(shorten(value))}</text>')
            body.append(f'<text x="{x + CELL_W / 2}" y="{y + (34 if value else 25)}" '
                        f'class="pic-pos" text-anchor="middle">@{cell.position}</text></g>')
            canvas.add("".join(body), right=x + CELL_W, bottom=y + CELL_H)
        x0 = gx + cols * CELL_W + SLICE_GAP
    return top + (LINE if rank > 2 else 0) + ARROW_SPACE + rows * CELL_H + 10


def render_svg(picture: StepPicture, ids: str | None = None,
               anchor: str = "picture-step-") -> str:
    """The picture as an inline <svg>: natural size in px, scrolled by its figure if wide.
    ``ids`` prefixes its own element ids; ``anchor`` + a step number is the id of that step's
    picture on the page (a copy links to the one it copied)."""
    ids = ids or f"pic-{picture.layout.step}"
    canvas = Canvas()
    top = draw_strip(canvas, picture, MARGIN, ids, anchor)
    top = draw_grid(canvas, picture, top + 12, ids)
    for note in picture.notes:
        canvas.text(MARGIN, top + 13, note, "pic-note")
        top += LINE
    defs = (f'<defs><pattern id="{ids}-hatch" width="6" height="6" patternUnits="userSpaceOnUse"'
            f' patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" '
            f'class="pic-hatch"/></pattern><marker id="{ids}-head" viewBox="0 0 8 8" refX="7" '
            f'refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0 0 L8 4 L0 8 z" fill="currentColor"/></marker></defs>')
    title = f"Step {picture.layout.step}, {picture.layout.code}: storage and tensor"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="pic" role="group" '
            f'width="{canvas.width}" height="{canvas.height}" '
            f'viewBox="0 0 {canvas.width} {canvas.height}" aria-labelledby="{ids}-title" '
            f'aria-describedby="{ids}-desc"><title id="{ids}-title">{escape(title)}</title>'
            f'<desc id="{ids}-desc">{escape(describe_picture(picture))}</desc>{defs}'
            + "".join(canvas.parts) + "</svg>")


def compute_index_rows(picture: StepPicture) -> list[tuple[str, int, str, str]]:
    """The text alternative: (index, storage position, how it is computed, value) per element."""
    layout = picture.layout
    return [(format_index(cell.index), cell.position,
             format_address(cell, layout.stride, layout.storage_offset),
             "" if cell.value is None else format_value(cell.value)) for cell in picture.cells]


def compute_storage_rows(picture: StepPicture) -> list[tuple[int, str, str]]:
    """(storage position, value, how many elements read it) per drawn storage cell."""
    return [(slot.position, "" if slot.value is None else format_value(slot.value),
             "not counted" if slot.reached is None else
             "never (hatched)" if slot.reached == 0 else f"×{slot.reached}")
            for slot in picture.strip]
