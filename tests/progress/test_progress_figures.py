"""quizapp.progress: streaks and the calendar across time-zone midnights and the 04:00 day turn
(golden cases worked out by hand), mastery and accuracy against plain loops, and the SVG."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fsrs import Card, Rating, Scheduler

from quizapp import progress
from quizapp.progress.figures import compute_heat_level, compute_weeks

NEW_YORK = ZoneInfo("America/New_York")
KOLKATA = ZoneInfo("Asia/Kolkata")
AUCKLAND = ZoneInfo("Pacific/Auckland")


def local(zone, *parts) -> datetime:
    return datetime(*parts, tzinfo=zone).astimezone(UTC)


def streak_of(times, now, zone, days=progress.CALENDAR_DAYS) -> progress.Streak:
    return progress.compute_streak(progress.compute_calendar(times, now, zone, days))


# (zone, review times as local wall clocks, now as a local wall clock,
#  (current, longest, studied today)). The study day turns at 04:00 local time.
GOLDEN_STREAKS = [
    # 23:30 and 00:30 are one study day (the day turns at 04:00, not at midnight): with a
    # review on the 11th too, two days in a row.
    (NEW_YORK, [(2025, 3, 10, 23, 30), (2025, 3, 11, 0, 30), (2025, 3, 11, 20, 0)],
     (2025, 3, 11, 21, 0), (2, 2, True)),
    # 03:59 still belongs to the day before; 04:01 starts the next: two days, not one.
    (NEW_YORK, [(2025, 3, 11, 3, 59), (2025, 3, 11, 4, 1)], (2025, 3, 11, 12, 0),
     (2, 2, True)),
    # The same two reviews a minute either side of midnight only: one day, so the streak is 1.
    (NEW_YORK, [(2025, 3, 10, 23, 59), (2025, 3, 11, 0, 1)], (2025, 3, 11, 2, 0),
     (1, 1, True)),
    # Nothing yet today (the 12th): the streak of the 10th and 11th still stands.
    (NEW_YORK, [(2025, 3, 10, 9, 0), (2025, 3, 11, 9, 0)], (2025, 3, 12, 9, 0),
     (2, 2, False)),
    # A day missed (the 12th) breaks it: today's review starts a new one; the longest stays.
    (NEW_YORK, [(2025, 3, 10, 9, 0), (2025, 3, 11, 9, 0), (2025, 3, 13, 9, 0)],
     (2025, 3, 13, 10, 0), (1, 2, True)),
    # Two days ago, none since: no current streak.
    (NEW_YORK, [(2025, 3, 10, 9, 0)], (2025, 3, 12, 9, 0), (0, 1, False)),
    # Across the spring-forward night (2025-03-09, 02:00 -> 03:00): a 23-hour study day.
    (NEW_YORK, [(2025, 3, 8, 20, 0), (2025, 3, 9, 3, 30), (2025, 3, 9, 4, 30)],
     (2025, 3, 9, 5, 0), (2, 2, True)),
    # UTC+05:30: 22:00 and 22:40 UTC on the 10th are 03:30 and 04:10 on the 11th there, so
    # two study days although UTC's date never changed.
    (KOLKATA, [(2025, 3, 11, 3, 30), (2025, 3, 11, 4, 10)], (2025, 3, 11, 12, 0),
     (2, 2, True)),
    # UTC+13: UTC's midnight falls at 13:00 local, in the middle of one study day.
    (AUCKLAND, [(2025, 3, 11, 12, 30), (2025, 3, 11, 13, 30)], (2025, 3, 11, 14, 0),
     (1, 1, True)),
]


@pytest.mark.parametrize(("zone", "times", "now", "expected"), GOLDEN_STREAKS)
def test_streaks_follow_the_study_day_of_the_users_zone(zone, times, now, expected):
    streak = streak_of([local(zone, *t) for t in times], local(zone, *now), zone)
    assert (streak.current, streak.longest, streak.studied_today) == expected
    assert not streak.at_least


def test_the_kolkata_case_crosses_no_utc_midnight():
    """The golden case above is what it says: both reviews on one UTC date."""
    first, second = local(KOLKATA, 2025, 3, 11, 3, 30), local(KOLKATA, 2025, 3, 11, 4, 10)
    assert first.date() == second.date() == date(2025, 3, 10)


def test_a_streak_longer_than_the_calendar_says_so():
    now = datetime(2025, 6, 1, 12, tzinfo=UTC)
    times = [now - timedelta(days=n) for n in range(10)]
    streak = streak_of(times, now, UTC, days=7)
    assert (streak.current, streak.at_least) == (7, True)


def study_date(moment: datetime, zone) -> date:
    """A study day's date the plain way: the wall clock moved back four hours."""
    return (moment.astimezone(zone).replace(tzinfo=None) - timedelta(hours=4)).date()


def test_the_calendar_counts_what_a_plain_loop_counts():
    now = datetime(2025, 11, 20, 15, 0, tzinfo=UTC)
    times = [now - timedelta(hours=7 * n + n % 5) for n in range(900)]  # ~262 days back
    times.append(now - timedelta(days=400))  # before the calendar: left out
    calendar = progress.compute_calendar(times, now, NEW_YORK)
    assert len(calendar.days) == progress.CALENDAR_DAYS
    today = study_date(now, NEW_YORK)
    expected: dict[date, int] = {}
    for moment in times:
        day = study_date(moment, NEW_YORK)
        if (today - day).days < progress.CALENDAR_DAYS:
            expected[day] = expected.get(day, 0) + 1
    assert {d.day: d.reviews for d in calendar.days if d.reviews} == expected
    assert [d.day for d in calendar.days] == [
        today - timedelta(days=n) for n in reversed(range(progress.CALENDAR_DAYS))]
    assert calendar.total == sum(expected.values()) == 900


