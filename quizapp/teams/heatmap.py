"""The member x concept accuracy on assigned work, and its heat map as a server-rendered SVG.

Every cell carries its figure as text (colour only repeats it), the SVG has a title and a
description pointing to the table holding the same figures, and its colours are CSS classes
(``hm-b0`` .. ``hm-b4``, ``hm-none``) that the page's stylesheet sets for light and dark;
it also places the cells' figures (centred: text-anchor and dominant-baseline).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import NamedTuple

# Accuracy bands, in percent: a cell below the first is band 0, at or above the last band 4.
BANDS = (40, 60, 75, 90)
BAND_LABELS = ("under 40%", "40–59%", "60–74%", "75–89%", "90% or more")
CELL_W, CELL_H = 48, 24
LABEL_CHARS = 18  # member names longer than this are cut with "…" (the table has them whole)
CHAR_W = 7.2  # px per character of the 12 px system font, generously
HEAD_H = 96  # room for the concept labels, slanted
LEGEND_H = 44


class Outcome(NamedTuple):
    """A member's answers on one item of assigned work (a set's item, or reviews of a step's
    item): how many were right of how many given; one answer by default."""

    user_id: int
    concepts: tuple[str, ...]
    right: int
    total: int = 1


@dataclass(frozen=True)
class Tally:
    """Right answers of all those given."""

    right: int = 0
    total: int = 0

    @property
    def percent(self) -> int | None:
        """Whole percent, rounded down (None: nothing answered)."""
        return self.right * 100 // self.total if self.total else None

    def add(self, correct: bool) -> Tally:
        return Tally(self.right + correct, self.total + 1)


@dataclass(frozen=True)
class AccuracyGrid:
    """Accuracy per member (rows, in the dashboard's order) and concept (columns)."""

    members: tuple[tuple[int, str], ...]  # (user id, name)
    concepts: tuple[str, ...]
    cells: Mapping[tuple[int, str], Tally]

    def tally(self, user_id: int, concept: str) -> Tally:
        return self.cells.get((user_id, concept), Tally())


def compute_accuracy(members: Sequence[tuple[int, str]], concepts: Iterable[str],
                     outcomes: Iterable[Outcome]) -> AccuracyGrid:
    """Tally ``outcomes`` per member and concept: an item's answers count once for each
    concept it carries. Answers of people not in ``members``, or on concepts not in ``concepts``
    (the track's), are left out."""
    columns = tuple(sorted(set(concepts)))
    wanted_members = {user_id for user_id, _ in members}
    wanted_concepts = set(columns)
    counts: dict[tuple[int, str], list[int]] = {}  # [right, total], made Tally at the end
    kept: dict[tuple[str, ...], tuple[str, ...]] = {}  # an item's tags, once each, in columns
    for outcome in outcomes:
        if outcome.user_id not in wanted_members:
            continue
        tags = kept.get(outcome.concepts)
        if tags is None:
            tags = kept[outcome.concepts] = tuple(set(outcome.concepts) & wanted_concepts)
        for concept in tags:
            count = counts.setdefault((outcome.user_id, concept), [0, 0])
            count[0] += outcome.right
            count[1] += outcome.total
    return AccuracyGrid(tuple(members), columns,
                        {key: Tally(right, total) for key, (right, total) in counts.items()})


def compute_bucket(percent: int | None) -> str:
    """The CSS class of a cell: ``hm-none`` (nothing answered) or ``hm-b0`` .. ``hm-b4``."""
    if percent is None:
        return "hm-none"
    return f"hm-b{sum(percent >= band for band in BANDS)}"


def _cut(text: str, chars: int = LABEL_CHARS) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def render_heatmap_svg(grid: AccuracyGrid, *, title: str, table_id: str) -> str:
    """The grid as an inline SVG at its natural size (its figure scrolls when wider than the
    screen): a row per member, a column per concept, each cell's percent written in it ("–":
    nothing answered), a legend of the bands. ``table_id`` names the table with the figures."""
    label_w = max([len(_cut(name)) for _, name in grid.members] + [6]) * CHAR_W + 12
    legend = [("hm-none", "no answers"), *((f"hm-b{band}", label)
                                          for band, label in enumerate(BAND_LABELS))]
    legend_w = sum(32 + len(label) * CHAR_W for _, label in legend) + 8
    width = round(max(label_w + CELL_W * max(len(grid.concepts), 1) + 40, legend_w))
    grid_h = CELL_H * len(grid.members)
    height = HEAD_H + grid_h + LEGEND_H
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'aria-labelledby="hm-title hm-desc">',
        f'<title id="hm-title">{escape(title)}</title>',
        f'<desc id="hm-desc">Accuracy on assigned work, per member (rows) and concept '
        f'(columns), in percent of the answers given; a dash where none were given. The '
        f'table with id {escape(table_id)} below holds the same figures with the counts.</desc>',
    ]
    for column, concept in enumerate(grid.concepts):
        x = label_w + CELL_W * column + CELL_W / 2
        parts.append(f'<text class="hm-concept" transform="translate({x:.0f} {HEAD_H - 6}) '
                     f'rotate(-40)">{escape(_cut(concept, 16))}</text>')
    for row, (user_id, name) in enumerate(grid.members):
        y = HEAD_H + CELL_H * row
        parts.append(f'<text class="hm-member" x="{label_w - 8:.0f}" y="{y + CELL_H / 2:.0f}" '
                     f'text-anchor="end" dominant-baseline="central">{escape(_cut(name))}</text>')
        for column, concept in enumerate(grid.concepts):
            percent = grid.tally(user_id, concept).percent
            x = label_w + CELL_W * column
            shown = "–" if percent is None else str(percent)
            # Kept short (a team's map has thousands of cells): the stylesheet centres the
            # figure (text-anchor, dominant-baseline) and rounds the corners.
            parts.append(
                f'<g class="{compute_bucket(percent)}"><rect x="{x:.0f}" y="{y}" '
                f'width="{CELL_W - 2}" height="{CELL_H - 2}"/><text '
                f'x="{x + (CELL_W - 2) / 2:.0f}" y="{y + (CELL_H - 2) / 2:.0f}">{shown}</text></g>')
    legend_y = HEAD_H + grid_h + 14
    x = 4.0
    for css, label in legend:
        parts.append(f'<g class="{css}"><rect x="{x:.0f}" y="{legend_y}" width="14" '
                     f'height="14" rx="3"/></g><text class="hm-legend" x="{x + 18:.0f}" '
                     f'y="{legend_y + 7}" dominant-baseline="central">{escape(label)}</text>')
        x += 18 + len(label) * CHAR_W + 14
    parts.append("</svg>")
    return "".join(parts)
