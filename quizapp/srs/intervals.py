"""Time helpers for scheduling: canonical UTC moments and short interval labels for buttons."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

# Units for interval labels, smallest first: (suffix, length in seconds, decimals shown).
# A label uses the largest unit the span reaches.  Months are a twelfth of a 365-day year so
# that twelve months make exactly one year.  Seconds, minutes, hours and days are whole
# numbers; months and years keep one decimal ("2.1mo", "1.3y") because the difference between
# 1 and 1.4 years is worth seeing on a rating button.
_MINUTE = 60.0
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_YEAR = 365 * _DAY
_MONTH = _YEAR / 12
_LABEL_UNITS: tuple[tuple[str, float, int], ...] = (
    ("s", 1.0, 0),
    ("m", _MINUTE, 0),
    ("h", _HOUR, 0),
    ("d", _DAY, 0),
    ("mo", _MONTH, 1),
    ("y", _YEAR, 1),
)
# Spans from 30 days up are shown in months (a 30-day interval reads "1mo", not "30d").
_MONTH_LABEL_FROM = 30 * _DAY


def canonicalize_utc(moment: datetime, name: str = "now") -> datetime:
    """Return ``moment`` as a timezone-aware UTC datetime; naive datetimes raise ValueError.

    Any aware datetime is accepted and converted, so a caller holding a zoneinfo time gets the
    same schedule as one holding the equivalent UTC time.  fsrs itself insists on
    ``tzinfo is timezone.utc``-equal values, which the conversion guarantees.
    """
    if not isinstance(moment, datetime):
        raise ValueError(f"{name} must be a datetime, got {type(moment).__name__}")
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        raise ValueError(f"{name} must be timezone-aware (UTC); got a naive datetime {moment}")
    return moment.astimezone(UTC)


def _round_half_up(value: float, decimals: int) -> float:
    """Round half away from zero for non-negative values (``round`` would round half to even)."""
    scale = 10**decimals
    return math.floor(value * scale + 0.5) / scale


def _unit_index_for(seconds: float) -> int:
    """Index in _LABEL_UNITS of the unit a span of ``seconds`` is labelled in."""
    if seconds >= _YEAR:
        return 5
    if seconds >= _MONTH_LABEL_FROM:
        return 4
    if seconds >= _DAY:
        return 3
    if seconds >= _HOUR:
        return 2
    if seconds >= _MINUTE:
        return 1
    return 0


def _unit_limit(index: int) -> float:
    """How many of unit ``index`` make the next unit (infinite for years)."""
    if index == 5:
        return math.inf
    if index == 3:
        return _MONTH_LABEL_FROM / _DAY
    return _LABEL_UNITS[index + 1][1] / _LABEL_UNITS[index][1]


def format_interval(delta: timedelta) -> str:
    """Short label for an interval: "45s", "1m", "10m", "3h", "1d", "3d", "2.1mo", "1.3y".

    The amount is rounded half up; when rounding reaches the next unit (59.7 minutes, 11.96
    months) the label moves up to that unit ("1h", "1y") rather than showing "60m" or "12mo".
    Negative intervals raise ValueError.
    """
    if not isinstance(delta, timedelta):
        raise ValueError(f"interval must be a timedelta, got {type(delta).__name__}")
    seconds = delta.total_seconds()
    if seconds < 0:
        raise ValueError(f"interval must not be negative, got {delta}")
    index = _unit_index_for(seconds)
    suffix, unit_seconds, decimals = _LABEL_UNITS[index]
    amount = _round_half_up(seconds / unit_seconds, decimals)
    if amount >= _unit_limit(index):
        index += 1
        suffix, unit_seconds, decimals = _LABEL_UNITS[index]
        amount = _round_half_up(seconds / unit_seconds, decimals)
    if decimals == 0 or amount == int(amount):
        return f"{int(amount)}{suffix}"
    return f"{amount:.{decimals}f}{suffix}"
