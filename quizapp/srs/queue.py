"""Daily study planning: which due and new items make today's session, and when "today" began."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import TypeVar

from quizapp.srs.intervals import canonicalize_utc

T = TypeVar("T")

DEFAULT_NEW_LIMIT = 20
DEFAULT_REVIEW_LIMIT = 200
# Real-world UTC offsets run from -12:00 to +14:00; allow the symmetric +-14:00 band.
MAX_TZ_OFFSET_MINUTES = 14 * 60
# The study day turns over at 04:00 local time, not midnight (Anki's "next day starts at"
# default): a session that runs past midnight stays one day, with one set of daily limits,
# and a review due "tomorrow" is not released minutes after a late-evening rating.
DAY_STARTS_AT = timedelta(hours=4)


def _validate_count(value: object, name: str) -> int:
    """A non-negative int (bools refused), or ValueError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    return value


def compute_remaining(limit: int, done_today: int) -> int:
    """How many more items a daily ``limit`` allows after ``done_today`` (never below zero)."""
    return max(0, _validate_count(limit, "limit") - _validate_count(done_today, "done_today"))


def plan_session(
    due: Sequence[T],
    new: Sequence[T],
    *,
    learning: Sequence[T] = (),
    new_done_today: int,
    reviews_done_today: int,
    new_limit: int = DEFAULT_NEW_LIMIT,
    review_limit: int = DEFAULT_REVIEW_LIMIT,
) -> list[T]:
    """Items to study now: due items first, then new ones, each capped by what is left today.

    ``due`` must already be ordered by due time (oldest first) and ``new`` in the order new
    items should be introduced; both orders are kept.  Due items are capped by
    ``review_limit - reviews_done_today`` and new items by ``new_limit - new_done_today``; the
    two limits are independent, as in the user's settings.  ``learning`` (due items in their
    learning or relearning steps, not already in ``due``) come first and are never capped:
    Anki shows intraday learning whatever its daily limits.  Inputs are not modified.
    """
    reviews_left = compute_remaining(
        _validate_count(review_limit, "review_limit"),
        _validate_count(reviews_done_today, "reviews_done_today"),
    )
    new_left = compute_remaining(
        _validate_count(new_limit, "new_limit"),
        _validate_count(new_done_today, "new_done_today"),
    )
    return list(learning) + list(due[:reviews_left]) + list(new[:new_left])


def day_start(now: datetime, zone: tzinfo | int = 0) -> datetime:
    """Start of the user's current study day, as a timezone-aware UTC datetime.

    The study day runs from DAY_STARTS_AT (04:00) to 04:00 the next day on the wall clock of
    ``zone``: a tzinfo (a ZoneInfo follows daylight saving, so the day still turns over at
    04:00 local in summer), or a fixed offset in minutes east of UTC (+60 for UTC+01:00, -300
    for UTC-05:00).  Reviews at or after the returned moment count toward today's limits.
    """
    moment = canonicalize_utc(now)
    zone = canonicalize_zone(zone)
    # Wall-clock arithmetic (aware datetimes of one tzinfo add and subtract as local times):
    # before 04:00 belongs to the previous date's study day.
    local = moment.astimezone(zone) - DAY_STARTS_AT
    local_start = local.replace(hour=0, minute=0, second=0, microsecond=0) + DAY_STARTS_AT
    return local_start.astimezone(UTC)


def next_day_start(now: datetime, zone: tzinfo | int = 0) -> datetime:
    """Start of the study day after the current one: 23 to 25 hours after day_start where the
    clocks change, 24 elsewhere."""
    # Every study day lasts 22 to 26 hours (clock changes shift by one hour at most, half an
    # hour on Lord Howe Island), so 26 hours after today's start is inside the next day.
    return day_start(day_start(now, zone) + timedelta(hours=26), zone)


def canonicalize_zone(zone: object) -> tzinfo:
    """A tzinfo as is; an int as a fixed offset of that many minutes (within
    +-MAX_TZ_OFFSET_MINUTES); anything else is a ValueError."""
    if isinstance(zone, tzinfo):
        return zone
    if isinstance(zone, bool) or not isinstance(zone, int):
        raise ValueError(f"zone must be a tzinfo or an offset in minutes, got {zone!r}")
    if abs(zone) > MAX_TZ_OFFSET_MINUTES:
        raise ValueError(f"a UTC offset must be within +-{MAX_TZ_OFFSET_MINUTES} minutes, got {zone}")
    return timezone(timedelta(minutes=zone))
