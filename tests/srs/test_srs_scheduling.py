"""Golden FSRS schedules, rating previews, retention and input validation for quizapp.srs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizapp.srs import (
    DESIRED_RETENTION_RANGE,
    RATINGS,
    day_start,
    is_new,
    new_state,
    preview_intervals,
    review,
    state_due,
    state_stability,
)

NOW = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
LEARNING, REVIEW, RELEARNING = 1, 2, 3  # fsrs.State values as stored in the state dict


def replay(ratings, *, start=NOW, delays=None, desired_retention=0.9):
    """Review a new item with ``ratings``, each at its due time plus the matching delay."""
    state, at, steps = new_state(start), start, []
    for index, rating in enumerate(ratings):
        if delays is not None:
            at = at + delays[index]
        result = review(state, rating, at, desired_retention=desired_retention)
        steps.append((at, result))
        state, at = result.state, result.due
    return steps


# Golden sequences pinned from fsrs 6.3.2 with default parameters, learning steps (1m, 10m),
# relearning step (10m), no fuzzing.  A change here means fsrs or our settings changed: update
# the numbers only as a deliberate decision.  Each row: (rating, due, fsrs state, step).
GOLDEN_GOOD_GOOD_GOOD_AGAIN_GOOD = [
    (3, datetime(2024, 1, 1, 9, 10, tzinfo=UTC), LEARNING, 1),
    (3, datetime(2024, 1, 3, 9, 10, tzinfo=UTC), REVIEW, None),
    (3, datetime(2024, 1, 14, 9, 10, tzinfo=UTC), REVIEW, None),
    (1, datetime(2024, 1, 14, 9, 20, tzinfo=UTC), RELEARNING, 0),
    (3, datetime(2024, 1, 16, 9, 20, tzinfo=UTC), REVIEW, None),
]
GOLDEN_EASY_EASY_HARD = [
    (4, datetime(2024, 1, 9, 9, 0, tzinfo=UTC), REVIEW, None),
    (4, datetime(2024, 3, 15, 9, 0, tzinfo=UTC), REVIEW, None),
    (2, datetime(2024, 9, 3, 9, 0, tzinfo=UTC), REVIEW, None),
]


@pytest.mark.parametrize(
    "golden", [GOLDEN_GOOD_GOOD_GOOD_AGAIN_GOOD, GOLDEN_EASY_EASY_HARD], ids=["GGGAG", "EEH"]
)
def test_golden_sequence_reviewed_on_time(golden):
    steps = replay([row[0] for row in golden])
    got = [(rating, result.due, result.state["state"], result.state["step"])
           for (rating, *_), (_, result) in zip(golden, steps, strict=True)]
    assert got == golden


def test_golden_intervals_good_good_good_again_good():
    steps = replay([3, 3, 3, 1, 3])
    intervals = [result.due - at for at, result in steps]
    assert intervals == [
        timedelta(minutes=10),
        timedelta(days=2),
        timedelta(days=11),
        timedelta(minutes=10),
        timedelta(days=2),
    ]


def test_golden_late_reviews_grow_intervals_more():
    # Reviews 10 and 30 days after they fell due: recall after a longer gap raises stability more.
    late = replay([3, 3, 3, 3], delays=[timedelta(0), timedelta(0), timedelta(days=10),
                                        timedelta(days=30)])
    assert [result.due - at for at, result in late] == [
        timedelta(minutes=10), timedelta(days=2), timedelta(days=27), timedelta(days=149)
    ]
    on_time = replay([3, 3, 3])
    assert late[2][1].due - late[2][0] > on_time[2][1].due - on_time[2][0]


def test_first_easy_interval_is_initial_easy_stability():
    # FSRS: at 90% retention the interval equals the stability, and a first Easy sets it to
    # w[3] = 8.2956 days in fsrs's default parameters -> rounded to 8 whole days.
    result = review(new_state(NOW), 4, NOW)
    assert result.due - NOW == timedelta(days=8)
    assert result.state["stability"] == pytest.approx(8.2956)


def test_new_state_shape_and_helpers():
    state = new_state(NOW)
    assert state["state"] == LEARNING and state["step"] == 0
    assert state["stability"] is None and state["last_review"] is None
    assert is_new(state) and state_due(state) == NOW
    assert state["card_id"] == 1704099600000  # epoch milliseconds of NOW
    assert new_state(NOW, card_id=42)["card_id"] == 42
    reviewed = review(state, 3, NOW).state
    assert not is_new(reviewed)
    assert state_due(reviewed) == NOW + timedelta(minutes=10)


def test_state_stability_is_the_states_own_as_a_float():
    """What review_state keeps in its stability column: None before the first rating."""
    assert state_stability(new_state(NOW)) is None
    reviewed = review(new_state(NOW), 3, NOW).state
    assert state_stability(reviewed) == reviewed["stability"] > 0
    assert state_stability({**reviewed, "stability": 12}) == 12.0
    for wrong in (True, "2.5", [2.5]):
        with pytest.raises(ValueError, match="stability must be a number"):
            state_stability({**reviewed, "stability": wrong})


def states_in_every_phase():
    """A new, learning, review, relearning and long-review state, each with a time to look at."""
    good_good = replay([3, 3])
    relearn = replay([3, 3, 3, 1])
    long_review = replay([4, 4])
    return [
        (new_state(NOW), NOW),
        (replay([3])[0][1].state, NOW + timedelta(minutes=10)),
        (good_good[-1][1].state, good_good[-1][1].due),
        (good_good[-1][1].state, good_good[-1][1].due + timedelta(days=40)),  # overdue
        (good_good[-1][1].state, good_good[-1][1].due - timedelta(days=1)),  # early
        (relearn[-1][1].state, relearn[-1][1].due),
        (long_review[-1][1].state, long_review[-1][1].due),
    ]


@pytest.mark.parametrize("retention", [0.8, 0.9, 0.95])
def test_preview_matches_review_for_every_rating(retention):
    for state, at in states_in_every_phase():
        preview = preview_intervals(state, at, desired_retention=retention)
        assert sorted(preview) == sorted(RATINGS)
        for rating in RATINGS:
            result = review(state, rating, at, desired_retention=retention)
            assert preview[rating] == result.due - at


def test_preview_for_new_item_uses_learning_steps():
    assert preview_intervals(new_state(NOW), NOW) == {
        1: timedelta(minutes=1),
        2: timedelta(minutes=5, seconds=30),  # fsrs: Hard on step 0 is the mean of 1m and 10m
        3: timedelta(minutes=10),
        4: timedelta(days=8),
    }


def test_higher_retention_never_lengthens_intervals():
    at_good_good = replay([3, 3, 3])[-1]
    state, at = at_good_good[1].state, at_good_good[1].due
    previews = [preview_intervals(state, at, desired_retention=r) for r in (0.8, 0.9, 0.95)]
    for rating in (2, 3, 4):
        loose, middle, strict = (p[rating] for p in previews)
        assert loose > middle > strict
    # Again goes to relearning whatever the retention.
    assert {p[1] for p in previews} == {timedelta(minutes=10)}


def test_schedule_is_deterministic_where_fuzz_would_apply():
    # Fuzzing (random +-days for intervals >= 2.5 days) must be off: repeat a 46-day review.
    state, at = replay([3, 3, 3])[-1][1].state, replay([3, 3, 3])[-1][1].due
    results = {review(state, 3, at).due for _ in range(30)}
    assert results == {at + timedelta(days=46)}


def test_review_log_and_duration():
    result = review(new_state(NOW), 2, NOW, duration_ms=4500)
    assert result.log == {
        "card_id": 1704099600000,
        "rating": 2,
        "review_datetime": "2024-01-01T09:00:00+00:00",
        "review_duration": 4500,
    }
    assert result.due.tzinfo == UTC
    assert review(new_state(NOW), 3, NOW).log["review_duration"] is None


def test_review_does_not_modify_given_state():
    state = replay([3, 3])[-1][1].state
    before = dict(state)
    review(state, 1, NOW + timedelta(days=5))
    assert state == before


def test_aware_non_utc_now_is_converted():
    paris = datetime(2024, 1, 1, 10, 0, tzinfo=ZoneInfo("Europe/Paris"))  # 09:00 UTC
    assert new_state(paris) == new_state(NOW)
    assert review(new_state(NOW), 3, paris) == review(new_state(NOW), 3, NOW)
    assert review(new_state(NOW), 3, paris).due.tzinfo == UTC


NAIVE = datetime(2024, 1, 1, 9, 0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: new_state(NAIVE),
        lambda: review(new_state(NOW), 3, NAIVE),
        lambda: preview_intervals(new_state(NOW), NAIVE),
        lambda: new_state("2024-01-01T09:00:00+00:00"),
    ],
    ids=["new_state", "review", "preview", "string"],
)
def test_naive_or_non_datetime_now_rejected(call):
    with pytest.raises(ValueError, match="now"):
        call()


@pytest.mark.parametrize("rating", [0, 5, -1, True, 3.0, "3", None])
def test_rating_outside_1_to_4_rejected(rating):
    with pytest.raises(ValueError, match="rating"):
        review(new_state(NOW), rating, NOW)


@pytest.mark.parametrize("retention", [0.5, 1.0, 0.0, -0.9, float("nan"), "0.9", True])
def test_bad_desired_retention_rejected(retention):
    with pytest.raises(ValueError, match="retention"):
        review(new_state(NOW), 3, NOW, desired_retention=retention)
    with pytest.raises(ValueError, match="retention"):
        preview_intervals(new_state(NOW), NOW, desired_retention=retention)


def test_retention_range_ends_are_accepted():
    for retention in DESIRED_RETENTION_RANGE:
        assert review(new_state(NOW), 3, NOW, desired_retention=retention).state["step"] == 1


@pytest.mark.parametrize("duration", [-1, 1.5, "10", True])
def test_bad_duration_rejected(duration):
    with pytest.raises(ValueError, match="duration_ms"):
        review(new_state(NOW), 3, NOW, duration_ms=duration)


def _with(**changes):
    state = dict(review(new_state(NOW), 3, NOW).state)
    state.update(changes)
    return state


@pytest.mark.parametrize(
    "state",
    [
        None,
        [],
        {},
        {k: v for k, v in new_state(NOW).items() if k != "due"},
        {**new_state(NOW), "extra": 1},
        _with(state=7),
        _with(state="learning"),
        _with(due="not a date"),
        _with(due="2024-01-01T09:00:00"),  # naive
        _with(last_review="2024-01-01T09:00:00"),  # naive
        _with(stability="high"),
        _with(stability=None),  # difficulty set, stability missing
        _with(stability=-2.0),
        _with(stability=float("nan")),
        _with(difficulty=float("inf")),
        _with(state=REVIEW, step=1),
        _with(step=-1),
        _with(step="1"),
        {**new_state(NOW), "state": REVIEW, "step": None},  # review state without memory
    ],
)
def test_malformed_state_rejected(state):
    with pytest.raises(ValueError, match="state"):
        review(state, 3, NOW)


def _reviewed_into_review_state(now: datetime) -> dict:
    """A card rated Good twice ten minutes apart: out of learning, next due days away."""
    first = review(new_state(now), 3, now)
    return review(first.state, 3, now + timedelta(minutes=10)).state


@pytest.mark.parametrize("offset", [0, 120, -300, 330])
@pytest.mark.parametrize("rating", [2, 3, 4])
def test_day_long_intervals_end_at_the_start_of_their_study_day(offset, rating):
    # 20:00 local time, whatever the offset.
    now = datetime(2025, 3, 3, 20, 0, tzinfo=UTC) - timedelta(minutes=offset)
    # Last reviewed 3 x 24 hours ago: fsrs's whole days and the study days agree (3), so only
    # the due may differ (test_elapsed_time_is_counted_in_study_days covers where they differ).
    state = _reviewed_into_review_state(now - timedelta(days=3, minutes=10))
    exact = review(state, rating, now)
    rounded = review(state, rating, now, zone=offset)
    assert exact.due - now >= timedelta(days=1)
    assert rounded.due == day_start(exact.due, offset)
    assert rounded.due > now and state_due(rounded.state) == rounded.due
    local = rounded.due + timedelta(minutes=offset)
    assert (local.hour, local.minute) == (4, 0)  # the study day's first moment
    # The same whole number of study days away as the exact interval.
    days = (day_start(exact.due, offset) - day_start(now, offset)) / timedelta(days=1)
    assert days == round(days) >= 1
    # Only the due time moves: the memory model's numbers are FSRS's own.
    assert {k: v for k, v in rounded.state.items() if k != "due"} == {
        k: v for k, v in exact.state.items() if k != "due"}


def test_learning_steps_are_not_rounded():
    now = datetime(2025, 3, 3, 22, 0, tzinfo=UTC)
    for rating in (1, 2, 3):
        exact = review(new_state(now), rating, now)
        assert review(new_state(now), rating, now, zone=0).due == exact.due
        assert exact.due - now < timedelta(hours=1)


def test_a_late_evening_one_day_interval_waits_for_the_next_study_day():
    # Rated at 23:50 (UTC, offset 0) with an interval of a day or more: due from 04:00 on the
    # day after, not 00:00 ten minutes later (the study day turns over at 04:00).
    now = datetime(2025, 3, 3, 23, 50, tzinfo=UTC)
    state = _reviewed_into_review_state(now - timedelta(days=1, minutes=10))
    exact = review(state, 3, now)
    rounded = review(state, 3, now, zone=0)
    # The exact due is some days on at 23:50; rounded, it is 04:00 of the study day that
    # 23:50 belongs to, which began that same calendar day.
    assert (exact.due.hour, exact.due.minute) == (23, 50)
    assert rounded.due == exact.due.replace(hour=4, minute=0)
    assert rounded.due >= datetime(2025, 3, 4, 4, 0, tzinfo=UTC)
