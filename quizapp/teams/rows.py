"""One dashboard row per member: each step's standing, set scores, overdue steps, last active;
sortable by any column, stably, with empty values last whichever the direction."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

# A member's standing on a step, as the tracks' rules name it: done, past its due time, due
# at a time, open (no due time), or gone (its practice set was deleted: not counted).
DONE, OVERDUE, DUE, OPEN, GONE = "done", "overdue", "due", "open", "gone"
STATUSES = (DONE, OVERDUE, DUE, OPEN, GONE)
SET = "set"


@dataclass(frozen=True)
class Step:
    """A column of the dashboard: one step of the track, in its order."""

    id: int
    position: int
    kind: str  # "set", "questions" or "skills"
    title: str
    items: int  # a set's items; a list's items still in the bank
    pass_mark: int | None = None  # percent, sets only
    available: bool = True  # False: the step's set was deleted


@dataclass(frozen=True)
class StepResult:
    """One member's standing on one step: ``reviewed`` items (questions and skills) or the
    best finished attempt's right answers (``best_score``, sets), and when it is due for them."""

    step_id: int
    status: str
    due_at: datetime | None = None
    reviewed: int = 0
    best_score: int | None = None
    attempts: int = 0

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown step status {self.status!r}; statuses are {STATUSES}")

    @property
    def done(self) -> bool:
        return self.status == DONE


@dataclass(frozen=True)
class Member:
    """A member the track is assigned to, as the dashboard names them."""

    user_id: int
    username: str
    role: str
    last_active_at: datetime | None = None
    due_at: datetime | None = None  # the track's due time for them (their extension, if any)


def compute_percent(right: int, items: int) -> int:
    """Right answers as a whole percent, rounded down (69.9 % never shows as a pass of 70)."""
    return right * 100 // items if items > 0 else 0


@dataclass(frozen=True)
class Cell:
    """One member's step as its dashboard cell shows it."""

    step: Step
    result: StepResult

    @property
    def percent(self) -> int | None:
        """A set's best score in percent (None before a finished attempt); a list's share of
        items reviewed."""
        if self.step.kind == SET:
            if self.result.best_score is None:
                return None
            return compute_percent(self.result.best_score, self.step.items)
        if self.step.items == 0:
            return 100 if self.result.done else 0
        return compute_percent(self.result.reviewed, self.step.items)

    @property
    def progress(self) -> float:
        """How far along, 0..1, for sorting a step's column (done first, then the furthest)."""
        if self.result.done:
            return 1.0
        if self.step.kind == SET:
            score = self.result.best_score
            return 0.0 if score is None or self.step.items == 0 else score / self.step.items
        return self.result.reviewed / self.step.items if self.step.items else 0.0


@dataclass(frozen=True)
class MemberRow:
    """A member's row: a cell per step (the track's order) and the figures summed over them.
    ``recall`` is FSRS's predicted recall of the track's items at their due time (readiness)."""

    member: Member
    cells: tuple[Cell, ...]
    recall: float | None = None

    @property
    def counted(self) -> int:
        """Steps that can be done (a deleted set's step is left out)."""
        return sum(cell.result.status != GONE for cell in self.cells)

    @property
    def done_count(self) -> int:
        return sum(cell.result.done for cell in self.cells)

    @property
    def completion(self) -> int:
        """Steps done, in whole percent of those that can be (100 when none can)."""
        return compute_percent(self.done_count, self.counted) if self.counted else 100

    @property
    def overdue_count(self) -> int:
        return sum(cell.result.status == OVERDUE for cell in self.cells)

    @property
    def overdue_titles(self) -> tuple[str, ...]:
        return tuple(cell.step.title for cell in self.cells if cell.result.status == OVERDUE)

    @property
    def set_percents(self) -> tuple[int, ...]:
        """The best score of each set the member finished an attempt at, in percent."""
        return tuple(percent for cell in self.cells if cell.step.kind == SET
                     and (percent := cell.percent) is not None)

    @property
    def mean_score(self) -> int | None:
        """The mean of those best scores, rounded down; None before any set was finished."""
        percents = self.set_percents
        return sum(percents) // len(percents) if percents else None

    def cell(self, step_id: int) -> Cell:
        for cell in self.cells:
            if cell.step.id == step_id:
                return cell
        raise KeyError(step_id)


def build_rows(steps: Sequence[Step], members: Iterable[Member],
               results: Mapping[tuple[int, int], StepResult],
               recall: Mapping[int, float | None] | None = None) -> list[MemberRow]:
    """A row per member with a cell per step, from ``results`` keyed (user_id, step_id); a step
    with no result yet is open (nothing done; gone if its set was deleted)."""
    ordered = sorted(steps, key=lambda step: (step.position, step.id))
    # A step nobody has a result for yet shows one cell for all (cells are immutable).
    untouched = [Cell(step, StepResult(step.id, OPEN if step.available else GONE))
                 for step in ordered]
    recall = recall or {}
    rows = []
    for member in members:
        user_id = member.user_id
        cells = tuple(blank if (found := results.get((user_id, blank.step.id))) is None
                      else Cell(blank.step, found) for blank in untouched)
        rows.append(MemberRow(member, cells, recall.get(user_id)))
    return rows


