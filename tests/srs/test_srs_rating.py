"""Ratings suggested after a puzzle answer, and rating validation."""

from __future__ import annotations

import pytest

from quizapp.srs import AGAIN, EASY, GOOD, HARD, RATINGS, suggest_rating, validate_rating
from quizapp.srs.rating import FAST_SECONDS, SLOW_SECONDS


def test_rating_numbers_match_fsrs():
    from fsrs import Rating

    assert RATINGS == {int(r): r.name.lower() for r in Rating}
    assert (AGAIN, HARD, GOOD, EASY) == (1, 2, 3, 4)


@pytest.mark.parametrize(
    ("correct", "seconds", "hints", "expected"),
    [
        (False, None, 0, AGAIN),
        (False, 3.0, 0, AGAIN),  # fast but wrong is still wrong
        (False, 500.0, 2, AGAIN),
        (True, 5.0, 1, HARD),  # any hint -> Hard, however fast
        (True, None, 2, HARD),
        (True, SLOW_SECONDS + 0.5, 0, HARD),
        (True, 600.0, 0, HARD),
        (True, SLOW_SECONDS, 0, GOOD),  # the slow threshold itself is still Good
        (True, 60.0, 0, GOOD),
        (True, FAST_SECONDS + 0.1, 0, GOOD),
        (True, None, 0, GOOD),  # unknown time: never Easy
        (True, FAST_SECONDS, 0, EASY),  # the fast threshold itself is Easy
        (True, 4.0, 0, EASY),
        (True, 0, 0, EASY),
    ],
)
def test_suggest_rating_table(correct, seconds, hints, expected):
    assert suggest_rating(correct, seconds=seconds, hints_used=hints) == expected


def test_easy_only_where_the_caller_allows_it():
    assert suggest_rating(True, seconds=4.0, can_be_easy=False) == GOOD
    assert suggest_rating(True, seconds=4.0, hints_used=1, can_be_easy=False) == HARD
    assert suggest_rating(False, seconds=4.0, can_be_easy=False) == AGAIN


def test_custom_thresholds():
    assert suggest_rating(True, seconds=45, fast_seconds=60, slow_seconds=300) == EASY
    assert suggest_rating(True, seconds=45, fast_seconds=10, slow_seconds=30) == HARD
    assert suggest_rating(True, seconds=45, fast_seconds=10, slow_seconds=60) == GOOD


@pytest.mark.parametrize(
    "kwargs",
    [
        {"correct": 1},
        {"correct": None},
        {"correct": True, "seconds": -1},
        {"correct": True, "seconds": float("nan")},
        {"correct": True, "seconds": float("inf")},
        {"correct": True, "seconds": "12"},
        {"correct": True, "hints_used": -1},
        {"correct": True, "hints_used": 1.0},
        {"correct": True, "hints_used": True},
        {"correct": True, "fast_seconds": 200, "slow_seconds": 100},
    ],
)
def test_suggest_rating_rejects_bad_input(kwargs):
    correct = kwargs.pop("correct")
    with pytest.raises(ValueError):
        suggest_rating(correct, **kwargs)


def test_validate_rating():
    assert [validate_rating(r) for r in (1, 2, 3, 4)] == [1, 2, 3, 4]
    for bad in (0, 5, True, 2.0, "2", None):
        with pytest.raises(ValueError, match="rating"):
            validate_rating(bad)
