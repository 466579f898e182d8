"""A rating racing a Settings save that lowers the maximum interval and brings the dues
forward: whichever commits first, no item is left due later than the stored cap after its last
review (both databases). The rating scheduled with the cap its request had read, so a rating
committed after the save stored a due past the new cap; and a save made while a rating was
being written did not see that rating's row."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event, select
from webtest_support import post_settings, rate_current, register

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState, User
from quizapp.services.reviews import record_review

CAP = 3
# How long a save started in the middle of a rating is given before the rating goes on: it
# either finishes, or waits for the rating's transaction (a lock) until that commits.
BLOCKED_AFTER_SECONDS = 3


def prepare(app, client, clock, kind: str) -> tuple[int, int, int]:
    """Two cards rated Easy (8 days out), nine days ago. The user's id, the item the racing
    rating rates (the first of those for a "later" rating, a card never rated for a "first")
    and the version it is at."""
    register(client, "sam")
    for _ in range(2):
        assert rate_current(client, 4).status_code == 303
    clock.advance(days=9)  # both due, and past a cap of 3 days
    with app.app_context():
        user_id = db.session.scalar(select(User.id))
        rated = db.session.scalars(select(ReviewState).order_by(ReviewState.id)).all()
        if kind == "later":
            return user_id, rated[0].item_id, rated[0].version
        fresh = db.session.scalar(select(Item.id).where(
            Item.id.not_in([row.item_id for row in rated]), Item.kind == "card")
            .order_by(Item.id).limit(1))
        return user_id, fresh, 0


def assert_within_the_stored_cap(app, clock, item_id: int) -> None:
    with app.app_context():
        user = db.session.scalar(select(User))
        assert user.maximum_interval_days == CAP
        zone = srs.compute_user_zone(user)
        rows = db.session.scalars(select(ReviewState)).all()
        assert len(rows) >= 2
        for row in rows:
            latest = srs.compute_day_start_after(row.last_reviewed_at, CAP, zone)
            assert row.due <= latest, (row.item_id, row.due, latest)
            assert srs.state_due(row.state) == row.due
        rated = db.session.scalar(select(ReviewState).where(ReviewState.item_id == item_id))
        assert rated.last_reviewed_at == clock()
        assert rated.due == srs.compute_day_start_after(clock(), CAP, zone)


def assert_logged_as_stored(app, item_id: int) -> None:
    """A rating after the save: the log has the schedule the rating stored."""
    with app.app_context():
        rated = db.session.scalar(select(ReviewState).where(ReviewState.item_id == item_id))
        logged = db.session.scalar(select(Review).where(Review.item_id == item_id)
                                   .order_by(Review.id.desc()))
        assert (logged.due_after, logged.state_after) == (rated.due, rated.state)


@pytest.mark.parametrize("kind", ["first", "later"])
def test_a_rating_scheduled_before_a_bring_forward_save_keeps_the_saved_cap(app, client, bank,
                                                                           clock, kind):
    """The save commits between the rating's read of the settings and its write."""
    user_id, item_id, version = prepare(app, client, clock, kind)
    saves = []

    def save() -> None:  # another thread: a request of its own, with its own session
        saves.append(post_settings(client, maximum_interval_days=str(CAP),
                                   bring_forward="y").status_code)

    with app.app_context():
        user = db.session.get(User, user_id)  # as the rating's request read it: no cap
        saver = threading.Thread(target=save)
        saver.start()
        saver.join(timeout=60)
        assert saves == [303]
        rated = record_review(db.session, user, item_id, 4, clock(), seen_version=version)
        db.session.remove()
    assert rated.due == srs.compute_day_start_after(clock(), CAP, srs.compute_zone("UTC"))
    assert_within_the_stored_cap(app, clock, item_id)
    assert_logged_as_stored(app, item_id)


@pytest.mark.parametrize("racing_before", [1, 2, 3, 4, "commit"])
@pytest.mark.parametrize("kind", ["first", "later"])
def test_a_bring_forward_save_during_a_rating_leaves_nothing_past_the_cap(app, client, bank,
                                                                        clock, kind,
                                                                        racing_before):
    """The save starts just before the rating's n-th statement (or its commit) and is given
    time to finish before the rating goes on: it does, or it waits for the rating's lock."""
    user_id, item_id, version = prepare(app, client, clock, kind)
    page = client.get("/settings").text
    main, seen, saves, saved_first = threading.get_ident(), [0], [], []

    def save() -> None:
        saves.append(post_settings(client, page, maximum_interval_days=str(CAP),
                                   bring_forward="y").status_code)

    saver = threading.Thread(target=save)

    def race(*_args) -> None:
        if threading.get_ident() != main or saver.ident is not None:
            return
        saver.start()
        saver.join(timeout=BLOCKED_AFTER_SECONDS)
        saved_first.append(not saver.is_alive())

    def count(*args) -> None:
        if threading.get_ident() != main:
            return
        seen[0] += 1
        if seen[0] == racing_before:
            race(*args)

    with app.app_context():
        user, engine = db.session.get(User, user_id), db.engine
        event.listen(engine, "before_cursor_execute", count)
        event.listen(engine, "commit", race)
        try:
            rated = record_review(db.session, user, item_id, 4, clock(), seen_version=version)
        finally:
            event.remove(engine, "before_cursor_execute", count)
            event.remove(engine, "commit", race)
            db.session.remove()
    saver.join(timeout=60)
    assert saver.ident is not None and not saver.is_alive(), "the save did not run"
    assert saves == [303]
    capped = srs.compute_day_start_after(clock(), CAP, srs.compute_zone("UTC"))
    if saved_first == [True]:  # the rating was scheduled with the saved cap
        assert rated.due == capped
        assert_logged_as_stored(app, item_id)
    # Otherwise the save waited for the rating's commit, then brought its due forward.
    assert_within_the_stored_cap(app, clock, item_id)
