"""Server-side SVG of the progress figures: labelled bars, and a year's heat map of reviews."""

# The SVG sits inline in the page and takes its colours from the stylesheet (classes styled in
# app.css with the theme's variables), so it follows dark mode; text is currentColor. No figure
# is told by colour alone: every bar carries its numbers as text, and a heat-map square grows
# with its day's count (and names the count in its title). Bars are laid out in percentages of
# the chart's width, not in a scaled viewBox, so their text keeps its size on a phone.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from quizapp.progress.figures import Calendar, compute_heat_level, compute_weeks

ROW_HEIGHT = 40  # a bar's label line, the bar and the gap below it
BAR_HEIGHT = 12
CELL = 13  # a heat-map day: its square's largest size plus the gap
DAY_LABELS = 28  # room for the weekday names left of the squares
MONTH_LABELS = 16
SQUARE = {0: 5, 1: 6, 2: 8, 3: 10, 4: 11}  # the side of a day's square by heat level
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "")


@dataclass(frozen=True)
class Bar:
    """One bar: its label, the share it fills (0..1) and the figures written beside it."""

    label: str
    share: float
    figures: str


def _open(chart_id: str, title: str, desc: str, css: str, height: int,
          width: str = "100%", view_box: str | None = None) -> list[str]:
    box = f' viewBox="{view_box}"' if view_box else ""
    return [f'<svg class="chart {css}" role="img" width="{width}" height="{height}"{box} '
            f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
            f'xmlns="http://www.w3.org/2000/svg">',
            f'<title id="{chart_id}-title">{escape(title)}</title>',
            f'<desc id="{chart_id}-desc">{escape(desc)}</desc>']


def render_bars(chart_id: str, title: str, desc: str, bars: Sequence[Bar]) -> str:
    """Horizontal bars, one per row: label left and figures right above a track it fills."""
    height = max(1, len(bars)) * ROW_HEIGHT
    parts = _open(chart_id, title, desc, "chart-bars", height)
    for row, bar in enumerate(bars):
        top = row * ROW_HEIGHT
        share = min(1.0, max(0.0, bar.share))
        parts.append(f'<g class="chart-row"><title>{escape(bar.label)}: '
                     f'{escape(bar.figures)}</title>')
        parts.append(f'<text class="chart-label" x="0" y="{top + 14}">{escape(bar.label)}</text>')
        parts.append(f'<text class="chart-figures" x="100%" y="{top + 14}" '
                     f'text-anchor="end">{escape(bar.figures)}</text>')
        parts.append(f'<rect class="chart-track" x="0" y="{top + 19}" width="100%" '
                     f'height="{BAR_HEIGHT}" rx="3"/>')
        if share > 0:
            parts.append(f'<rect class="chart-fill" x="0" y="{top + 19}" '
                         f'width="{share * 100:.1f}%" height="{BAR_HEIGHT}" rx="3"/>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def format_day(day) -> str:
    return f"{day:%a} {day.day} {day:%b %Y}"


def count_reviews(count: int) -> str:
    return f"{count} review{'' if count == 1 else 's'}"


def render_heat_map(chart_id: str, calendar: Calendar, halves: int = 2) -> str:
    """The calendar as week columns of Monday-first days, cut into ``halves`` stacked rows of
    weeks so the year fits a phone's width without shrinking its text. A day's square grows
    with its count (five sizes, the empty day an outline), and its title names the count."""
    weeks = compute_weeks(calendar)
    per_row = -(-len(weeks) // halves) if weeks else 0
    band = MONTH_LABELS + 7 * CELL + 10
    width = DAY_LABELS + per_row * CELL
    height = band * halves + 24  # the legend below
    busiest = calendar.busiest
    desc = (f"{count_reviews(calendar.total)} over the {len(calendar.days)} study days up to "
            f"today; the busiest day had {count_reviews(busiest)}. Each square is a day, "
            "larger and stronger the more reviews it had; the table below lists every day.")
    parts = _open(chart_id, "Reviews per study day, last 12 months", desc, "chart-heat",
                  height, width=str(width), view_box=f"0 0 {width} {height}")
    for half in range(halves):
        top = half * band
        for row, name in enumerate(WEEKDAYS):
            if name:
                parts.append(f'<text class="chart-small" x="0" '
                             f'y="{top + MONTH_LABELS + row * CELL + 10}">{name}</text>')
        shown_month = None
        for column, week in enumerate(weeks[half * per_row:(half + 1) * per_row]):
            x = DAY_LABELS + column * CELL
            first = next((day for day in week.days if day is not None), None)
            # A month is named over its first week, unless too near the row's end to fit.
            if first is not None and first.day.month != shown_month and (
                    column == 0 or first.day.day <= 7) and column < per_row - 2:
                shown_month = first.day.month
                parts.append(f'<text class="chart-small" x="{x}" y="{top + 11}">'
                             f'{first.day:%b}</text>')
            for row, day in enumerate(week.days):
                if day is None:
                    continue
                level = compute_heat_level(day.reviews, busiest)
                side = SQUARE[level]
                inset = (CELL - 2 - side) / 2
                today = " heat-today" if day.day == calendar.today else ""
                parts.append(
                    f'<rect class="heat heat-{level}{today}" x="{x + inset:g}" '
                    f'y="{top + MONTH_LABELS + row * CELL + inset:g}" width="{side}" '
                    f'height="{side}" rx="2"><title>{format_day(day.day)}: '
                    f'{count_reviews(day.reviews)}</title></rect>')
    legend_y = band * halves + 4
    parts.append(f'<text class="chart-small" x="0" y="{legend_y + 10}">Fewer</text>')
    for level in range(5):
        side = SQUARE[level]
        left = 40 + level * CELL + (CELL - 2 - side) / 2
        parts.append(f'<rect class="heat heat-{level}" x="{left:g}" '
                     f'y="{legend_y + (CELL - 2 - side) / 2:g}" width="{side}" height="{side}" '
                     'rx="2"/>')
    parts.append(f'<text class="chart-small" x="{40 + 5 * CELL + 4}" y="{legend_y + 10}">'
                 'More</text>')
    parts.append("</svg>")
    return "".join(parts)
