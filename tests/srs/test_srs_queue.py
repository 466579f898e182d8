"""Daily session planning (limits and order) and the start of the user's day."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from quizapp.srs import compute_remaining, day_start, plan_session

DUE = [f"due{i}" for i in range(10)]  # already ordered by due time, oldest first
NEW = [f"new{i}" for i in range(10)]


def test_due_first_then_new_in_given_order():
    plan = plan_session(DUE[:3], NEW[:2], new_done_today=0, reviews_done_today=0)
    assert plan == ["due0", "due1", "due2", "new0", "new1"]


def test_new_limit_caps_new_items():
    plan = plan_session(DUE[:2], NEW, new_done_today=0, reviews_done_today=0, new_limit=4)
    assert plan == ["due0", "due1", "new0", "new1", "new2", "new3"]


def test_review_limit_caps_due_items_but_not_new_ones():
    plan = plan_session(DUE, NEW[:2], new_done_today=0, reviews_done_today=0, review_limit=3)
    assert plan == ["due0", "due1", "due2", "new0", "new1"]


def test_counts_already_done_today_are_subtracted():
    plan = plan_session(DUE, NEW, new_done_today=3, reviews_done_today=195,
                        new_limit=5, review_limit=200)
    assert plan == ["due0", "due1", "due2", "due3", "due4", "new0", "new1"]


def test_limits_already_reached_or_exceeded_give_nothing_more():
    assert plan_session(DUE, NEW, new_done_today=20, reviews_done_today=250) == []
    only_due = plan_session(DUE, NEW, new_done_today=25, reviews_done_today=0)
    assert only_due == DUE


def test_zero_limits_and_empty_lists():
    assert plan_session(DUE, NEW, new_done_today=0, reviews_done_today=0,
                        new_limit=0, review_limit=0) == []
    assert plan_session([], [], new_done_today=0, reviews_done_today=0) == []


def test_default_limits_are_20_new_and_200_reviews():
    due, new = list(range(300)), list(range(1000, 1100))
    plan = plan_session(due, new, new_done_today=0, reviews_done_today=0)
    assert plan == due[:200] + new[:20]


def test_inputs_are_not_modified_and_result_is_a_new_list():
    due, new = list(DUE), list(NEW)
    plan = plan_session(due, new, new_done_today=0, reviews_done_today=0)
    plan.append("extra")
    assert due == DUE and new == NEW


@pytest.mark.parametrize(
    "kwargs",
    [
        {"new_done_today": -1, "reviews_done_today": 0},
        {"new_done_today": 0, "reviews_done_today": -5},
        {"new_done_today": 0, "reviews_done_today": 0, "new_limit": -1},
        {"new_done_today": 0, "reviews_done_today": 0, "review_limit": 2.5},
        {"new_done_today": "3", "reviews_done_today": 0},
        {"new_done_today": 0, "reviews_done_today": True},
    ],
)
def test_bad_counts_rejected(kwargs):
    with pytest.raises(ValueError):
        plan_session(DUE, NEW, **kwargs)


def test_compute_remaining():
    assert compute_remaining(20, 5) == 15
    assert compute_remaining(20, 25) == 0
    with pytest.raises(ValueError):
        compute_remaining(-1, 0)



@pytest.mark.parametrize(
    ("now", "offset", "expected"),
    [
        # The study day turns over at 04:00 local time (Anki's "next day starts at").
        (datetime(2024, 5, 10, 15, 30, tzinfo=UTC), 0, datetime(2024, 5, 10, 4, 0, tzinfo=UTC)),
        (datetime(2024, 5, 10, 4, 0, tzinfo=UTC), 0, datetime(2024, 5, 10, 4, 0, tzinfo=UTC)),
        # Past midnight, before 04:00: still the previous evening's day.
        (datetime(2024, 5, 10, 3, 59, tzinfo=UTC), 0, datetime(2024, 5, 9, 4, 0, tzinfo=UTC)),
        (datetime(2024, 5, 10, 0, 30, tzinfo=UTC), 0, datetime(2024, 5, 9, 4, 0, tzinfo=UTC)),
        # UTC+2: 02:30 UTC is 04:30 locally; that day began at 02:00 UTC.
        (datetime(2024, 5, 10, 2, 30, tzinfo=UTC), 120, datetime(2024, 5, 10, 2, 0, tzinfo=UTC)),
        (datetime(2024, 5, 10, 1, 59, tzinfo=UTC), 120, datetime(2024, 5, 9, 2, 0, tzinfo=UTC)),
        # UTC-5: 08:00 UTC is 03:00 locally, still the day that began at 09:00 UTC the day before.
        (datetime(2024, 5, 10, 8, 0, tzinfo=UTC), -300, datetime(2024, 5, 9, 9, 0, tzinfo=UTC)),
        (datetime(2024, 5, 10, 9, 0, tzinfo=UTC), -300, datetime(2024, 5, 10, 9, 0, tzinfo=UTC)),
        # UTC+05:30 (India), across a month boundary (2024 is a leap year).
        (datetime(2024, 2, 29, 23, 0, tzinfo=UTC), 330, datetime(2024, 2, 29, 22, 30, tzinfo=UTC)),
        (datetime(2024, 2, 29, 22, 0, tzinfo=UTC), 330, datetime(2024, 2, 28, 22, 30, tzinfo=UTC)),
        # UTC+14 across a year boundary: 14:00 UTC on 31 Dec is 04:00 on 1 Jan locally.
        (datetime(2024, 12, 31, 14, 0, tzinfo=UTC), 840, datetime(2024, 12, 31, 14, 0, tzinfo=UTC)),
        (datetime(2024, 12, 31, 13, 0, tzinfo=UTC), 840, datetime(2024, 12, 30, 14, 0, tzinfo=UTC)),
    ],
)
def test_day_start(now, offset, expected):
    start = day_start(now, offset)
    assert start == expected
    assert start.tzinfo == UTC and start <= now


def test_day_start_accepts_aware_non_utc_now():
    berlin = datetime(2024, 5, 11, 6, 30, tzinfo=ZoneInfo("Europe/Berlin"))  # 04:30 UTC on the 11th
    assert day_start(berlin) == datetime(2024, 5, 11, 4, 0, tzinfo=UTC)
    assert day_start(berlin, 120) == datetime(2024, 5, 11, 2, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("now", "offset"),
    [
        (datetime(2024, 5, 10, 12, 0), 0),  # naive
        (datetime(2024, 5, 10, 12, 0, tzinfo=UTC), 15 * 60),
        (datetime(2024, 5, 10, 12, 0, tzinfo=UTC), -841),
        (datetime(2024, 5, 10, 12, 0, tzinfo=UTC), 1.5),
        (datetime(2024, 5, 10, 12, 0, tzinfo=UTC), "60"),
    ],
)
def test_day_start_rejects_bad_input(now, offset):
    with pytest.raises(ValueError):
        day_start(now, offset)


def test_learning_steps_come_first_and_no_limit_holds_them():
    plan = plan_session(["r1", "r2"], ["n1"], learning=["l1", "l2"], new_done_today=3,
                        reviews_done_today=5, new_limit=3, review_limit=5)
    assert plan == ["l1", "l2"]  # both limits used up: only the learning steps
    plan = plan_session(["r1", "r2"], ["n1", "n2"], learning=["l1"], new_done_today=0,
                        reviews_done_today=4, new_limit=1, review_limit=5)
    assert plan == ["l1", "r1", "n1"]
    assert plan_session(["r1"], [], new_done_today=0, reviews_done_today=0) == ["r1"]
