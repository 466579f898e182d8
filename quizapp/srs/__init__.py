"""Spaced repetition for quizapp: a thin, deterministic wrapper around the fsrs library."""

from quizapp.srs.intervals import canonicalize_utc, format_interval
from quizapp.srs.queue import compute_remaining, day_start, plan_session
from quizapp.srs.rating import AGAIN, EASY, GOOD, HARD, RATINGS, suggest_rating, validate_rating
from quizapp.srs.scheduling import (
    DEFAULT_DESIRED_RETENTION,
    DESIRED_RETENTION_RANGE,
    ReviewResult,
    is_learning,
    is_new,
    new_state,
    preview_intervals,
    review,
    state_due,
    validate_desired_retention,
)

__all__ = [
    "AGAIN",
    "DEFAULT_DESIRED_RETENTION",
    "DESIRED_RETENTION_RANGE",
    "EASY",
    "GOOD",
    "HARD",
    "RATINGS",
    "ReviewResult",
    "canonicalize_utc",
    "compute_remaining",
    "day_start",
    "format_interval",
    "is_learning",
    "is_new",
    "new_state",
    "plan_session",
    "preview_intervals",
    "review",
    "state_due",
    "suggest_rating",
    "validate_desired_retention",
    "validate_rating",
]