def test_weeks_start_on_monday_and_hold_every_day_once():
    now = datetime(2025, 11, 20, 15, 0, tzinfo=UTC)  # a Thursday
    calendar = progress.compute_calendar([], now, UTC)
    weeks = compute_weeks(calendar)
    days = [day for week in weeks for day in week.days if day is not None]
    assert [d.day for d in days] == [d.day for d in calendar.days]
    for week in weeks:
        for weekday, day in enumerate(week.days):
            assert day is None or day.day.weekday() == weekday


def test_heat_levels_grow_with_the_count():
    assert [compute_heat_level(n, 8) for n in (0, 1, 2, 3, 4, 5, 6, 7, 8)] == [
        0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert compute_heat_level(3, 0) == 0


def reviewed_card(rating: Rating, at: datetime, times: int) -> dict:
    scheduler = Scheduler(enable_fuzzing=False)
    card = Card()
    for n in range(times):
        card, _ = scheduler.review_card(card, rating, at + timedelta(days=3 * n))
    return card.to_dict()


def test_mastery_counts_items_in_review_and_their_mean_recall():
    at = datetime(2025, 1, 1, 12, tzinfo=UTC)
    now = at + timedelta(days=40)
    items = [
        progress.ItemMemory("card", "junior", ("stride", "view"), reviewed_card(Rating.Easy, at, 3)),
        progress.ItemMemory("skill", "junior", ("stride",), reviewed_card(Rating.Good, at, 4)),
        progress.ItemMemory("card", "middle", ("view",), reviewed_card(Rating.Again, at, 1)),
        progress.ItemMemory("card", "senior", ("stride",), None),
    ]
    concepts = {row.name: row for row in progress.compute_concept_mastery(items, now, UTC)}
    levels = progress.compute_level_mastery(items, now, UTC, ("junior", "middle", "senior"))
    # The plain way: fsrs's own retrievability of each item in Review (its state 2), read at
    # whole days after the last review (every time here is 12:00 UTC, so study days and
    # 24-hour periods agree).
    scheduler = Scheduler()
    expected: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    for item in items:
        recall = None
        if item.state is not None and item.state["state"] == 2:
            recall = scheduler.get_card_retrievability(Card.from_dict(item.state), now)
        for name in item.concepts:
            counts[name] = counts.get(name, 0) + 1
            expected.setdefault(name, [])
            if recall is not None:
                expected[name].append(recall)
    assert set(concepts) == {"stride", "view"}
    for name, row in concepts.items():
        assert (row.items, row.in_review) == (counts[name], len(expected[name]))
        assert row.recall == pytest.approx(sum(expected[name]) / len(expected[name]))
    assert [(row.name, row.items, row.in_review) for row in levels] == [
        ("junior", 2, 2), ("middle", 1, 0), ("senior", 1, 0)]
    assert levels[1].recall is None and 0 < levels[0].recall < 1


def test_accuracy_reads_the_window_only():
    now = datetime(2025, 5, 1, tzinfo=UTC)
    answers = [progress.PuzzleAnswer("a", now - timedelta(days=d), d % 3 != 0)
               for d in range(0, 40)]
    answers.append(progress.PuzzleAnswer("b", now - timedelta(minutes=1), True))
    rows = progress.compute_accuracy(answers, now)
    inside = [a for a in answers if a.family == "a" and now - a.answered_at < timedelta(days=30)]
    assert [(r.family, r.answers, r.right) for r in rows] == [
        ("a", len(inside), sum(a.correct for a in inside)), ("b", 1, 1)]


def test_bars_say_their_figures_in_text_and_escape_labels():
    svg = progress.render_bars("c", "Title <1>", "Desc & more", [
        progress.Bar("<b>stride</b>", 0.5, "3/6 in review"), progress.Bar("view", 0, "0/2")])
    assert svg.startswith('<svg class="chart chart-bars" role="img"')
    assert 'aria-labelledby="c-title c-desc"' in svg
    assert '<title id="c-title">Title &lt;1&gt;</title>' in svg
    assert "<b>" not in svg and "&lt;b&gt;stride&lt;/b&gt;" in svg
    assert ">3/6 in review</text>" in svg and ">0/2</text>" in svg
    assert svg.count('class="chart-fill"') == 1 and 'width="50.0%"' in svg


def test_the_heat_map_draws_each_day_with_its_count_and_a_size_by_level():
    now = datetime(2025, 11, 20, 15, tzinfo=UTC)
    times = [now] * 8 + [now - timedelta(days=1)] * 2 + [now - timedelta(days=5)]
    svg = progress.render_heat_map("h", progress.compute_calendar(times, now, UTC))
    days = re.findall(r'<rect class="heat heat-(\d)[^"]*"[^>]*width="(\d+)"[^>]*>'
                      r"<title>([^<]+)</title>", svg)
    assert len(days) == progress.CALENDAR_DAYS
    by_title = {title: (int(level), int(size)) for level, size, title in days}
    assert by_title["Thu 20 Nov 2025: 8 reviews"] == (4, 11)
    assert by_title["Wed 19 Nov 2025: 2 reviews"] == (1, 6)
    assert by_title["Sat 15 Nov 2025: 1 review"] == (1, 6)
    assert by_title["Fri 14 Nov 2025: 0 reviews"] == (0, 5)
    assert "heat-today" in svg and "11 reviews over the 365 study days" in svg
