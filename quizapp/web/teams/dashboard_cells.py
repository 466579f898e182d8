"""The dashboard's three grids, a row's cells at a time, as HTML built in Python.

A page of 50 members held about 5,000 cells (a step's standing, a concept's accuracy, a
concept's predicted recall). Through Jinja each cost a dozen attribute lookups and escapes:
70 ms of a page, more than its queries. The markup is the template's as it was, with every
text from a person (none reaches here but numbers and fixed words) escaped all the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from markupsafe import Markup, escape

from quizapp import teams

STATUS_TEXT = {teams.DONE: "Done", teams.OVERDUE: "<strong>Overdue</strong>",
               teams.GONE: "Set deleted", teams.DUE: "To do", teams.OPEN: "To do"}
NO_FIGURE = "–"


def render_step_cells(row: teams.MemberRow, dues: Mapping[int, datetime | None],
                      local_time: Callable[[datetime], str]) -> Markup:
    """A member's cell for each step: its status, the set's best score (with the pass mark)
    or the items reviewed, and its due time when it differs from the column's (``dues``)."""
    parts = []
    for cell in row.cells:
        step, result = cell.step, cell.result
        text = [f'<td class="dash-step dash-{escape(result.status)}">',
                STATUS_TEXT[result.status]]
        if step.kind == "set":
            if result.best_score is not None:
                text.append(f"<br>{result.best_score} of {step.items} ({cell.percent}%)")
                if step.pass_mark:
                    text.append(f", pass {step.pass_mark}%")
            elif result.status != teams.GONE:
                text.append('<br><span class="muted">not taken</span>')
        else:
            text.append(f"<br>{result.reviewed} of {step.items} reviewed")
        if result.due_at and not result.done and result.due_at != dues.get(step.id):
            text.append(f'<br><span class="muted">due {escape(local_time(result.due_at))}</span>')
        text.append("</td>")
        parts.append("".join(text))
    return Markup("\n".join(parts))


def render_accuracy_cells(grid: teams.AccuracyGrid, user_id: int) -> Markup:
    """A member's accuracy on each concept: percent right, then right of given ("–": none)."""
    parts = []
    for concept in grid.concepts:
        tally = grid.tally(user_id, concept)
        parts.append(f'<td class="num">{tally.percent}% <span class="muted">'
                     f'({tally.right}/{tally.total})</span></td>' if tally.total
                     else f'<td class="num">{NO_FIGURE}</td>')
    return Markup("".join(parts))


def render_recall_cells(ready: teams.Readiness | None, concepts: Sequence[str]) -> Markup:
    """A member's predicted recall of each concept, in whole percent ("–": no item of it)."""
    by_concept = ready.by_concept if ready else {}
    parts = []
    for concept in concepts:
        chance = by_concept.get(concept)
        parts.append(f'<td class="num">{NO_FIGURE}</td>' if chance is None
                     else f'<td class="num">{int(round(chance * 100))}%</td>')
    return Markup("".join(parts))
