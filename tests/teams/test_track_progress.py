"""Tracks' pure rules: a set step passes at its mark in integers, a list step needs each item,
due times follow a member's extension, and a member's assignments come overdue first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from quizapp.services import track_progress as tp

NOW = datetime(2025, 3, 10, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.mark.parametrize(("score", "items", "mark", "passing"), [
    (7, 10, 70, True), (6, 10, 70, False), (13, 19, 70, False), (14, 19, 70, True),
    (0, 5, 0, True), (5, 5, 100, True), (4, 5, 100, False), (0, 3, None, True),
])
def test_a_set_score_passes_at_its_mark_without_float_rounding(score, items, mark, passing):
    assert tp.is_passing(score, items, mark) is passing


def test_a_set_step_is_done_once_one_attempt_reaches_the_mark():
    assert not tp.compute_set_done([], 10, 70)
    assert not tp.compute_set_done([5, 6], 10, 70)
    assert tp.compute_set_done([5, 8, 2], 10, 70)
    assert tp.compute_percent(13, 19) == 68  # rounded down: never shown as a pass
    assert tp.compute_percent(0, 0) == 0


def test_a_list_step_needs_each_of_its_items_reviewed():
    assert tp.compute_items_done([1, 2, 3], {1, 3, 9}) == (2, False)
    assert tp.compute_items_done([1, 2, 3], {1, 2, 3}) == (3, True)
    assert tp.compute_items_done([], set()) == (0, True)


def test_an_assignment_starts_for_a_later_joiner_when_they_joined():
    assert tp.compute_start(NOW, NOW + DAY) == NOW + DAY
    assert tp.compute_start(NOW, NOW - DAY) == NOW
    assert tp.compute_start(NOW, None) == NOW


def test_a_steps_due_time_follows_the_assignment_and_an_extension():
    step, track = NOW + DAY, NOW + 5 * DAY
    assert tp.compute_step_due(None, None, None) is None
    assert tp.compute_step_due(None, track, None) == track
    assert tp.compute_step_due(step, None, None) == step
    assert tp.compute_step_due(step, track, None) == step
    # No step is due after the track.
    assert tp.compute_step_due(NOW + 9 * DAY, track, None) == track
    # Three more days for one person move every step by three days.
    assert tp.compute_step_due(step, track, track + 3 * DAY) == step + 3 * DAY
    assert tp.compute_step_due(None, track, track + 3 * DAY) == track + 3 * DAY
    # A person's date without an assignment date is their deadline alone.
    assert tp.compute_step_due(NOW + 9 * DAY, None, track) == track
    assert tp.compute_step_due(step, None, track) == step


def test_a_steps_status():
    assert tp.compute_status(True, NOW - DAY, NOW) == tp.DONE
    assert tp.compute_status(False, NOW - DAY, NOW) == tp.OVERDUE
    assert tp.compute_status(False, NOW, NOW) == tp.DUE  # due at noon: not late at noon
    assert tp.compute_status(False, NOW + DAY, NOW) == tp.DUE
    assert tp.compute_status(False, None, NOW) == tp.OPEN
    assert tp.compute_status(False, NOW + DAY, NOW, available=False) == tp.GONE
    assert tp.compute_status(True, None, NOW, available=False) == tp.DONE


def step(position: int, status: str, due: datetime | None = None) -> tp.StepProgress:
    return tp.StepProgress(position, position, tp.QUESTIONS, f"step {position}",
                           status == tp.DONE, status, due, 3)


def track(assignment_id: int, *steps: tp.StepProgress, started: datetime = NOW
          ) -> tp.TrackProgress:
    return tp.TrackProgress(assignment_id, 1, 1, "team", "track", None, started, steps)


def test_a_tracks_standing_counts_its_steps_and_leaves_a_deleted_set_out():
    mixed = track(1, step(0, tp.DONE), step(1, tp.OVERDUE, NOW - DAY),
                  step(2, tp.DUE, NOW + DAY), step(3, tp.GONE))
    assert (mixed.done_count, mixed.counted, mixed.done) == (1, 3, False)
    assert mixed.status == tp.OVERDUE
    assert mixed.next_due is not None and mixed.next_due.position == 1
    assert [s.position for s in mixed.overdue] == [1]
    finished = track(2, step(0, tp.DONE), step(1, tp.GONE))
    assert finished.done and finished.status == tp.DONE
    assert track(3, step(0, tp.OPEN)).status == tp.OPEN
    assert track(4, step(0, tp.OPEN), step(1, tp.DUE, NOW)).status == tp.DUE


def test_a_members_assignments_come_overdue_first_then_by_due_time_and_done_last():
    done = track(1, step(0, tp.DONE))
    open_ = track(2, step(0, tp.OPEN))
    later = track(3, step(0, tp.DUE, NOW + 3 * DAY))
    sooner = track(4, step(0, tp.DUE, NOW + DAY))
    late = track(5, step(0, tp.OVERDUE, NOW - DAY))
    ordered = tp.order_assignments([done, open_, later, sooner, late])
    assert [t.assignment_id for t in ordered] == [5, 4, 3, 2, 1]
    newer = track(6, step(0, tp.OPEN), started=NOW + DAY)
    assert [t.assignment_id for t in tp.order_assignments([open_, newer])] == [6, 2]


def test_a_typed_due_date_ends_that_day_on_the_leads_clock():
    from zoneinfo import ZoneInfo

    from quizapp.services.errors import ServiceError
    berlin = ZoneInfo("Europe/Berlin")
    assert tp.canonicalize_due("", berlin, NOW) is None
    assert tp.canonicalize_due(" 2025-03-12 ", berlin, NOW) == datetime(
        2025, 3, 12, 22, 59, tzinfo=UTC)
    assert tp.canonicalize_due("2025-03-10", UTC, NOW) == datetime(2025, 3, 10, 23, 59, tzinfo=UTC)
    for text, message in (("2025-03-09", "has passed"), ("12/03/2025", "is not a date"),
                          ("2025-02-30", "is not a date"), ("2030-01-01", "two years")):
        with pytest.raises(ServiceError, match=message):
            tp.canonicalize_due(text, berlin, NOW)
