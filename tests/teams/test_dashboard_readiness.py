"""Predicted recall at a due date, checked against fsrs's forgetting curve computed here."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Scheduler

from quizapp import srs
from quizapp.teams import compute_readiness, compute_recall, compute_recall_moment

T0 = datetime(2026, 3, 2, 10, tzinfo=UTC)
# fsrs 6's curve: R(t) = (1 + F t / S) ** -decay, F chosen so that R(S) = 0.9, t in whole days
# since the last review, with the decay the default parameters' last weight holds.
DECAY = Scheduler().parameters[20]
FACTOR = 0.9 ** (1 / -DECAY) - 1


def curve(days: int, stability: float) -> float:
    return (1 + FACTOR * days / stability) ** -DECAY


def reviewed(*ratings: int, start: datetime = T0, gap: timedelta = timedelta(days=3)):
    state, moment = srs.new_state(start), start
    for rating in ratings:
        state = srs.review(state, rating, moment).state
        moment += gap
    return state


@pytest.mark.parametrize("ratings", [(3,), (3, 3), (1, 3, 4), (4,), (2, 2, 3)])
@pytest.mark.parametrize("days", [0, 1, 5, 30, 200])
def test_recall_at_a_later_day_follows_the_forgetting_curve(ratings, days):
    state = reviewed(*ratings)
    last = datetime.fromisoformat(state["last_review"])
    expected = curve(days, state["stability"])
    assert compute_recall(state, last + timedelta(days=days, hours=1)) == pytest.approx(expected)


def test_recall_after_exactly_stability_days_is_ninety_percent():
    state = reviewed(3, 3, 3, gap=timedelta(days=10))
    last = datetime.fromisoformat(state["last_review"])
    days = round(state["stability"])
    state = {**state, "stability": float(days)}  # whole days: fsrs counts whole days
    assert compute_recall(state, last + timedelta(days=days)) == pytest.approx(0.9)


def test_recall_falls_as_the_due_date_moves_away():
    state = reviewed(3, 3)
    last = datetime.fromisoformat(state["last_review"])
    chances = [compute_recall(state, last + timedelta(days=d)) for d in (1, 7, 30, 90)]
    assert chances == sorted(chances, reverse=True) and chances[0] > chances[-1]


def test_never_reviewed_items_have_no_prediction():
    assert compute_recall(None, T0) is None
    assert compute_recall(srs.new_state(T0), T0 + timedelta(days=3)) is None
    assert compute_recall({"stage": "nonsense"}, T0) is None  # a damaged state


def test_readiness_counts_never_studied_items_as_zero_and_says_how_many_were_studied():
    strong, weak = reviewed(4, 4, 4), reviewed(1)
    at = T0 + timedelta(days=40)
    items = {1: ("stride", "view"), 2: ("stride",), 3: ("view",), 4: ("reshape",)}
    states = {1: strong, 2: weak, 4: srs.new_state(T0)}  # 3 never touched, 4 new
    ready = compute_readiness(items, states, at)
    r1, r2 = compute_recall(strong, at), compute_recall(weak, at)
    assert ready.items == 4 and ready.studied == 2
    assert ready.recall == pytest.approx((r1 + r2) / 4)
    assert ready.by_concept == pytest.approx({"stride": (r1 + r2) / 2, "view": r1 / 2,
                                              "reshape": 0.0})
    assert ready.percent == round((r1 + r2) / 4 * 100)


def test_a_track_without_items_has_no_readiness_figure():
    ready = compute_readiness({}, {}, T0)
    assert ready.recall is None and ready.percent is None and ready.by_concept == {}


def test_days_are_counted_as_fsrs_counts_them_and_a_repeat_is_remembered():
    state = srs.review(srs.new_state(T0), 3, T0, zone=60).state
    at = T0 + timedelta(days=10)
    assert compute_recall(state, at) == pytest.approx(srs.compute_memory(state, at).retrievability)
    known = {}
    first = compute_readiness({1: ("view",)}, {1: state}, at, known)
    assert known == {(1, at): compute_recall(state, at)}
    known[1, at] = 0.5  # the remembered figure is used, not computed again
    assert compute_readiness({1: ("view",)}, {1: state}, at, known).recall == 0.5 != first.recall


def test_the_prediction_is_for_the_due_date_or_now_once_it_passed():
    assert compute_recall_moment(T0 + timedelta(days=9), T0) == T0 + timedelta(days=9)
    assert compute_recall_moment(T0 - timedelta(days=1), T0) == T0
    assert compute_recall_moment(None, T0) == T0


def test_without_the_means_per_concept_the_figures_are_the_same():
    states = {1: reviewed(3, 3), 2: reviewed(1)}
    items = {1: ("stride", "view"), 2: ("view",), 3: ("stride",)}
    at = T0 + timedelta(days=20)
    full = compute_readiness(items, states, at)
    lean = compute_readiness(items, states, at, per_concept=False)
    assert (lean.recall, lean.studied, lean.items) == (full.recall, full.studied, full.items)
    assert lean.by_concept == {} and set(full.by_concept) == {"stride", "view"}
