"""Tracks' pure rules: when a member's step is done, when it is due, and what it shows."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from quizapp.services.errors import ServiceError

SET, QUESTIONS, SKILLS = "set", "questions", "skills"
KINDS = {SET: "Practice set", QUESTIONS: "Question list", SKILLS: "Puzzle skills"}
# What a member's step shows: done, past its due time, due at a time, open (no due time),
# or gone (its practice set was deleted: it cannot be taken, so it is not counted either way).
DONE, OVERDUE, DUE, OPEN, GONE = "done", "overdue", "due", "open", "gone"
STATUS_LABELS = {DONE: "Done", OVERDUE: "Overdue", DUE: "Due", OPEN: "To do",
                 GONE: "Set deleted"}


def compute_percent(score: int, items: int) -> int:
    """A set score as a whole percent, rounded down (so 69.9 % never shows as a pass of 70)."""
    return score * 100 // items if items else 0


def is_passing(score: int, items: int, pass_mark: int | None) -> bool:
    """Whether ``score`` right answers of ``items`` reach ``pass_mark`` percent, in integers
    (no float rounding: 7 of 10 reaches 70, 13 of 19 does not reach 70). No pass mark: any
    finished attempt passes."""
    if pass_mark is None:
        return True
    return score * 100 >= pass_mark * items


def compute_set_done(scores: Iterable[int], items: int, pass_mark: int | None) -> bool:
    """A set step is done once one finished attempt recorded for it reaches the pass mark."""
    return any(is_passing(score, items, pass_mark) for score in scores)


def compute_items_done(required: Collection[int], reviewed: Collection[int]) -> tuple[int, bool]:
    """(how many of the step's ``required`` items were ``reviewed``, whether that is each of
    them). A step with nothing left to review (every item retired from the bank) is done."""
    count = sum(item in reviewed for item in required)
    return count, compute_count_done(count, len(required))


def compute_count_done(reviewed: int, required: int) -> bool:
    """A question or skills step is done once ``reviewed`` reaches its ``required`` count
    (a step whose items all left the bank requires none, so it is done)."""
    return reviewed == required


def compute_start(assigned_at: datetime, joined_at: datetime | None) -> datetime:
    """When an assignment started for a member: when it was made, or when they joined the team
    after that (a later joiner's earlier reviews were not work on it)."""
    return max(assigned_at, joined_at) if joined_at is not None else assigned_at


def compute_step_due(step_due: datetime | None, assignment_due: datetime | None,
                     person_due: datetime | None) -> datetime | None:
    """When a step is due for one member. Their own date (an extension) replaces the
    assignment's; a step's own date moves with it by as much as the extension moved the
    assignment's, and no step is due after the member's track date."""
    deadline = person_due or assignment_due
    if step_due is None:
        return deadline
    if person_due is not None and assignment_due is not None:
        step_due += person_due - assignment_due
    if deadline is not None and step_due > deadline:
        return deadline
    return step_due


def compute_status(done: bool, due: datetime | None, now: datetime,
                   available: bool = True) -> str:
    """DONE, GONE (cannot be done any more), OVERDUE (past ``due``), DUE or OPEN."""
    if done:
        return DONE
    if not available:
        return GONE
    if due is None:
        return OPEN
    return OVERDUE if now > due else DUE


@dataclass(frozen=True)
class StepProgress:
    """One member's standing on one step: done or not, how far (items reviewed of those the
    step holds, or the best set score), when it is due for them and its status."""

    step_id: int
    position: int
    kind: str
    title: str
    done: bool
    status: str
    due_at: datetime | None
    items: int  # the step's items (a set: its items; a list: those still in the bank)
    reviewed: int = 0  # questions and skills: items reviewed since the assignment started
    best_score: int | None = None  # a set: the best finished attempt's right answers
    pass_mark: int | None = None
    attempts: int = 0  # a set: finished attempts recorded for the step

    @property
    def best_percent(self) -> int | None:
        return None if self.best_score is None else compute_percent(self.best_score, self.items)

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]


@dataclass(frozen=True)
class TrackProgress:
    """One member's standing on one assigned track: its steps in order, and the due time that
    applies to them (their extension, else the assignment's)."""

    assignment_id: int
    track_id: int
    team_id: int
    team_name: str
    track_title: str
    due_at: datetime | None
    started_at: datetime
    steps: tuple[StepProgress, ...]

    @property
    def done_count(self) -> int:
        return sum(step.done for step in self.steps)

    @property
    def counted(self) -> int:
        """Steps that can be done (a deleted set's step is left out)."""
        return sum(step.status != GONE for step in self.steps)

    @property
    def done(self) -> bool:
        return self.done_count == self.counted

    @property
    def overdue(self) -> tuple[StepProgress, ...]:
        return tuple(step for step in self.steps if step.status == OVERDUE)

    @property
    def next_due(self) -> StepProgress | None:
        """The open step due soonest (overdue ones first), None when none has a due time."""
        waiting = [step for step in self.steps if step.status in (OVERDUE, DUE)]
        return min(waiting, key=lambda step: (step.due_at, step.position), default=None)

    @property
    def status(self) -> str:
        if self.done:
            return DONE
        if self.overdue:
            return OVERDUE
        return DUE if self.next_due is not None else OPEN


def order_assignments(tracks: Sequence[TrackProgress]) -> list[TrackProgress]:
    """A member's assignments as their home page lists them: overdue first, then by the next
    due time, then those without one, and done ones last; newest assignment first on a tie."""
    rank = {OVERDUE: 0, DUE: 1, OPEN: 2, DONE: 3}

    def key(track: TrackProgress) -> tuple:
        due = track.next_due.due_at if track.next_due else None
        return (rank[track.status], due is None, due.timestamp() if due else 0.0,
                -track.started_at.timestamp(), track.assignment_id)

    return sorted(tracks, key=key)


# A due date is the end of that day on the lead's clock: 23:59, so "due 12 March" is met by
# work done late on the 12th.
DUE_TIME = time(23, 59)
DUE_AHEAD_MAX = timedelta(days=2 * 366)


def canonicalize_due(text: str, zone: tzinfo, now: datetime) -> datetime | None:
    """A typed due date ("2025-03-12", as a date field sends it) as the UTC time it ends in
    ``zone``; None for an empty field. ServiceError for a date that cannot be read, has
    passed, or lies more than two years ahead."""
    text = text.strip()
    if not text:
        return None
    try:
        day = date.fromisoformat(text[:10]) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise ServiceError(f"{text[:20]!r} is not a date: give it as YYYY-MM-DD, e.g. "
                           f"{now.astimezone(zone).date().isoformat()}.")
    due = datetime.combine(day, DUE_TIME, tzinfo=zone).astimezone(UTC)
    if due < now:
        raise ServiceError(f"{day.isoformat()} has passed: pick today or a later day.")
    if due > now + DUE_AHEAD_MAX:
        raise ServiceError("A due date is at most two years ahead.")
    return due
