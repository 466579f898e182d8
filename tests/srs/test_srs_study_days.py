"""Time counted in study days: a "1d" rating is due tomorrow across clock changes, and fsrs's
memory model sees the study days since the last review, not 24-hour periods.

The oracle walks study days one at a time with next_day_start, which compute_day_start_after
and count_study_days_between do not use (they count calendar dates)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizapp.srs import (
    compute_day_start_after,
    count_study_days_between,
    day_start,
    format_interval,
    new_state,
    next_day_start,
    preview_intervals,
    review,
)

ZONES = ("America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe",
         "America/Santiago", "Asia/Kolkata", "Pacific/Apia", "Antarctica/Casey", "UTC")


def walk_days(moment: datetime, days: int, zone) -> datetime:
    """The start of the study day ``days`` after the one holding ``moment``, one day at a time."""
    start = day_start(moment, zone)
    for _ in range(days):
        start = next_day_start(start, zone)
    return start


def count_by_walking(earlier: datetime, later: datetime, zone) -> int:
    days, start = 0, day_start(earlier, zone)
    while next_day_start(start, zone) <= later:
        start, days = next_day_start(start, zone), days + 1
    return days


def random_moments(rng: random.Random, count: int) -> list[datetime]:
    low, high = datetime(2011, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)
    return [low + timedelta(seconds=rng.randrange(int((high - low).total_seconds())))
            for _ in range(count)]


@pytest.mark.parametrize("name", ZONES)
def test_the_day_n_study_days_on_is_the_one_walking_reaches(name):
    zone, rng = ZoneInfo(name), random.Random(f"after-{name}")
    for moment in random_moments(rng, 150):
        days = rng.choice((0, 1, 1, 2, 3, rng.randrange(4, 60)))
        expected = walk_days(moment, days, zone)
        assert compute_day_start_after(moment, days, zone) == expected, (moment, days)
        later = moment + timedelta(hours=rng.uniform(0, 24 * 70))
        assert count_study_days_between(moment, later, zone) == count_by_walking(
            moment, later, zone), (moment, later)
    assert count_study_days_between(moment, moment - timedelta(days=3), zone) == 0


def test_a_one_day_rating_the_morning_before_the_clocks_go_back_is_due_tomorrow():
    # 04:41 EDT on 1 November 2025: 24 hours on reads 03:41 EST, still in 1 November's study
    # day, so a due "a day later, at its study day's start" was 04:00 that same morning.
    zone = ZoneInfo("America/New_York")
    now = datetime(2025, 11, 1, 8, 41, tzinfo=UTC)
    again = review(new_state(now - timedelta(minutes=2)), 1, now - timedelta(minutes=2),
                   zone=zone)
    state = review(again.state, 3, now - timedelta(minutes=1), zone=zone).state
    intervals = preview_intervals(state, now, zone=zone)
    assert intervals[3] == timedelta(days=1)
    rated = review(state, 3, now, zone=zone)
    assert rated.due == datetime(2025, 11, 2, 9, 0, tzinfo=UTC)  # 04:00 EST on 2 November
    assert rated.due.astimezone(zone).hour == 4 and rated.due > now


def states_to_rate(moment: datetime, zone) -> list[dict]:
    """A card in its learning steps after Again, and one in Review rated some days before."""
    again = review(new_state(moment), 1, moment - timedelta(minutes=2), zone=zone)
    learning = review(again.state, 3, moment - timedelta(minutes=1), zone=zone).state
    earlier = moment - timedelta(days=3, hours=5)
    first = review(new_state(earlier), 3, earlier, zone=zone)
    in_review = review(first.state, 4, earlier + timedelta(minutes=10), zone=zone).state
    return [learning, in_review]


@pytest.mark.parametrize(("name", "year"), [
    ("America/New_York", 2024), ("Europe/Berlin", 2024), ("Australia/Sydney", 2024),
    ("Australia/Lord_Howe", 2024),  # half-hour changes
    ("Pacific/Apia", 2011),  # summer time, and 30 December 2011 skipped across the date line
])
def test_around_clock_changes_every_day_long_rating_is_due_its_count_of_study_days_on(name, year):
    zone, rng = ZoneInfo(name), random.Random(f"changes-{name}")
    year_start = datetime(year, 1, 1, tzinfo=UTC)
    # Moments within a day and a half of each clock change of that year and the next.
    changes = [year_start + timedelta(hours=hour) for hour in range(2 * 365 * 24)
               if (year_start + timedelta(hours=hour)).astimezone(zone).utcoffset()
               != (year_start + timedelta(hours=hour + 1)).astimezone(zone).utcoffset()]
    assert changes, name
    checked = 0
    for change in changes:
        for _ in range(12):
            moment = change + timedelta(minutes=rng.randrange(-36 * 60, 36 * 60))
            for state in states_to_rate(moment, zone):
                intervals = preview_intervals(state, moment, zone=zone)
                for rating, interval in intervals.items():
                    if interval < timedelta(days=1):
                        continue
                    rated = review(state, rating, moment, zone=zone)
                    assert rated.due == walk_days(moment, interval.days, zone), (moment, rating)
                    assert rated.due > moment
                    checked += 1
    assert checked > 100


def test_elapsed_time_is_counted_in_study_days_whatever_the_hour():
    # Two people review one card on the same study days, one 30 minutes earlier each time than
    # it was rated, the other 30 minutes later. fsrs alone counts 24-hour periods, so the early
    # one's reviews looked a day early; counted in study days they are the same reviews.
    zone = ZoneInfo("Europe/Berlin")
    start = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)

    def history(shift: timedelta, with_zone: bool) -> list[tuple[float, float, str]]:
        moment = start
        state = review(new_state(moment), 3, moment, zone=zone if with_zone else None).state
        moment += timedelta(minutes=10)
        rated = review(state, 3, moment, zone=zone if with_zone else None)
        seen = []
        for _ in range(5):
            days = (rated.due - day_start(moment, zone)).days or 1
            moment = day_start(moment, zone) + timedelta(days=days) + (
                moment - day_start(moment, zone)) + shift
            rated = review(rated.state, 3, moment, zone=zone if with_zone else None)
            seen.append((rated.state["stability"], rated.state["difficulty"],
                         format_interval(rated.due - day_start(moment, zone))))
        return seen

    early, late = timedelta(minutes=-30), timedelta(minutes=30)
    assert history(early, True) == history(late, True)
    assert history(early, False) != history(late, False)  # what the counting removes


@pytest.mark.parametrize("name", ["Europe/Berlin", "America/New_York", "UTC"])
def test_a_buttons_label_holds_for_the_whole_study_day(name):
    # The labels come from the study days since the last review, so they do not change while
    # a card is on screen when the 24-hour mark since that review passes (they did: "1d" on
    # the button, "3d" once rated 70 seconds later).
    zone, rng = ZoneInfo(name), random.Random(f"labels-{name}")
    for moment in random_moments(rng, 40):
        state = states_to_rate(moment - timedelta(days=rng.randrange(0, 5)), zone)[1]
        today, tomorrow = day_start(moment, zone), next_day_start(moment, zone)
        labels = {tuple(preview_intervals(state, when, zone=zone).values())
                  for when in (today, moment, tomorrow - timedelta(seconds=1))}
        assert len(labels) == 1, (moment, labels)
