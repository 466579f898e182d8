"""Time zones: names accepted and refused, and study days that follow daylight saving."""

from __future__ import annotations

import random
import zoneinfo
from datetime import UTC, date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from quizapp.srs import (
    canonicalize_zone_name,
    compute_zone,
    day_start,
    format_fixed_offset,
    is_zone_name,
    listed_zone_names,
    new_state,
    next_day_start,
    review,
    zones,
)
from quizapp.srs.study_day import DAY_STARTS_AT, compute_day_start_on

DAY_STARTS_AT_TIME = (datetime.min + DAY_STARTS_AT).time()
ZONES_WITH_SUMMER_TIME = ("Europe/Berlin", "America/New_York", "Australia/Sydney",
                          "America/Santiago", "Australia/Lord_Howe", "Europe/London")
ZONES = (*ZONES_WITH_SUMMER_TIME, "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati",
         "Pacific/Pago_Pago", "UTC", "UTC+05:30", "UTC-03:00")


@pytest.mark.parametrize(("text", "expected"), [
    ("Europe/Berlin", "Europe/Berlin"), ("  America/New_York\n", "America/New_York"),
    ("Asia/Calcutta", "Asia/Kolkata"), ("US/Eastern", "America/New_York"),  # links: the zone
    ("Europe/Oslo", "Europe/Oslo"), ("Africa/Accra", "Africa/Accra"),  # listed: as they are
    ("UTC", "UTC"), ("Etc/UTC", "UTC"), ("Zulu", "UTC"), ("Etc/GMT+12", "Etc/GMT+12"),
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


def test_compute_zone_takes_stored_names_links_included_and_refuses_the_rest():
    for name in ("Mars/Olympus_Mons", "UTC+00:00", " Europe/Berlin", "localtime", ""):
        with pytest.raises(ValueError):
            compute_zone(name)
    assert compute_zone("Europe/Berlin") == ZoneInfo("Europe/Berlin")
    # A link stored before links were turned into their zones still works.
    assert compute_zone("Asia/Calcutta").utcoffset(datetime(2025, 1, 1)) == timedelta(
        hours=5, minutes=30)


def test_a_stored_zone_is_read_without_listing_the_zone_database(monkeypatch):
    def listing_forbidden():
        raise AssertionError("the whole zone database was listed")

    zones._loads_as_zone.cache_clear()
    zones._known_zone_names.cache_clear()
    monkeypatch.setattr(zoneinfo, "available_timezones", listing_forbidden)
    try:
        assert is_zone_name("America/Santiago") and is_zone_name("Asia/Calcutta")
        for name in ("Europe", "zone.tab", "tzdata.zi", "../etc/passwd", "/etc/localtime",
                     "Europe/../Europe/Berlin", "localtime", "Factory", "posixrules",
                     "Europe/Berlin/", "Mars/Olympus_Mons"):
            assert not is_zone_name(name), name
    finally:
        zones._loads_as_zone.cache_clear()
        zones._known_zone_names.cache_clear()


def test_stored_zone_check_agrees_with_the_zone_database():
    assert all(zones._loads_as_zone(name) for name in zones._known_zone_names())


def test_the_listed_zones_are_places_people_pick():
    names = listed_zone_names()
    assert names[0] == "UTC" and list(names[1:]) == sorted(names[1:])
    assert {"Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Auckland"} <= set(names)
    assert not {"US/Eastern", "Etc/GMT+5", "EST5EDT", "localtime", "Asia/Calcutta",
                "Europe/Kiev", "America/Buenos_Aires"} & set(names)
    # Every country's own zones, even those the database now links to a neighbour's.
    assert {"Europe/Kyiv", "America/Argentina/Buenos_Aires", "Europe/Oslo", "Africa/Accra",
            "Europe/Amsterdam"} <= set(names)
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


def scanned_day_start_on(local_date: date, zone) -> datetime:
    """An independent oracle: walk instants a minute apart from well before ``local_date``
    04:00 anywhere on Earth, and return the first whose wall clock reads that or later."""
    wall = datetime.combine(local_date, time(4))
    instant = wall.replace(tzinfo=UTC) - timedelta(hours=27)
    for _ in range(48 * 60):
        if instant.astimezone(zone).replace(tzinfo=None) >= wall:
            return instant
        instant += timedelta(minutes=1)
    raise AssertionError(f"{zone} never reads {wall}")


# Clock changes, ordinary and extreme, as dates around which the study days are checked:
# (zone, the local date of the change).
CLOCK_CHANGES = [
    ("Europe/Berlin", date(2025, 3, 30)), ("Europe/Berlin", date(2025, 10, 26)),
    ("America/New_York", date(2025, 3, 9)), ("America/New_York", date(2025, 11, 2)),
    ("Australia/Lord_Howe", date(2025, 4, 6)), ("Australia/Lord_Howe", date(2025, 10, 5)),
    ("America/Santiago", date(2025, 4, 6)), ("America/Santiago", date(2025, 9, 7)),
    ("Antarctica/Casey", date(2019, 10, 4)),  # 03:00 +08 -> 06:00 +11: 04:00 never comes
    ("Antarctica/Casey", date(2020, 3, 8)),  # +11 -> +08: a 27-hour day
    ("Pacific/Apia", date(2011, 12, 30)),  # the date line moved: 30 December never came
    ("Pacific/Kiritimati", date(1994, 12, 31)),
    ("Asia/Kolkata", date(2025, 3, 30)), ("UTC+05:30", date(2025, 3, 30)),
]


@pytest.mark.parametrize(("name", "changed"), CLOCK_CHANGES)
def test_study_days_around_clock_changes_agree_with_a_scanning_oracle(name, changed):
    zone = compute_zone(name)
    starts = [scanned_day_start_on(changed + timedelta(days=k), zone) for k in range(-3, 4)]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    for k, local_date in enumerate(changed + timedelta(days=k) for k in range(-3, 4)):
        assert compute_day_start_on(local_date, zone) == starts[k], (name, local_date)
    now = starts[1]
    while now < starts[-2]:
        begun = max(start for start in starts if start <= now)
        assert day_start(now, zone) == begun, (name, now)
        assert next_day_start(now, zone) == min(start for start in starts if start > begun)
        now += timedelta(minutes=20)


@pytest.mark.parametrize("name", ZONES)
def test_day_start_is_four_on_the_wall_clock_all_year(name):
    zone, rng = compute_zone(name), random.Random(name)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for _ in range(2000):
        now = start + timedelta(seconds=rng.randrange(366 * 86400))
        begun = day_start(now, zone)
        assert begun.astimezone(zone).time() == DAY_STARTS_AT_TIME, (name, now)
        assert begun <= now < next_day_start(now, zone)
        assert now - begun < timedelta(hours=25, minutes=1)


def test_int_offsets_still_mean_fixed_zones():
    now = datetime(2025, 7, 1, 12, 0, tzinfo=UTC)
    assert day_start(now, -300) == day_start(now, timezone(timedelta(hours=-5)))
    assert day_start(now, 0) == day_start(now, UTC) == datetime(2025, 7, 1, 4, 0, tzinfo=UTC)


@pytest.mark.parametrize("when", [date(2025, 1, 20), date(2025, 7, 20)])
def test_day_long_intervals_end_at_four_local_in_winter_and_summer(when):
    zone = ZoneInfo("America/New_York")
    now = datetime.combine(when, time(20, 0), tzinfo=zone).astimezone(UTC)
    earlier = now - timedelta(days=3, minutes=10)  # 3 x 24 hours before the last review
    first = review(new_state(earlier), 3, earlier)
    state = review(first.state, 3, earlier + timedelta(minutes=10)).state
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
