"""Day-long intervals keep Hard < Good < Easy, as Anki keeps them, on generated histories; the
rating given is scheduled as its button said, and fsrs's own result stands where it was in order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Rating
from srs_histories import generated_histories

from quizapp.srs import scheduling
from quizapp.srs.rating import EASY, GOOD, HARD, RATINGS

DAY = timedelta(days=1)


def fsrs_alone(state: dict, now: datetime, retention: float) -> dict[int, timedelta]:
    """What fsrs gives each rating by itself (the wrapper's own scheduler settings)."""
    scheduler = scheduling._build_scheduler(retention)
    card = Card.from_dict(state)
    return {rating: scheduler.review_card(card, Rating(rating), review_datetime=now)[0].due - now
            for rating in RATINGS}


@pytest.mark.parametrize("seed", range(4))
def test_day_long_buttons_are_a_day_apart_at_least_and_rated_as_shown(seed):
    mended = 0
    for state, now, retention, _ in generated_histories(seed, 150):
        shown = scheduling.preview_intervals(state, now, desired_retention=retention)
        raw = fsrs_alone(state, now, retention)
        days = [shown[r] for r in (HARD, GOOD, EASY) if shown[r] >= DAY]
        assert all(a.days + 1 <= b.days for a, b in zip(days, days[1:], strict=False)), shown
        for rating in RATINGS:
            result = scheduling.review(state, rating, now, desired_retention=retention)
            assert result.due - now == shown[rating]  # the button's promise is what happens
            if raw[rating] != shown[rating]:
                # Moved only to keep the order: a later day than fsrs gave, stability unchanged.
                assert rating in (GOOD, EASY) and shown[rating] > raw[rating] >= DAY
                alone = Card.from_dict(state)
                fsrs_card = scheduling._build_scheduler(retention).review_card(
                    alone, Rating(rating), review_datetime=now)[0]
                assert result.state["stability"] == fsrs_card.stability
            mended += raw[rating] != shown[rating]
        untouched = [r for r in RATINGS if raw[r] == shown[r]]
        assert set(untouched) >= {1, HARD}  # Again and Hard are always fsrs's own
    assert mended > 0  # the generated histories do reach equal buttons


def test_good_and_easy_after_a_lapse_at_high_retention_differ():
    """The tester's case: a review card lapsed, then at 0.99 every passing button read 1d."""
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)
    state = scheduling.new_state(now)
    for rating, gap in ((GOOD, timedelta(0)), (GOOD, timedelta(minutes=10)),
                        (GOOD, timedelta(days=3)), (1, timedelta(days=9)),
                        (GOOD, timedelta(minutes=10))):
        now += gap
        state = scheduling.review(state, rating, now, desired_retention=0.99).state
    shown = scheduling.preview_intervals(state, now + DAY, desired_retention=0.99)
    passing = [shown[r].days for r in (HARD, GOOD, EASY)]
    assert passing == sorted(set(passing)), shown


def test_the_order_never_pushes_past_the_maximum_interval():
    """At the cap (100 years) Hard, Good and Easy may all be the maximum: no day past it."""
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)
    state = scheduling.new_state(now)
    for _ in range(12):
        result = scheduling.review(state, EASY, now, desired_retention=0.7)
        state, now = result.state, result.due
    shown = scheduling.preview_intervals(state, now, desired_retention=0.7)
    cap = timedelta(days=scheduling.MAXIMUM_INTERVAL_DAYS)
    assert shown[EASY] == cap and all(shown[r] <= cap for r in RATINGS)
