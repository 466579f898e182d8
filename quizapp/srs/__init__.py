"""Spaced repetition for quizapp: a thin, deterministic wrapper around the fsrs library."""

from quizapp.srs.intervals import canonicalize_utc, format_interval
from quizapp.srs.queue import compute_remaining, plan_session
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
from quizapp.srs.study_day import (
    compute_day_start_after,
    compute_study_day,
    count_study_days_between,
    day_start,
    next_day_start,
)
from quizapp.srs.zones import (
    DEFAULT_ZONE,
    ZONE_NAME_MAX,
    canonicalize_zone_name,
    compute_zone,
    describe_zone,
    format_fixed_offset,
    is_zone_name,
    listed_zone_names,
)

__all__ = [
    "AGAIN",
    "DEFAULT_DESIRED_RETENTION",
    "DEFAULT_ZONE",
    "ZONE_NAME_MAX",
    "DESIRED_RETENTION_RANGE",
    "EASY",
    "GOOD",
    "HARD",
    "RATINGS",
    "ReviewResult",
    "canonicalize_utc",
    "canonicalize_zone_name",
    "compute_day_start_after",
    "compute_remaining",
    "compute_study_day",
    "compute_zone",
    "count_study_days_between",
    "day_start",
    "describe_zone",
    "format_fixed_offset",
    "format_interval",
    "is_learning",
    "is_new",
    "is_zone_name",
    "listed_zone_names",
    "new_state",
    "next_day_start",
    "plan_session",
    "preview_intervals",
    "review",
    "state_due",
    "suggest_rating",
    "validate_desired_retention",
    "validate_rating",
]
