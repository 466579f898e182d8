"""srs.compute_recall: fsrs's own retrievability of a stored state, read from two fields."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

import pytest
from fsrs import Card, Scheduler

from quizapp import srs

T0 = datetime(2025, 6, 1, 8, tzinfo=UTC)


def histories(seed: int, count: int):
    """States after random rating sequences, each with a moment to project it to."""
    rng = random.Random(seed)
    for _ in range(count):
        state, moment = srs.new_state(T0), T0
        for _ in range(rng.randrange(1, 8)):
            state = srs.review(state, rng.choice([1, 2, 3, 4]), moment).state
            moment += timedelta(hours=rng.uniform(0.1, 24 * 40))
        yield state, moment + timedelta(hours=rng.uniform(-30, 24 * 400))


@pytest.mark.parametrize("seed", range(5))
def test_it_is_fsrs_own_retrievability(seed):
    scheduler = Scheduler()  # fsrs's defaults: the forgetting curve does not depend on them
    for state, moment in histories(seed, 40):
        expected = scheduler.get_card_retrievability(Card.from_dict(state), moment)
        assert srs.compute_recall(state, moment) == pytest.approx(expected, rel=1e-12)
        assert srs.compute_recall(state, moment) == pytest.approx(
            srs.compute_memory(state, moment).retrievability, rel=1e-12)


def test_never_reviewed_has_none():
    assert srs.compute_recall(srs.new_state(T0), T0 + timedelta(days=2)) is None


@pytest.mark.parametrize("change", [{"stability": -1.0}, {"stability": float("nan")},
                                    {"stability": True}, {"last_review": "yesterday"},
                                    {"last_review": "2025-06-01T08:00:00"}, {"last_review": 5}])
def test_a_damaged_state_is_refused(change):
    state = {**srs.review(srs.new_state(T0), 3, T0).state, **change}
    with pytest.raises(ValueError):
        srs.compute_recall(state, T0 + timedelta(days=3))


@pytest.mark.parametrize("seed", range(3))
def test_a_curve_read_from_the_two_fields_projects_as_the_state_does(seed):
    """read_curve takes the last review as the state's ISO text or as a database's aware
    datetime (in any zone), and gives the state's own recall at every moment."""
    elsewhere = timezone(timedelta(hours=-5))
    for state, moment in histories(seed, 30):
        if state.get("stability") is None:
            assert srs.read_curve(state.get("last_review"), None) is None
            continue
        last = datetime.fromisoformat(state["last_review"])
        expected = srs.compute_recall(state, moment)
        for form in (state["last_review"], last, last.astimezone(elsewhere)):
            curve = srs.read_curve(form, state["stability"])
            assert curve is not None and curve.last_review.tzinfo is UTC
            assert curve.recall_at(moment) == expected
            assert curve.recall_at(moment.astimezone(elsewhere)) == expected


@pytest.mark.parametrize(("last", "stability"), [
    (datetime(2025, 6, 1, 8), 3.0),  # naive: no instant
    ("2025-06-01T08:00:00+00:00", 0.0), ("2025-06-01T08:00:00+00:00", float("inf")),
    ("2025-06-01T08:00:00+00:00", "3"), (20250601, 3.0),
    (T0, float("nan")), (T0, float("inf")), (T0, -1.0), (T0, 0.0)])  # as columns give them
def test_a_curve_from_fields_not_as_review_writes_them_is_refused(last, stability):
    with pytest.raises(ValueError):
        srs.read_curve(last, stability)
