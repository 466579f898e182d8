"""Progress figures and their charts, pure: mastery by concept and level, puzzle accuracy, the
year of reviews and the streak, computed from plain values and drawn as SVG."""

from quizapp.progress.charts import Bar, count_reviews, format_day, render_bars, render_heat_map
from quizapp.progress.figures import (
    ACCURACY_WINDOW,
    CALENDAR_DAYS,
    Accuracy,
    Calendar,
    CalendarDay,
    ItemMemory,
    Mastery,
    PuzzleAnswer,
    Streak,
    compute_accuracy,
    compute_calendar,
    compute_calendar_starts,
    compute_concept_mastery,
    compute_level_mastery,
    compute_streak,
)

__all__ = [
    "ACCURACY_WINDOW",
    "CALENDAR_DAYS",
    "Accuracy",
    "Bar",
    "Calendar",
    "CalendarDay",
    "ItemMemory",
    "Mastery",
    "PuzzleAnswer",
    "Streak",
    "compute_accuracy",
    "compute_calendar",
    "compute_calendar_starts",
    "compute_concept_mastery",
    "compute_level_mastery",
    "compute_streak",
    "count_reviews",
    "format_day",
    "render_bars",
    "render_heat_map",
]
