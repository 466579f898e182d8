"""review_state's stability and last_reviewed_at agree with its FSRS state after every write."""

from __future__ import annotations

import re
from datetime import datetime
from types import SimpleNamespace

from sqlalchemy import select
from webtest_support import (
    csrf_token,
    post_settings,
    rate_current,
    reach_first_skill,
    register,
    study_token,
)

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import Review, ReviewState, User
from quizapp.services.reviews import record_review
from quizapp.web.rendering.filters import format_answer

ITEM_KEY_RE = re.compile(r'data-item-kind="\w+" data-item-key="([^"]+)"')
REVIEW_ID_RE = re.compile(r'id="review_id" name="review_id" type="hidden" value="(\d+)"')


def assert_columns_follow_the_states(app) -> int:
    """Every state row's stability and last review columns are its JSON's; returns the rows."""
    with app.app_context():
        rows = db.session.scalars(select(ReviewState)).all()
        for row in rows:
            last = row.state.get("last_review")
            assert row.stability == row.state.get("stability"), (row.item_id, row.state)
            assert row.last_reviewed_at == (None if last is None
                                            else datetime.fromisoformat(last)), row.item_id
        return len(rows)


def undo_latest(client) -> None:
    page = client.get("/study").text
    match = REVIEW_ID_RE.search(page)
    assert match, "no rating to undo"
    undone = client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                              "review_id": match.group(1)})
    assert undone.status_code == 303


def test_every_write_of_a_state_writes_its_stability_and_last_review(app, client, skill_bank,
                                                                    seeds, clock):
    """A card's first rating and a later one, a puzzle's, an undo of each kind, a Settings save
    that brings dues forward and a rating rescheduled for settings saved while it was made:
    the dashboard reads the two columns in place of the JSON (team_dashboard's curves)."""
    register(client, "sam")
    # First ratings of cards (an insert), Easy, so they are days out, up to the first puzzle.
    page = reach_first_skill(client)
    assert assert_columns_follow_the_states(app) >= 1
    # A puzzle answered right and rated Good (an insert with the answer and its seed).
    family, level = ITEM_KEY_RE.findall(page)[0].split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    typed = format_answer(puzzle["answer"], puzzle["answer_kind"])
    answered = client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": typed,
        "hints_used": "0"})
    assert answered.status_code == 200
    assert rate_current(client, 3, answered.text, answer=typed, hints_used="0").status_code == 303
    assert_columns_follow_the_states(app)
    # Undo of a first rating deletes the state; the others keep theirs.
    undo_latest(client)
    assert_columns_follow_the_states(app)
    # A month later the cards are due: their second ratings update the rows, one is undone
    # (the state before comes back, with its stability and last review).
    clock.advance(days=30)
    for rating in (1, 3):
        page = client.get("/study").text
        assert rate_current(client, rating, page).status_code == 303
        assert_columns_follow_the_states(app)
    undo_latest(client)
    assert_columns_follow_the_states(app)
    with app.app_context():
        assert db.session.scalar(select(Review.id).where(Review.was_new.is_(False)))
    # A lower cap, with the dues brought forward: each moved state is written again.
    saved = post_settings(client, maximum_interval_days="3", bring_forward="y")
    assert saved.status_code == 303
    assert "now come back by then" in client.get("/settings").text
    assert_columns_follow_the_states(app)
    # A rating made with settings older than those stored: on SQLite the state is scheduled
    # again in the write transaction (rating_writes.RESCHEDULE_STATE).
    clock.advance(days=5)
    with app.app_context():
        user = db.session.scalar(select(User))
        state = db.session.scalar(select(ReviewState).where(ReviewState.due <= clock())
                                  .order_by(ReviewState.id).limit(1))
        assert state is not None
        stale = SimpleNamespace(**{name: getattr(user, name) for name in (
            "id", "username", "desired_retention", "new_per_day", "reviews_per_day",
            "new_from_level", "time_zone", "keyboard_shortcuts", "theme", "undo_count",
            "last_undo_item_id")}, maximum_interval_days=36500)
        record_review(db.session, stale, state.item_id, 4, clock(), seen_version=state.version)
    assert assert_columns_follow_the_states(app) >= 2
