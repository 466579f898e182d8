"""srs.compute_memory against fsrs itself: stage, stability, difficulty and recall chance of
generated histories, with days counted as review counts them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fsrs import Card, Scheduler, State
from srs_histories import generated_histories

from quizapp import srs

STAGES = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}


def test_a_never_rated_item_has_no_memory():
    now = datetime(2026, 3, 1, 9, tzinfo=UTC)
    assert srs.compute_memory(srs.new_state(now), now + timedelta(days=3)) is None


@pytest.mark.parametrize("seed", range(4))
def test_the_memory_is_fsrs_own_reading_of_the_state(seed):
    """Without a zone, days are fsrs's whole 24-hour periods: every figure is fsrs's."""
    fsrs_scheduler = Scheduler(enable_fuzzing=False)
    checked = 0
    for state, now, _retention, _cap in generated_histories(seed, 150):
        memory = srs.compute_memory(state, now)
        card = Card.from_dict(state)
        if card.last_review is None:
            assert memory is None
            continue
        checked += 1
        assert memory.stage == STAGES[card.state]
        assert (memory.stability, memory.difficulty) == (card.stability, card.difficulty)
        assert memory.elapsed_days == (now - card.last_review).days
        assert memory.retrievability == pytest.approx(
            fsrs_scheduler.get_card_retrievability(card, now), abs=1e-12)
        assert 0 < memory.retrievability <= 1
    assert checked > 100


@pytest.mark.parametrize("zone", [0, -300, 330])
def test_with_a_zone_the_days_are_study_days_as_the_next_rating_sees_them(zone):
    """The recall chance is the one fsrs computes from the study days since the last review,
    the count review gives fsrs: at 03:00 the day has not turned, at 05:00 it has."""
    fsrs_scheduler = Scheduler(enable_fuzzing=False)
    start = datetime(2026, 3, 2, 4, tzinfo=UTC) - timedelta(minutes=zone)  # 04:00 local
    state = srs.new_state(start)
    for rating, gap in ((3, timedelta(hours=6)), (3, timedelta(minutes=10)),
                        (3, timedelta(days=2))):
        start += gap
        state = srs.review(state, rating, start, zone=zone).state
    card = Card.from_dict(state)
    assert card.state == State.Review
    last = card.last_review  # 10:10 local on some day
    for later, study_days in ((timedelta(hours=16, minutes=50), 0),  # 03:00 the next morning
                              (timedelta(hours=18, minutes=50), 1),  # 05:00 the next morning
                              (timedelta(days=3, hours=17), 3)):     # 03:10 four mornings on
        now = last + later
        memory = srs.compute_memory(state, now, zone)
        assert memory.elapsed_days == study_days == srs.count_study_days_between(last, now, zone)
        counted = Card.from_dict(state)
        counted.last_review = now - timedelta(days=study_days)
        assert memory.retrievability == pytest.approx(
            fsrs_scheduler.get_card_retrievability(counted, now), abs=1e-12)


def test_the_chance_falls_to_ninety_percent_after_the_stability():
    """Stability's meaning, as the card page explains it: 90% once that many days have passed.
    fsrs counts whole days, so the chance is at least 90% on the stability's last whole day and
    below it on the next."""
    now = datetime(2026, 3, 1, 9, tzinfo=UTC)
    state = srs.review(srs.review(srs.new_state(now), 4, now).state, 4,
                       now + timedelta(days=8)).state
    card = Card.from_dict(state)
    days = int(card.stability)
    assert days >= 2
    on_time = srs.compute_memory(state, card.last_review + timedelta(days=days, hours=1))
    late = srs.compute_memory(state, card.last_review + timedelta(days=days + 1, hours=1))
    assert on_time.elapsed_days == days
    assert late.retrievability < 0.9 <= on_time.retrievability + 1e-12
    assert srs.compute_memory(state, card.last_review).retrievability == 1