def compute_common_dues(rows: Sequence[MemberRow]) -> dict[int, datetime | None]:
    """Each step's due time for most of ``rows`` (the earliest of equally common ones), for
    its column's heading: a cell then names its own only when it differs (an extension)."""
    counts: dict[int, dict[datetime | None, int]] = {}
    for row in rows:
        for cell in row.cells:
            seen = counts.setdefault(cell.step.id, {})
            seen[cell.result.due_at] = seen.get(cell.result.due_at, 0) + 1
    return {step_id: min(seen, key=lambda due: (-seen[due], due is None,
                                                 due.timestamp() if due else 0.0))
            for step_id, seen in counts.items()}


# --- sorting -------------------------------------------------------------------------------

SORT_COLUMNS: dict[str, str] = {
    "member": "Member", "role": "Role", "done": "Steps done", "overdue": "Overdue",
    "score": "Set score", "recall": "Predicted recall", "active": "Last active",
}
STEP_COLUMN = "step-"  # "step-<id>": one step's column
ROLE_ORDER = {"owner": 0, "lead": 1, "member": 2}
SORT_TEXT_MAX = 32


@dataclass(frozen=True)
class Sort:
    """A column and a direction; ``text`` is its query value ("-done": steps done, most first)."""

    column: str
    descending: bool = False

    @property
    def text(self) -> str:
        return ("-" if self.descending else "") + self.column

    def toggled(self, column: str) -> Sort:
        """The sort a column's header link asks for: the other direction on the current column,
        else that column ascending (names A to Z; numbers smallest first)."""
        if column == self.column:
            return Sort(column, not self.descending)
        return Sort(column, False)


# Names A to Z: the order a lead finds a person in, and the same on every visit.
DEFAULT_SORT = Sort("member")


def canonicalize_sort(text: str | None, step_ids: Iterable[int] = ()) -> Sort:
    """The sort a query value names ("done", "-overdue", "step-12"); DEFAULT_SORT for an
    empty, unknown or overlong one (a stale link still shows the dashboard)."""
    if not text or len(text) > SORT_TEXT_MAX:
        return DEFAULT_SORT
    descending = text.startswith("-")
    column = text[1:] if descending else text
    if column in SORT_COLUMNS:
        return Sort(column, descending)
    if column.startswith(STEP_COLUMN) and column[len(STEP_COLUMN):].isdigit() and (
            column[len(STEP_COLUMN):].isascii()):
        if int(column[len(STEP_COLUMN):]) in set(step_ids):
            return Sort(column, descending)
    return DEFAULT_SORT


def _sort_value(column: str) -> Callable[[MemberRow], object]:
    """The value a row is sorted by in ``column`` (None: empty, sorted last)."""
    if column.startswith(STEP_COLUMN):
        step_id = int(column[len(STEP_COLUMN):])
        return lambda row: row.cell(step_id).progress
    values: dict[str, Callable[[MemberRow], object]] = {
        "member": lambda row: row.member.username.casefold(),
        "role": lambda row: ROLE_ORDER.get(row.member.role, len(ROLE_ORDER)),
        "done": lambda row: (row.completion, row.done_count),
        "overdue": lambda row: row.overdue_count,
        "score": lambda row: row.mean_score,
        "recall": lambda row: row.recall,
        "active": lambda row: row.member.last_active_at,
    }
    return values[column]


def sort_rows(rows: Iterable[MemberRow], sort: Sort = DEFAULT_SORT) -> list[MemberRow]:
    """``rows`` in ``sort``'s order. Ties keep name order (then account id), in either
    direction, so the page never shuffles; rows without a value (no set finished, never
    active) come last either way, as spreadsheets put blanks."""
    value = _sort_value(sort.column)
    by_name = sorted(rows, key=lambda row: (row.member.username.casefold(), row.member.user_id))
    valued = [row for row in by_name if value(row) is not None]
    empty = [row for row in by_name if value(row) is None]
    # Python's sort is stable with reverse=True too: equal values keep the name order.
    valued.sort(key=value, reverse=sort.descending)  # type: ignore[arg-type]
    return valued + empty


# --- pages ---------------------------------------------------------------------------------

PAGE_SIZE = 25  # members per dashboard page: the heat map and tables stay readable and quick


@dataclass(frozen=True)
class Page:
    """One page of rows: ``number`` of ``pages`` (1-based), rows ``start`` to ``stop``."""

    number: int
    pages: int
    start: int
    stop: int


def compute_page(count: int, text: str | None, size: int = PAGE_SIZE) -> Page:
    """Page ``text`` (the query value) of ``count`` rows, ``size`` a page: the first for an
    empty or unreadable value, the last for one past the end (a team that shrank)."""
    size = max(size, 1)
    pages = max(1, -(-count // size))
    number = int(text) if text and text.isascii() and text.isdigit() and len(text) <= 6 else 1
    number = min(max(number, 1), pages)
    return Page(number, pages, (number - 1) * size, min(number * size, count))
