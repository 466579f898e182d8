"""Time zones: names accepted and refused, and study days that follow daylight saving."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from quizapp.srs import (
    canonicalize_zone_name,
    compute_zone,
    day_start,
    format_fixed_offset,
    listed_zone_names,
    new_state,
    next_day_start,
    review,
)
from quizapp.srs.queue import DAY_STARTS_AT

DAY_STARTS_AT_TIME = (datetime.min + DAY_STARTS_AT).time()
ZONES_WITH_SUMMER_TIME = ("Europe/Berlin", "America/New_York", "Australia/Sydney",
                          "America/Santiago", "Australia/Lord_Howe", "Europe/London")
ZONES = (*ZONES_WITH_SUMMER_TIME, "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati",
         "Pacific/Pago_Pago", "UTC", "UTC+05:30", "UTC-03:00")


@pytest.mark.parametrize(("text", "expected"), [
    ("Europe/Berlin", "Europe/Berlin"), ("  America/New_York\n", "America/New_York"),
    ("Asia/Calcutta", "Asia/Calcutta"), ("UTC", "UTC"), ("Etc/UTC", "Etc/UTC"),
    ("UTC+05:30", "UTC+05:30"), ("UTC-12:00", "UTC-12:00"), ("UTC+14:00", "UTC+14:00"),
    ("UTC+00:00", "UTC"), ("UTC-00:00", "UTC"),
    ("", None), (None, None), ("europe/berlin", None), ("Mars/Olympus_Mons", None),
    ("localtime", None), ("Factory", None), ("posixrules", None), ("../../etc/passwd", None),
    ("/usr/share/zoneinfo/UTC", None), ("UTC+14:01", None), ("UTC-12:30", None),
    ("UTC+05:60", None), ("UTC+5:30", None), ("UTC+0530", None), ("Europe/Berlín", None),
    ("Europe/" + "x" * 80, None),
])
def test_canonicalize_zone_name(text, expected):
    assert canonicalize_zone_name(text) == expected


@pytest.mark.parametrize(("minutes", "spelled"), [
    (0, "UTC"), (60, "UTC+01:00"), (-300, "UTC-05:00"), (330, "UTC+05:30"), (-570, "UTC-09:30"),
    (840, "UTC+14:00")])
def test_fixed_offsets_are_spelled_and_read_back(minutes, spelled):
    assert format_fixed_offset(minutes) == spelled
    assert compute_zone(spelled).utcoffset(None) == timedelta(minutes=minutes)


def test_compute_zone_refuses_what_canonicalize_refuses():
    for name in ("Mars/Olympus_Mons", "UTC+00:00", " Europe/Berlin", "localtime"):
        with pytest.raises(ValueError):
            compute_zone(name)
    assert compute_zone("Europe/Berlin") == ZoneInfo("Europe/Berlin")


def test_the_listed_zones_are_places_people_pick():
    names = listed_zone_names()
    assert names[0] == "UTC" and list(names[1:]) == sorted(names[1:])
    assert {"Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Auckland"} <= set(names)
    assert not {"US/Eastern", "Etc/GMT+5", "EST5EDT", "localtime"} & set(names)
    assert all(canonicalize_zone_name(name) == name for name in names)


@pytest.mark.parametrize(("now", "expected"), [
    # Berlin in winter (UTC+1): 04:00 local is 03:00 UTC.
    (datetime(2025, 1, 15, 3, 0, tzinfo=UTC), datetime(2025, 1, 15, 3, 0, tzinfo=UTC)),
    (datetime(2025, 1, 15, 2, 59, tzinfo=UTC), datetime(2025, 1, 14, 3, 0, tzinfo=UTC)),
    # In summer (UTC+2) the day turns over an hour earlier in UTC: still 04:00 on the wall.
    (datetime(2025, 7, 15, 2, 0, tzinfo=UTC), datetime(2025, 7, 15, 2, 0, tzinfo=UTC)),
    (datetime(2025, 7, 15, 1, 59, tzinfo=UTC), datetime(2025, 7, 14, 2, 0, tzinfo=UTC)),
    # 30 March 2025, clocks go 02:00 -> 03:00: the day that began at 04:00 CET on the 29th
    # (03:00 UTC) ends at 04:00 CEST on the 30th (02:00 UTC), 23 hours later.
    (datetime(2025, 3, 30, 1, 59, tzinfo=UTC), datetime(2025, 3, 29, 3, 0, tzinfo=UTC)),
    (datetime(2025, 3, 30, 2, 0, tzinfo=UTC), datetime(2025, 3, 30, 2, 0, tzinfo=UTC)),
    # 26 October 2025, clocks go 03:00 -> 02:00: that study day lasts 25 hours.
    (datetime(2025, 10, 26, 2, 59, tzinfo=UTC), datetime(2025, 10, 25, 2, 0, tzinfo=UTC)),
    (datetime(2025, 10, 26, 3, 0, tzinfo=UTC), datetime(2025, 10, 26, 3, 0, tzinfo=UTC)),
])
def test_a_berlin_study_day_starts_at_four_on_the_wall_clock_all_year(now, expected):
    assert day_start(now, ZoneInfo("Europe/Berlin")) == expected


def brute_force_day_start(now: datetime, zone) -> datetime:
    """An independent oracle: of 04:00 on the local dates around ``now``, the latest one not
    after it (each wall time turned into an instant by the zone's own rules)."""
    local_date = now.astimezone(zone).date()
    candidates = [datetime.combine(local_date + timedelta(days=k), time(4), tzinfo=zone)
                  for k in (-2, -1, 0, 1)]
    return max(c for c in candidates if c <= now).astimezone(UTC)


@pytest.mark.parametrize("name", ZONES)
def test_day_start_agrees_with_a_brute_force_oracle_over_a_year(name):
    zone, rng = compute_zone(name), random.Random(name)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    moments = [start + timedelta(seconds=rng.randrange(366 * 86400)) for _ in range(2000)]
    # Every hour around each of the zone's clock changes too, where mistakes would show.
    for month, day in ((3, 10), (3, 31), (4, 7), (9, 8), (10, 6), (10, 27), (11, 3)):
        edge = datetime(2024, month, day, tzinfo=UTC)
        moments += [edge + timedelta(minutes=30 * k) for k in range(-48, 96)]
    for now in moments:
        begun = day_start(now, zone)
        assert begun == brute_force_day_start(now, zone), (name, now)
        local = begun.astimezone(zone)
        assert local.time() == DAY_STARTS_AT_TIME, (name, now)
        assert begun <= now < day_start(begun + timedelta(hours=26), zone)


def test_int_offsets_still_mean_fixed_zones():
    now = datetime(2025, 7, 1, 12, 0, tzinfo=UTC)
    assert day_start(now, -300) == day_start(now, timezone(timedelta(hours=-5)))
    assert day_start(now, 0) == day_start(now, UTC) == datetime(2025, 7, 1, 4, 0, tzinfo=UTC)


@pytest.mark.parametrize("when", [date(2025, 1, 20), date(2025, 7, 20)])
def test_day_long_intervals_end_at_four_local_in_winter_and_summer(when):
    zone = ZoneInfo("America/New_York")
    now = datetime.combine(when, time(20, 0), tzinfo=zone).astimezone(UTC)
    first = review(new_state(now - timedelta(days=3)), 3, now - timedelta(days=3))
    state = review(first.state, 3, now - timedelta(days=3) + timedelta(minutes=10)).state
    exact = review(state, 3, now)
    rounded = review(state, 3, now, zone=zone)
    assert exact.due - now >= timedelta(days=1)
    assert rounded.due.astimezone(zone).time() == DAY_STARTS_AT_TIME == time(4)
    assert rounded.due == day_start(exact.due, zone)



@pytest.mark.parametrize(("now", "hours"), [
    (datetime(2025, 3, 29, 12, 0, tzinfo=UTC), 23),  # the day clocks go forward
    (datetime(2025, 10, 25, 12, 0, tzinfo=UTC), 25),  # the day clocks go back
    (datetime(2025, 6, 10, 12, 0, tzinfo=UTC), 24),
])
def test_the_next_study_day_starts_at_four_after_a_short_or_long_day(now, hours):
    zone = ZoneInfo("Europe/Berlin")
    start, following = day_start(now, zone), next_day_start(now, zone)
    assert following - start == timedelta(hours=hours)
    assert following.astimezone(zone).time() == DAY_STARTS_AT_TIME


@pytest.mark.parametrize("name", ZONES)
def test_the_next_study_day_is_the_one_that_follows(name):
    zone, rng = compute_zone(name), random.Random(name + "next")
    for _ in range(500):
        now = datetime(2024, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(366 * 86400))
        following = next_day_start(now, zone)
        assert now < following and day_start(following, zone) == following
        assert day_start(following - timedelta(seconds=1), zone) == day_start(now, zone)
