"""When a user's study day begins and ends: 04:00 on their wall clock, whatever the clocks do."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo

from quizapp.srs.intervals import canonicalize_utc

# Real-world UTC offsets run from -12:00 to +14:00; allow the symmetric +-14:00 band.
MAX_TZ_OFFSET_MINUTES = 14 * 60
# The study day turns over at 04:00 local time, not midnight (Anki's "next day starts at"
# default): a session that runs past midnight stays one day, with one set of daily limits,
# and a review due "tomorrow" is not released minutes after a late-evening rating.
DAY_STARTS_AT = timedelta(hours=4)
_ONE_DAY = timedelta(days=1)


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


def _wall(instant: datetime, zone: tzinfo) -> datetime:
    """What the wall clock of ``zone`` reads at ``instant`` (naive)."""
    return instant.astimezone(zone).replace(tzinfo=None)


def compute_day_start_on(local_date: date, zone: tzinfo) -> datetime:
    """The first instant at which the wall clock of ``zone`` reads ``local_date`` 04:00 or later.

    Usually the one instant that reads 04:00. Where 04:00 comes twice (clocks set back across
    it), the first. Where it never comes (clocks set forward across it: an hour in summer
    time, three hours at Casey station in 2019, a whole day where a zone crossed the date
    line), the moment of that change: Python resolves a missing wall time with the offset of
    before the change (PEP 495, fold=0), which lands as many hours past the change as the
    clocks jumped, so the change itself is searched for.
    """
    wall = datetime.combine(local_date, time()) + DAY_STARTS_AT
    late = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)  # first of two, or past a gap
    if _wall(late, zone) == wall:
        return late
    early = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)  # reads before 04:00
    # The earliest instant in (early, late] that reads 04:00 or later: bisect to the second
    # (zone changes fall on whole seconds; at most 17 steps for a day-long jump).
    while late - early > timedelta(seconds=1):
        middle = early + (late - early) / 2
        middle = middle.replace(microsecond=0)
        if middle <= early:
            middle = early + timedelta(seconds=1)
        if _wall(middle, zone) >= wall:
            late = middle
        else:
            early = middle
    return late


def compute_study_day(now: datetime, zone: tzinfo | int = 0) -> tuple[datetime, datetime]:
    """(start, end) of the user's current study day, as timezone-aware UTC datetimes.

    The study day runs from DAY_STARTS_AT (04:00) to 04:00 the next day on the wall clock of
    ``zone``: a tzinfo (a ZoneInfo follows daylight saving, so the day still turns over at
    04:00 local in summer), or a fixed offset in minutes east of UTC (+60 for UTC+01:00, -300
    for UTC-05:00). ``start <= now < end``; the end is the next day's start (23 or 25 hours
    on where clocks change; 4 hours for a date a zone skipped by moving across the date line).
    """
    moment = canonicalize_utc(now)
    zone = canonicalize_zone(zone)
    # Before 04:00 on the wall clock belongs to the previous date's study day; the two
    # neighbouring starts then confirm it (they move the guess only where the clocks jumped).
    local_date = (moment.astimezone(zone).replace(tzinfo=None) - DAY_STARTS_AT).date()
    start = compute_day_start_on(local_date, zone)
    end = compute_day_start_on(local_date + _ONE_DAY, zone)
    for _ in range(4):
        if start > moment:
            local_date -= _ONE_DAY
            start, end = compute_day_start_on(local_date, zone), start
        elif end <= moment or end == start:
            local_date += _ONE_DAY
            start, end = end, compute_day_start_on(local_date + _ONE_DAY, zone)
        else:
            return start, end
    raise AssertionError(f"no study day around {moment} in {zone}")  # pragma: no cover


def day_start(now: datetime, zone: tzinfo | int = 0) -> datetime:
    """Start of the user's current study day (see compute_study_day). Reviews at or after it
    count toward today's limits."""
    return compute_study_day(now, zone)[0]


def next_day_start(now: datetime, zone: tzinfo | int = 0) -> datetime:
    """Start of the study day after the current one (see compute_study_day)."""
    return compute_study_day(now, zone)[1]


def compute_study_date(now: datetime, zone: tzinfo | int = 0) -> date:
    """The calendar date that names the study day holding ``now`` (00:00-03:59 belong to the
    day before): the date whose 04:00 started it, as compute_day_start_on counts it."""
    zone = canonicalize_zone(zone)
    # A start reads 04:00, or later on the same date where the clocks jumped across 04:00, or
    # (a date skipped across the date line) 00:00 of the next date: 4 hours back is the date.
    return (_wall(day_start(now, zone), zone) - DAY_STARTS_AT).date()


def compute_day_start_after(now: datetime, days: int, zone: tzinfo | int = 0) -> datetime:
    """Start of the study day ``days`` study days after the one holding ``now``: for 1, the
    start of tomorrow's, however long the days between are (23 to 25 hours where clocks
    change). Counting in dates, not 24-hour periods: a day of 25 hours would otherwise leave
    now + 24 hours inside today, and a "1d" rating would be due at once (Anki counts days so)."""
    if isinstance(days, bool) or not isinstance(days, int) or days < 0:
        raise ValueError(f"days must be a non-negative int, got {days!r}")
    zone = canonicalize_zone(zone)
    return compute_day_start_on(compute_study_date(now, zone) + days * _ONE_DAY, zone)


def count_study_days_between(earlier: datetime, later: datetime, zone: tzinfo | int = 0) -> int:
    """How many study days after the one holding ``earlier`` the one holding ``later`` is (0
    on the same study day; never negative)."""
    return max(0, (compute_study_date(later, zone) - compute_study_date(earlier, zone)).days)
