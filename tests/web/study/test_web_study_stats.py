"""The Stats page: items by stage, the coming week's reviews, retention and the last two weeks,
each checked against the review log and the states the study flow stored."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select
from webtest_support import rate_current, register, shown_key

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Item, ReviewState, User
from quizapp.services.study_stats import (
    FORECAST_DAYS,
    RECENT_DAYS,
    compute_day_starts,
    compute_study_stats,
)

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4


def stats_of(app, username: str, now: datetime):
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        return compute_study_stats(db.session, user, now)


def due_of(app, key: str) -> datetime:
    with app.app_context():
        return db.session.scalar(select(ReviewState.due).join(Item).where(Item.key == key))


def answer_after(client, clock, rating: int, seconds: float) -> str:
    """Show the next item, think for ``seconds``, rate it; the key of the item rated."""
    page = client.get("/study").text
    clock.advance(seconds=seconds)
    rate_current(client, rating, page)
    return shown_key(page)


def test_stages_forecast_and_today_follow_the_ratings(app, client, bank, clock):
    register(client, "sam")
    easy = answer_after(client, clock, EASY, 30)  # straight to Review, days away
    answer_after(client, clock, GOOD, 20)  # a 10-minute learning step
    answer_after(client, clock, AGAIN, 10)  # a 1-minute learning step
    stats = stats_of(app, "sam", clock())
    assert (stats.new, stats.learning, stats.review) == (len(bank) - 3, 2, 1)
    assert len(stats.forecast) == FORECAST_DAYS and len(stats.recent) == RECENT_DAYS
    # Both learning steps are due today; the Easy card is due more than a week on (its first
    # interval), outside the forecast until the week reaches it.
    days_ahead = (due_of(app, easy) - srs.day_start(clock(), 0)) // timedelta(days=1)
    assert days_ahead >= FORECAST_DAYS
    assert [day.count for day in stats.forecast] == [2] + [0] * (FORECAST_DAYS - 1)
    later = stats_of(app, "sam", clock() + timedelta(days=days_ahead - 3))
    assert [day.count for day in later.forecast] == [2, 0, 0, 1, 0, 0, 0]
    assert (stats.recent[0].count, stats.recent[0].seconds) == (3, 60)
    assert all(day.count == 0 for day in stats.recent[1:])
    assert stats.retention is None and stats.retention_reviews == 0


def test_a_rating_moves_down_a_row_each_day_and_an_overdue_item_counts_today(app, client, bank,
                                                                         clock):
    register(client, "sam")
    easy = answer_after(client, clock, EASY, 5)
    rated_at = clock()
    for days_later in range(RECENT_DAYS + 1):
        rated = [day.count for day in stats_of(app, "sam", rated_at + timedelta(days=days_later))
                 .recent]
        assert rated == [int(row == days_later) for row in range(RECENT_DAYS)]
    clock.advance(seconds=(due_of(app, easy) - clock()).total_seconds() + 2 * 86400)
    stats = stats_of(app, "sam", clock())  # two days past its due day, still unreviewed
    assert [day.count for day in stats.forecast] == [1] + [0] * (FORECAST_DAYS - 1)


def test_retention_counts_reviews_of_items_past_their_steps_only(app, client, bank, clock):
    register(client, "sam")
    for _ in range(3):
        answer_after(client, clock, EASY, 5)  # three cards in Review
    answer_after(client, clock, AGAIN, 5)  # a learning step: never counted in retention
    with app.app_context():
        first_due = min(db.session.scalars(select(ReviewState.due).where(
            ReviewState.learning.is_(False))))
    clock.advance(seconds=(first_due - clock()).total_seconds() + 3600)
    ratings, steps_rated = [], 0
    for _ in range(10):
        key = shown_key(client.get("/study").text)
        assert key is not None
        with app.app_context():
            learning = db.session.scalar(select(ReviewState.learning).join(Item)
                                         .where(Item.key == key))
        if learning:  # the card rated Again, overdue in its step: shown first, not counted
            answer_after(client, clock, GOOD, 5)
            steps_rated += 1
            continue
        rating = (AGAIN, HARD, EASY)[len(ratings)]  # Hard is remembered, if barely
        answer_after(client, clock, rating, 5)
        ratings.append(rating)
        if len(ratings) == 3:
            break
    assert len(ratings) == 3 and steps_rated == 1
    stats = stats_of(app, "sam", clock())
    assert stats.retention_reviews == len(ratings)
    assert stats.retention_passed == sum(rating > AGAIN for rating in ratings)
    # Thirty days later those reviews have left the window.
    assert stats_of(app, "sam", clock() + timedelta(days=31)).retention_reviews == 0


def test_another_users_ratings_are_not_counted(app, client, bank, clock):
    register(client, "sam")
    answer_after(client, clock, GOOD, 5)
    client.post("/logout", data={"csrf_token": re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', client.get("/").text).group(1)})
    register(client, "kim")
    stats = stats_of(app, "kim", clock())
    assert (stats.new, stats.learning, stats.review) == (len(bank), 0, 0)
    assert sum(day.count for day in stats.recent) == sum(d.count for d in stats.forecast) == 0


def test_day_rows_start_where_srs_day_start_says_across_clock_changes():
    # Oracle: srs.day_start of each row's start, and of the instant before the next row, is
    # that row's start, across summer-time changes and the 04:00 turnover.
    rng = random.Random(7)
    for name in ("Europe/Berlin", "America/Santiago", "Australia/Lord_Howe", "UTC"):
        zone = ZoneInfo(name) if name != "UTC" else UTC
        for _ in range(40):
            now = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(525_600))
            starts = compute_day_starts(now, zone, RECENT_DAYS - 1, FORECAST_DAYS)
            assert len(starts) == RECENT_DAYS + FORECAST_DAYS
            assert starts[RECENT_DAYS - 1] == srs.day_start(now, zone)
            for start, end in zip(starts, starts[1:], strict=False):
                assert timedelta(hours=22) <= end - start <= timedelta(hours=26)
                assert srs.day_start(start, zone) == start
                assert srs.day_start(end - timedelta(microseconds=1), zone) == start


def test_the_page_shows_the_figures_and_needs_an_account(app, client, bank, clock):
    assert client.get("/study/stats").status_code == 302
    register(client, "sam")
    page = client.get("/study/stats").text
    assert "No item past its learning steps has come up for review in the last 30 days" in page
    assert 'aria-current="page">Stats</a>' in page
    answer_after(client, clock, GOOD, 42)
    page = client.get("/study/stats").text
    items = re.findall(r'<span class="stat-number">(\d+)</span><span class="stat-label">([^<]+)',
                       page)
    assert items == [(str(len(bank) - 1), "new, never rated"), ("1", "in learning steps"),
                     ("0", "in review"), ("0", "suspended")]
    rows = re.findall(r'<th scope="row" class="nowrap">([^<]+)</th>\s*<td>(\d+)', page)
    assert rows[0] == ("Today", "1") and rows[1] == ("Tomorrow", "0")
    assert rows[FORECAST_DAYS] == ("Today", "1") and rows[FORECAST_DAYS + 1] == ("Yesterday", "0")
    assert len(rows) == FORECAST_DAYS + RECENT_DAYS
    # START is Monday 3 March 2025: the third row of the week is Wednesday.
    assert rows[2][0] == "Wed 5 Mar" and rows[FORECAST_DAYS + 2][0] == "Sat 1 Mar"
    assert '<td class="nowrap">42 s</td>' in page
    # The bars' column says in words what each bar shows: the day against the busiest one.
    shares = re.findall(r'aria-hidden="true"></meter><span class="visually-hidden">(\d+)%</span>', page)
    assert shares[:2] == ["100", "0"] and shares[FORECAST_DAYS:FORECAST_DAYS + 2] == ["100", "0"]
    assert len(shares) == FORECAST_DAYS + RECENT_DAYS and "Share of the busiest day" in page
    answer_after(client, clock, GOOD, 77)  # 119 s today: shown to the nearest minute
    assert '<td class="nowrap">2 min</td>' in client.get("/study/stats").text
