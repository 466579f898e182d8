"""Progress figures from plain values: mastery, puzzle accuracy, the year of reviews, the streak."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from quizapp import srs

ACCURACY_WINDOW = timedelta(days=30)  # puzzle accuracy reads the answers of the last 30 days
CALENDAR_DAYS = 365  # the heat map: today and the 364 study days before it


@dataclass(frozen=True)
class ItemMemory:
    """One card or skill of the bank with the user's FSRS state for it (None: never rated)."""

    kind: str  # "card" or "skill"
    level: str
    concepts: tuple[str, ...]
    state: Mapping[str, object] | None


@dataclass(frozen=True)
class PuzzleAnswer:
    """A judged puzzle answer: in a review, or in practice (which schedules nothing)."""

    family: str
    answered_at: datetime
    correct: bool


@dataclass(frozen=True)
class Mastery:
    """How far a group of items (one concept, or one level) has come: ``in_review`` of its
    ``items`` are past their learning steps, and ``recall`` is FSRS's mean chance of recalling
    those now (None while none is in review)."""

    name: str
    items: int
    in_review: int
    recall: float | None

    @property
    def share(self) -> float:
        return self.in_review / self.items if self.items else 0.0


@dataclass(frozen=True)
class Accuracy:
    """A puzzle family's answers in the window and how many were right."""

    family: str
    answers: int
    right: int

    @property
    def share(self) -> float:
        return self.right / self.answers if self.answers else 0.0


@dataclass(frozen=True)
class CalendarDay:
    day: date  # the date naming the study day (it starts at 04:00 local time)
    reviews: int


@dataclass(frozen=True)
class Streak:
    """Study days in a row with a review. ``current`` ends today, or yesterday while today has
    none yet (the streak is kept until today's study day ends); ``at_least`` says the run
    reaches back past the calendar, so it may be longer."""

    current: int
    longest: int
    studied_today: bool
    at_least: bool = False


@dataclass(frozen=True)
class Calendar:
    days: tuple[CalendarDay, ...]  # oldest first, today last

    @property
    def today(self) -> date:
        return self.days[-1].day

    @property
    def total(self) -> int:
        return sum(day.reviews for day in self.days)

    @property
    def busiest(self) -> int:
        return max((day.reviews for day in self.days), default=0)


def compute_recall_in_review(state: Mapping[str, object] | None, now: datetime,
                             zone: tzinfo) -> float | None:
    """The chance of recall now of an item in review; None for one new or in (re)learning."""
    if state is None:
        return None
    memory = srs.compute_memory(state, now, zone)
    if memory is None or memory.stage != "review":
        return None
    return memory.retrievability


def _compute_mastery(items: Iterable[ItemMemory], now: datetime, zone: tzinfo,
                     groups: Callable[[ItemMemory], Iterable[str]],
                     order: Sequence[str] = ()) -> list[Mastery]:
    counts: Counter[str] = Counter()
    recalls: defaultdict[str, list[float]] = defaultdict(list)
    for item in items:
        recall = compute_recall_in_review(item.state, now, zone)
        for name in groups(item):
            counts[name] += 1
            if recall is not None:
                recalls[name].append(recall)
    rank = {name: index for index, name in enumerate(order)}
    names = sorted(counts, key=lambda name: (rank.get(name, len(rank)), name))
    return [Mastery(name, counts[name], len(recalls[name]),
                    sum(recalls[name]) / len(recalls[name]) if recalls[name] else None)
            for name in names]


def compute_concept_mastery(items: Iterable[ItemMemory], now: datetime,
                            zone: tzinfo) -> list[Mastery]:
    """Mastery per concept tag (an item counts under each of its tags), by tag name."""
    return _compute_mastery(items, now, zone, lambda item: item.concepts)


def compute_level_mastery(items: Iterable[ItemMemory], now: datetime, zone: tzinfo,
                          levels: Sequence[str]) -> list[Mastery]:
    """Mastery per level, in the order of ``levels`` (junior first)."""
    return _compute_mastery(items, now, zone, lambda item: (item.level,), levels)


def compute_accuracy(answers: Iterable[PuzzleAnswer], now: datetime,
                     window: timedelta = ACCURACY_WINDOW) -> list[Accuracy]:
    """Right answers per family among those given in (now - window, now], by family id."""
    since = now - window
    given: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for answer in answers:
        if since < answer.answered_at <= now:
            given[answer.family] += 1
            right[answer.family] += answer.correct
    return [Accuracy(family, given[family], right[family]) for family in sorted(given)]


def compute_calendar_starts(now: datetime, zone: tzinfo,
                            days: int = CALENDAR_DAYS) -> list[datetime]:
    """Starts of the ``days`` study days up to today's, oldest first, then tomorrow's start."""
    today, tomorrow = srs.compute_study_day(now, zone)
    starts = [today]
    for _ in range(days - 1):
        # The instant before a day's start lies in the day before it (23 to 25 hours long).
        starts.append(srs.day_start(starts[-1] - timedelta(microseconds=1), zone))
    starts.reverse()
    starts.append(tomorrow)
    return starts


def compute_calendar(reviewed_at: Iterable[datetime], now: datetime, zone: tzinfo,
                     days: int = CALENDAR_DAYS,
                     starts: Sequence[datetime] | None = None) -> Calendar:
    """Reviews per study day in ``zone`` over the last ``days`` study days (today last); times
    outside those days are left out. Each time is placed by bisection among the day starts
    (compute_calendar_starts, passed as ``starts`` when already computed), so a year of a
    heavy user's reviews costs no time-zone arithmetic per review."""
    starts = starts or compute_calendar_starts(now, zone, days)
    counts = [0] * days
    for moment in reviewed_at:
        index = bisect_right(starts, moment) - 1
        if 0 <= index < days:
            counts[index] += 1
    return Calendar(tuple(CalendarDay(srs.compute_study_date(start, zone), count)
                          for start, count in zip(starts[:-1], counts, strict=True)))


def compute_streak(calendar: Calendar) -> Streak:
    """The current and the longest run of study days with a review, within ``calendar``."""
    studied = [day.reviews > 0 for day in calendar.days]
    longest = run = 0
    for flag in studied:
        run = run + 1 if flag else 0
        longest = max(longest, run)
    today = studied[-1] if studied else False
    current = 0
    for flag in reversed(studied[:-1] if not today else studied):
        if not flag:
            break
        current += 1
    return Streak(current, longest, today, at_least=bool(studied) and current >= len(studied) - (
        0 if today else 1))


@dataclass(frozen=True)
class Week:
    """One column of the heat map: seven study dates from Monday (None outside the calendar)."""

    days: tuple[CalendarDay | None, ...]


def compute_weeks(calendar: Calendar) -> list[Week]:
    """The calendar cut into Monday-first weeks, as a heat map draws its columns."""
    if not calendar.days:
        return []
    weeks: list[Week] = []
    pending: list[CalendarDay | None] = [None] * calendar.days[0].day.weekday()
    for day in calendar.days:
        pending.append(day)
        if len(pending) == 7:
            weeks.append(Week(tuple(pending)))
            pending = []
    if pending:
        weeks.append(Week(tuple(pending + [None] * (7 - len(pending)))))
    return weeks


def compute_heat_level(reviews: int, busiest: int) -> int:
    """0 for none, else 1..4 by the quarter of the busiest day's count it reaches."""
    if reviews <= 0 or busiest <= 0:
        return 0
    return min(4, 1 + (4 * (reviews - 1)) // busiest)
