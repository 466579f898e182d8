"""The study day: it turns over at 04:00 local time, and reviews a day or more away are due
from the start of their day, so a person's reviews are waiting whatever hour they come back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from webtest_support import csrf_token, rate_current, register, shown_key

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState, User


def set_user(app, username: str, **values) -> None:
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        for name, value in values.items():
            setattr(user, name, value)
        db.session.commit()


def due_of(app, key: str):
    with app.app_context():
        return db.session.scalar(select(ReviewState.due).join(Item).where(Item.key == key))


def test_an_evening_review_is_waiting_first_thing_on_its_day(app, client, bank, clock):
    register(client, "sam")
    set_user(app, "sam", time_zone="UTC-05:00")
    clock.advance(hours=16)  # 01:00 UTC = 20:00 local
    first = shown_key(client.get("/study").text)
    rate_current(client, 3)  # Good: a 10-minute learning step
    clock.advance(minutes=10)
    assert shown_key(client.get("/study").text) == first
    rate_current(client, 3)  # Good again: out of learning, days away
    due = due_of(app, first)
    local = due - timedelta(minutes=300)
    assert (local.hour, local.minute) == (4, 0)  # the start of its study day, local time
    days = (due - srs.day_start(clock(), -300)) / timedelta(days=1)
    assert days == round(days) >= 1
    # That day at 07:30 local, before the 20:10 its exact interval would have meant: the review
    # is shown first, ahead of the new cards still waiting.
    clock.advance(seconds=(due - clock()).total_seconds() + 3.5 * 3600)
    page = client.get("/study").text
    assert shown_key(page) == first
    assert "<strong>1</strong> due" in page


def test_a_session_past_midnight_is_still_the_same_day(app, client, bank, clock):
    register(client, "sam")
    set_user(app, "sam", new_per_day=2)
    clock.advance(hours=14, minutes=30)  # 23:30 UTC
    rate_current(client, 4)
    rate_current(client, 4)
    clock.advance(hours=1)  # 00:30: a new calendar day, but the same study day (3h30m left)
    page = client.get("/study").text
    assert shown_key(page) is None
    assert "That is today's limit of 2 new items; more arrive tomorrow." in page
    assert ("Your next study day starts in 4 hours: days turn over at 04:00 UTC time (the time "
            'zone in <a href="/settings">Settings</a>).') in page
    clock.advance(hours=3, minutes=30)  # 04:00: the next study day
    assert shown_key(client.get("/study").text) is not None


def test_the_next_days_reviews_are_not_learned_ahead_before_it_starts(app, client, bank, clock):
    register(client, "sam")
    set_user(app, "sam", new_per_day=3)
    for _ in range(3):
        rate_current(client, 4)  # Easy: straight to Review, due at 04:00 some days on
    set_user(app, "sam", new_per_day=0)
    first_due = min(due_of(app, key) for key in ("alpha-stride", "beta-view", "gamma-offset"))
    clock.advance(seconds=(first_due - clock()).total_seconds() - 15 * 60)  # 03:45 that day
    page = client.get("/study").text
    assert shown_key(page) is None and "learning ahead" not in page
    clock.advance(minutes=15)  # 04:00: the day has started and its reviews are due
    assert shown_key(client.get("/study").text) is not None


def test_an_earlier_days_rating_cannot_be_undone_even_by_a_direct_post(app, client, bank,
                                                                      clock):
    register(client, "sam")
    page = client.get("/study").text
    rate_current(client, 4, page)
    with app.app_context():
        review_id = db.session.scalar(select(Review.id))
    clock.advance(days=1)
    response = client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                                "review_id": str(review_id)})
    assert response.status_code == 303
    assert "made on an earlier study day" in client.get("/study").text
    with app.app_context():
        assert db.session.scalar(select(Review.id)) == review_id  # still there


def test_a_berlin_study_day_turns_over_at_four_summer_time_on_the_night_clocks_change(
        app, client, bank, clock):
    """30 March 2025: clocks go from 02:00 CET to 03:00 CEST; the new study day begins at
    04:00 CEST (02:00 UTC), not at 04:00 CET (03:00 UTC) as a fixed offset would have it."""
    register(client, "sam")
    set_user(app, "sam", time_zone="Europe/Berlin", new_per_day=2)
    clock.advance(seconds=(datetime(2025, 3, 30, 0, 30, tzinfo=UTC) - clock()).total_seconds())
    rate_current(client, 4)
    rate_current(client, 4)  # 01:30 CET: today's two new items are done
    page = client.get("/study").text
    assert shown_key(page) is None
    assert "Your next study day starts in 2 hours:" in page  # 1.5 hours to 02:00 UTC, rounded
    clock.advance(minutes=89)  # 01:59 UTC, 03:59 CEST: still the same study day
    assert shown_key(client.get("/study").text) is None
    clock.advance(minutes=1)  # 02:00 UTC, 04:00 CEST: a new day, new items again
    assert shown_key(client.get("/study").text) is not None


def test_undo_gone_at_the_turn_of_the_day_is_explained_for_a_while(app, client, bank, clock):
    """Rated at 03:58, the page at 04:02 says why Undo went; two hours on it says nothing."""
    register(client, "sam")
    clock.advance(hours=18, minutes=58)  # 09:00 UTC -> 03:58 the next morning
    rate_current(client, 3)
    assert "data-undo-form" in client.get("/study").text
    clock.advance(minutes=4)  # 04:02: a new study day
    page = client.get("/study").text
    assert "data-undo-form" not in page
    assert "made before the study day turned over at 04:00, so it can no longer be undone" in page
    # Two hours after the rating (README), not after 04:00: 05:57 still, 05:59 no more.
    clock.advance(hours=1, minutes=55)
    assert "can no longer be undone" in client.get("/study").text
    clock.advance(minutes=2)
    assert "can no longer be undone" not in client.get("/study").text
