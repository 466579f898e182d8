"""Concurrent ratings of one item at one version: exactly one is applied (SQLite, real threads)."""

from __future__ import annotations

import threading

from sqlalchemy import func, select
from webtest_support import register

from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState, User
from quizapp.services.errors import Conflict
from quizapp.services.reviews import record_review


def rate_concurrently(app, clock, user_id: int, item_id: int, seen_version: int, copies: int):
    barrier = threading.Barrier(copies)
    outcomes: list[str] = []

    def worker() -> None:
        with app.app_context():
            user = db.session.get(User, user_id)
            barrier.wait()
            try:
                record_review(db.session, user, item_id, 3, clock(), seen_version=seen_version)
                outcomes.append("applied")
            except Conflict:
                outcomes.append("refused")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=worker) for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return sorted(outcomes)


def test_simultaneous_first_ratings_count_once(app, client, bank, clock):
    register(client, "racer")
    with app.app_context():
        user_id = db.session.scalar(select(User.id))
        item_id = db.session.scalar(select(Item.id).where(Item.key == "alpha-stride"))
    outcomes = rate_concurrently(app, clock, user_id, item_id, 0, copies=6)
    assert outcomes == ["applied"] + ["refused"] * 5
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Review)) == 1
        assert db.session.scalar(select(ReviewState.version)) == 1


def test_simultaneous_later_ratings_count_once(app, client, bank, clock):
    register(client, "racer")
    with app.app_context():
        user_id = db.session.scalar(select(User.id))
        item_id = db.session.scalar(select(Item.id).where(Item.key == "alpha-stride"))
    assert rate_concurrently(app, clock, user_id, item_id, 0, copies=1) == ["applied"]
    clock.advance(minutes=15)
    outcomes = rate_concurrently(app, clock, user_id, item_id, 1, copies=6)
    assert outcomes == ["applied"] + ["refused"] * 5
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Review)) == 2
        state = db.session.scalar(select(ReviewState))
        assert state.version == 2 and state.reps == 2
