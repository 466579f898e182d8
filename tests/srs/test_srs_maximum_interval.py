"""The maximum interval a user sets caps every rating's interval, as fsrs's own cap does, on
generated histories; buttons stay in order below the cap and meet at it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fsrs import Card, Rating, Scheduler
from srs_histories import generated_histories

from quizapp.srs import scheduling
from quizapp.srs.rating import AGAIN, EASY, GOOD, HARD, RATINGS
from quizapp.srs.study_day import compute_day_start_after

DAY = timedelta(days=1)
CAPS = (1, 2, 3, 7, 30, 90, 365)
BERLIN = ZoneInfo("Europe/Berlin")


def fsrs_capped(state: dict, now: datetime, retention: float, cap: int) -> dict[int, Card]:
    """What fsrs itself gives each rating with ``cap`` as its maximum interval (the wrapper's
    other settings spelled out here, not read from it)."""
    scheduler = Scheduler(desired_retention=retention, learning_steps=(
        timedelta(minutes=1), timedelta(minutes=10)), relearning_steps=(timedelta(minutes=10),),
        maximum_interval=cap, enable_fuzzing=False)
    card = Card.from_dict(state)
    return {rating: scheduler.review_card(card, Rating(rating), review_datetime=now)[0]
            for rating in RATINGS}


@pytest.mark.parametrize("seed", range(3))
def test_no_rating_waits_longer_than_the_cap_and_fsrs_agrees(seed):
    capped = 0
    for state, now, retention, cap in generated_histories(seed, 200, caps=CAPS, most_ratings=10):
        shown = scheduling.preview_intervals(state, now, desired_retention=retention,
                                             maximum_interval_days=cap)
        uncapped = scheduling.preview_intervals(state, now, desired_retention=retention)
        alone = fsrs_capped(state, now, retention, cap)
        for rating in RATINGS:
            assert shown[rating] <= cap * DAY, (cap, rating, shown)
            result = scheduling.review(state, rating, now, desired_retention=retention,
                                       maximum_interval_days=cap)
            assert result.due - now == shown[rating]  # the button's promise is what happens
            # The memory model is fsrs's own under the same cap; only the due may be moved,
            # and only later, to keep Hard < Good < Easy below the cap.
            assert result.state["stability"] == alone[rating].stability
            assert result.state["difficulty"] == alone[rating].difficulty
            if shown[rating] != alone[rating].due - now:
                assert rating in (GOOD, EASY) and shown[rating] > alone[rating].due - now
            capped += shown[rating] == cap * DAY < uncapped[rating]
        days = [shown[r].days for r in (HARD, GOOD, EASY) if shown[r] >= DAY]
        # A day apart at least, except where they meet at the cap.
        assert all(a < b or a == b == cap for a, b in zip(days, days[1:], strict=False)), shown
    assert capped > 50  # the generated histories do reach the cap, often


def test_a_low_cap_brings_an_easy_card_back_within_it_in_study_days():
    """With a zone, a review ends at the start of a study day: never after the cap's day."""
    for cap in CAPS:
        now = datetime(2026, 3, 2, 8, tzinfo=UTC)
        state = scheduling.new_state(now)
        for _ in range(8):
            result = scheduling.review(state, EASY, now, maximum_interval_days=cap, zone=BERLIN)
            assert result.due <= compute_day_start_after(now, cap, BERLIN), (cap, now)
            state, now = result.state, result.due + timedelta(hours=5)
        # After eight Easys every passing button reads the cap (a label counts whole days).
        shown = scheduling.preview_intervals(state, now, maximum_interval_days=cap, zone=BERLIN)
        assert {shown[r] for r in (HARD, GOOD, EASY)} == {cap * DAY}, cap
        assert shown[AGAIN] == timedelta(minutes=10)  # a lapse keeps its relearning step


def test_the_default_cap_is_the_old_fixed_one():
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)
    state = scheduling.new_state(now)
    for _ in range(6):
        default = scheduling.review(state, EASY, now, desired_retention=0.8)
        assert default == scheduling.review(state, EASY, now, desired_retention=0.8,
                                            maximum_interval_days=36500)
        state, now = default.state, default.due


@pytest.mark.parametrize("days", [0, -1, 36501, 10**9, 1.0, 30.5, True, "30", None])
def test_a_cap_outside_the_range_or_not_a_whole_number_is_refused(days):
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)
    with pytest.raises(ValueError, match="maximum interval"):
        scheduling.review(scheduling.new_state(now), GOOD, now, maximum_interval_days=days)
    with pytest.raises(ValueError, match="maximum interval"):
        scheduling.preview_intervals(scheduling.new_state(now), now, maximum_interval_days=days)


@pytest.mark.parametrize("days", [1, 36500])
def test_both_ends_of_the_range_are_taken(days):
    assert scheduling.validate_maximum_interval(days) == days


@pytest.mark.parametrize("zone", [None, BERLIN], ids=["hours", "study-days"])
def test_capping_a_stored_due_moves_only_the_due_and_only_past_the_cap(zone):
    rng = random.Random(7)
    moved = kept = 0
    for state, now, retention, _ in generated_histories(11, 300, caps=CAPS, most_ratings=10):
        if rng.random() < 0.5:  # most generated states are already within their own cap
            state = scheduling.review(state, EASY, now, desired_retention=retention,
                                      zone=zone).state
        cap = rng.choice(CAPS)
        before = Card.from_dict(state)
        capped = scheduling.cap_state_due(state, cap, zone)
        if before.state.name != "Review":
            assert capped is None  # learning steps are minutes away: left alone
            continue
        limit = (before.last_review + cap * DAY if zone is None
                 else compute_day_start_after(before.last_review, cap, zone))
        if before.due <= limit:
            assert capped is None
            kept += 1
            continue
        new_state, due = capped
        assert due == limit == Card.from_dict(new_state).due
        assert {key: value for key, value in new_state.items() if key != "due"} == {
            key: value for key, value in state.items() if key != "due"}
        # The moved state is a valid one to review from, with fsrs's real elapsed time.
        later = max(due, now)
        assert scheduling.review(new_state, GOOD, later, desired_retention=retention,
                                 zone=zone).state["stability"] == scheduling.review(
            state, GOOD, later, desired_retention=retention, zone=zone).state["stability"]
        moved += 1
    assert moved > 20 and kept > 20


def test_capping_refuses_a_cap_out_of_range():
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)
    state = scheduling.review(scheduling.review(scheduling.new_state(now), EASY, now).state,
                              EASY, now + 10 * DAY).state
    with pytest.raises(ValueError, match="maximum interval"):
        scheduling.cap_state_due(state, 0)
