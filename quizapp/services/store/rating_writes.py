"""A rating's write transaction: the item's new state and its log entry, scheduled with the
settings stored when it commits."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.models import Review, ReviewState, User
from quizapp.services.errors import OUTDATED_PUZZLE, Conflict

_SQLITE_WRITE_LOCK = threading.Lock()
# A second click sends the same rating, but another tab may have rated the item otherwise:
# say which rating stands and how to change it, not only that this one was dropped.
# It is also what a page from before an undo of a later rating gets (the undo moves the version
# on), so it claims no more than that the item changed since.
STALE_MESSAGE = (
    "Not saved: this item was rated or undone since this page was shown (a second click, or "
    "another tab), and what was saved then stands. Undo takes back your latest rating if you "
    "want to change it."
)


class Scheduling(NamedTuple):
    """The settings a rating's next due is computed with."""

    desired_retention: float
    maximum_interval_days: int
    time_zone: str


# Every rating runs these statements, so they are built once with bind parameters (building a
# SQLAlchemy statement costs more than running these small indexed queries). The writes go to
# the tables themselves: the ORM's per-statement bookkeeping buys nothing for two fixed rows.
_STATE_TABLE, _REVIEW_TABLE = ReviewState.__table__, Review.__table__
INSERT_STATE = insert(_STATE_TABLE)
INSERT_REVIEW = insert(_REVIEW_TABLE)
# Conditional on the version the page showed: a second click finds the version moved on.
UPDATE_STATE = (update(_STATE_TABLE)
                .where(_STATE_TABLE.c.id == bindparam("row_id"),
                       _STATE_TABLE.c.version == bindparam("seen_version"))
                .values(state=bindparam("new_state"), stability=bindparam("new_stability"),
                        due=bindparam("new_due"), learning=bindparam("learning"),
                        version=bindparam("version_after"), reps=_STATE_TABLE.c.reps + 1,
                        last_reviewed_at=bindparam("now")))
# The settings, read again in the write transaction: a Settings save may have changed them
# since the request read the user, and one that lowered the maximum interval and brought the
# dues forward must not be followed by a due past it. On PostgreSQL the read comes first and
# shares a lock on the user's row, which that save writes before it moves any due
# (services.settings.update_settings): the save waits for the rating to commit and then moves
# its due as well, or the read waits for the save and sees its settings. An undo takes the
# same row first (LOCK_USER), so neither deadlocks with the other. SQLite has one writer at a
# time: there the settings are read once the state's write holds the lock, and the state is
# scheduled again if they changed.
LOAD_SCHEDULING = (select(User.desired_retention, User.maximum_interval_days, User.time_zone)
                   .where(User.id == bindparam("user_id")))
LOCK_SCHEDULING = LOAD_SCHEDULING.with_for_update(read=True)
LOCK_USER = select(User.id).where(User.id == bindparam("user_id")).with_for_update(key_share=True)
RESCHEDULE_STATE = (update(_STATE_TABLE)
                    .where(_STATE_TABLE.c.user_id == bindparam("owner_id"),
                           _STATE_TABLE.c.item_id == bindparam("rated_item_id"))
                    .values(state=bindparam("new_state"), stability=bindparam("new_stability"),
                            due=bindparam("new_due"), learning=bindparam("learning")))
LOAD_UNDOS = (select(User.undo_count, User.last_undo_item_id)
              .where(User.id == bindparam("user_id")))


def lock_user_row(session: Session, user_id: int) -> None:
    """Before an undo's writes, on PostgreSQL: the user's row, then states, as a rating locks."""
    session.connection().execute(LOCK_USER, {"user_id": user_id})


def apply_review(session: Session, state_id: int | None,
                 schedule: Callable[[Scheduling], srs.ReviewResult], read: Scheduling,
                 review_row: dict, seen_undos: int | None = None) -> tuple[int, srs.ReviewResult]:
    """The write transaction of a rating: the state change and the log entry, committed. The
    schedule stored is ``schedule`` of the settings stored now (``read`` those the request
    read); returns the review's id and that schedule.

    ``state_id`` None inserts the user's first state for the item; otherwise the row moves from
    the version before ``review_row["version_after"]`` to it, or Conflict if it has moved on.
    """
    version_after, now = review_row["version_after"], review_row["reviewed_at"]
    connection, user = session.connection(), {"user_id": review_row["user_id"]}
    locks_rows = connection.dialect.name != "sqlite"
    used = Scheduling(*connection.execute(LOCK_SCHEDULING, user).one()) if locks_rows else read
    result = schedule(used)
    if state_id is None:
        try:
            connection.execute(INSERT_STATE, {
                "user_id": review_row["user_id"], "item_id": review_row["item_id"],
                "state": result.state, "stability": srs.state_stability(result.state),
                "due": result.due, "learning": srs.is_learning(result.state),
                "version": version_after, "reps": 1, "last_reviewed_at": now})
        except IntegrityError:
            session.rollback()
            raise Conflict(STALE_MESSAGE) from None
        # Read after the insert, in its transaction: an undo of this item's first rating that
        # committed after the page's own check is seen here.
        if seen_undos is not None and srs.predates_undo(
                seen_undos, review_row["item_id"], *connection.execute(LOAD_UNDOS, user).one()):
            session.rollback()
            raise Conflict(f"Not saved. {OUTDATED_PUZZLE}")
    else:
        changed = connection.execute(UPDATE_STATE, {
            "row_id": state_id, "seen_version": version_after - 1, "new_state": result.state,
            "new_stability": srs.state_stability(result.state), "new_due": result.due,
            "learning": srs.is_learning(result.state), "version_after": version_after,
            "now": now}).rowcount
        if changed != 1:
            session.rollback()
            raise Conflict(STALE_MESSAGE)
    if not locks_rows and (stored := Scheduling(
            *connection.execute(LOAD_SCHEDULING, user).one())) != used:
        result = schedule(stored)
        connection.execute(RESCHEDULE_STATE, {
            "owner_id": review_row["user_id"], "rated_item_id": review_row["item_id"],
            "new_state": result.state, "new_stability": srs.state_stability(result.state),
            "new_due": result.due, "learning": srs.is_learning(result.state)})
    inserted = connection.execute(INSERT_REVIEW, {
        **review_row, "state_after": result.state, "due_after": result.due,
        "fsrs_log": result.log}).inserted_primary_key
    assert inserted is not None  # set for every single-row INSERT
    review_id = inserted[0]
    session.commit()
    return review_id, result


@contextmanager
def serialize_writes(session: Session) -> Iterator[None]:
    """SQLite has one writer at a time and makes waiters sleep and retry (1, 2, 5, 10 ms...);
    threads of one process queue on a lock instead, which wakes the next one at once."""
    if session.get_bind().dialect.name != "sqlite":
        yield
        return
    with _SQLITE_WRITE_LOCK:
        yield
