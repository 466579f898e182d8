"""Stored scheduling states survive JSON exactly, so restoring one undoes a review exactly."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from quizapp.srs import new_state, preview_intervals, review

NOW = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


def through_json(value):
    """What the database gives back after storing ``value`` as JSON text."""
    return json.loads(json.dumps(value))


def history(ratings, gaps):
    """States before each review and the review results, reviewing ``gap`` after each due."""
    state, at, out = new_state(NOW), NOW, []
    for rating, gap in zip(ratings, gaps, strict=True):
        at = at + gap
        result = review(state, rating, at)
        out.append((state, at, result))
        state, at = result.state, result.due
    return out


RATINGS = [3, 2, 3, 4, 1, 3, 3, 2, 4, 1, 1, 3]
GAPS = [timedelta(0), timedelta(minutes=3), timedelta(hours=20), timedelta(days=1),
        timedelta(days=9), timedelta(0), timedelta(hours=5), timedelta(days=2),
        timedelta(seconds=1), timedelta(days=60), timedelta(minutes=2), timedelta(0)]


def test_every_state_and_log_round_trips_through_json():
    for before, _, result in history(RATINGS, GAPS):
        assert through_json(before) == before
        assert through_json(result.state) == result.state
        assert through_json(result.log) == result.log
        # The stored text itself is stable: serialising the restored value gives the same text.
        assert json.dumps(through_json(result.state)) == json.dumps(result.state)


def test_reviewing_a_restored_state_gives_identical_results():
    for before, at, result in history(RATINGS, GAPS):
        restored = through_json(before)
        assert review(restored, result.log["rating"], at) == result
        assert preview_intervals(restored, at) == preview_intervals(before, at)


def test_undo_then_rate_differently_matches_rating_so_in_the_first_place():
    # The service stores the state before each review; undo puts it back and the user re-rates.
    for before, at, result in history(RATINGS, GAPS):
        stored_before = json.dumps(before)
        for other in (1, 2, 3, 4):
            redone = review(json.loads(stored_before), other, at)
            assert redone == review(before, other, at)
            assert (redone == result) == (other == result.log["rating"])


def test_restoring_an_older_state_and_replaying_reproduces_the_whole_tail():
    steps = history(RATINGS, GAPS)
    for start in range(len(steps)):
        state = through_json(steps[start][0])
        for _, at, result in steps[start:]:
            replayed = review(state, result.log["rating"], at)
            assert replayed == result
            state = through_json(replayed.state)
