"""How long the progress figures take for a heavy user: a year of reviews into study days.

In one process, best of R runs each: quizapp.progress.compute_calendar (every review placed by
bisection among the year's day starts) against the baseline, the plain way of naming each
review's study day with srs.compute_study_date (time-zone arithmetic per review); then the
streak, and mastery of a bank of B items in review (an FSRS retrievability each). Prints seconds;
the last line is the calendar's ratio to the baseline.

    python bench/progress.py [--reviews N] [--items B] [--repeats R]
"""

from __future__ import annotations

import argparse
from collections import Counter
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from timing import best_of

from quizapp import progress, srs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=70_000)
    parser.add_argument("--items", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    zone = ZoneInfo("America/New_York")
    now = datetime(2026, 11, 20, 15, tzinfo=UTC)
    step = timedelta(days=365) / args.reviews
    times = [now - step * n for n in range(args.reviews)]

    calendar = progress.compute_calendar(times, now, zone)
    plain = Counter(srs.compute_study_date(moment, zone) for moment in times)
    assert {day.day: day.reviews for day in calendar.days if day.reviews} == {
        day: count for day, count in plain.items()
        if (calendar.today - day).days < progress.CALENDAR_DAYS}

    bisected = best_of(args.repeats, lambda: progress.compute_calendar(times, now, zone))
    baseline = best_of(args.repeats, lambda: Counter(
        srs.compute_study_date(moment, zone) for moment in times))
    streak = best_of(args.repeats, lambda: progress.compute_streak(calendar))
    state = srs.review(srs.new_state(now - timedelta(days=30)), 4, now - timedelta(days=30))
    items = [progress.ItemMemory("card", "junior", ("stride", "view"), state.state)
             for _ in range(args.items)]
    mastery = best_of(args.repeats, lambda: progress.compute_concept_mastery(items, now, zone))
    print(f"reviews: {args.reviews}, items: {args.items}, best of {args.repeats}")
    print(f"calendar (bisection): {bisected:.4f} s")
    print(f"calendar (baseline, a study date per review): {baseline:.4f} s")
    print(f"streak: {streak * 1e6:.0f} us")
    print(f"mastery of {args.items} items: {mastery:.4f} s")
    print(f"calendar / baseline: {bisected / baseline:.3f}")


if __name__ == "__main__":
    main()
