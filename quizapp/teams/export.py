"""The dashboard as CSV: one row per member and step, every text cell formula-neutralised."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime

from quizapp.markup.spreadsheet import neutralize_cell
from quizapp.teams.heatmap import Tally
from quizapp.teams.readiness import Readiness
from quizapp.teams.rows import SET, MemberRow

CSV_HEADER = (
    "member", "role", "step", "step_title", "step_kind", "status", "due_utc", "items",
    "reviewed", "best_score", "best_percent", "pass_mark", "attempts", "right_answers",
    "answers", "accuracy_percent", "predicted_recall_percent", "studied_items", "recall_at_utc",
    "last_active_utc",
)


def format_utc(moment: datetime | None) -> str:
    """ISO 8601 in UTC to the second ("2025-03-03T09:00:00Z"); empty for None."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def compute_csv_rows(rows: Iterable[MemberRow],
                     accuracy: Mapping[tuple[int, int], Tally],
                     recall: Mapping[tuple[int, int], Readiness]) -> Iterator[tuple[str, ...]]:
    """A row per member and step, in the rows' order and the track's: the step's standing,
    the accuracy of the answers given on it (``accuracy`` keyed (user_id, step_id)) and the
    predicted recall of its items (``recall``, same keys). Every text cell goes through the
    spreadsheet guard, names and titles being anyone's text, each once per member or step;
    the counts and times written here are digits first, which no spreadsheet reads as a
    formula, and are left as they are."""
    steps: dict[int, tuple[str, str]] = {}
    for row in rows:
        member = row.member
        username, role = neutralize_cell(member.username), neutralize_cell(member.role)
        last_active = format_utc(member.last_active_at)
        for cell in row.cells:
            if cell.step.id not in steps:
                steps[cell.step.id] = (neutralize_cell(cell.step.title),
                                       neutralize_cell(cell.step.kind))
            title, kind = steps[cell.step.id]
            key = (member.user_id, cell.step.id)
            tally = accuracy.get(key, Tally())
            ready = recall.get(key)
            is_set = cell.step.kind == SET
            yield (
                username, role, str(cell.step.position + 1), title,
                kind, neutralize_cell(cell.result.status), format_utc(cell.result.due_at),
                str(cell.step.items), "" if is_set else str(cell.result.reviewed),
                _number(cell.result.best_score) if is_set else "",
                _number(cell.percent) if is_set else "",
                _number(cell.step.pass_mark) if is_set else "",
                str(cell.result.attempts) if is_set else "",
                str(tally.right), str(tally.total), _number(tally.percent),
                _number(ready.percent) if ready else "", str(ready.studied) if ready else "",
                format_utc(ready.at) if ready else "", last_active,
            )


def format_csv(rows: Iterable[Iterable[str]], header: Iterable[str] = CSV_HEADER) -> str:
    """CSV text (RFC 4180, CRLF line ends) with every cell quoted, as the other exports write
    it: a spreadsheet splitting on ";" or tabs still keeps one cell one cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
