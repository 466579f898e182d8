"""Rating an item and undoing a rating: FSRS state changes plus the review log, atomically."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from quizapp import srs
from quizapp.models import Item, Review, ReviewState, User
from quizapp.puzzles.parsing import MAX_RESPONSE_CHARS
from quizapp.services.errors import Conflict, NotFound
from quizapp.services.paging import check_page_number, count_pages
from quizapp.services.settings import compute_user_zone
from quizapp.services.study_items import ItemState, StudyItem, load_item_and_state

_SQLITE_WRITE_LOCK = threading.Lock()
ANSWER_MAX = MAX_RESPONSE_CHARS  # the longest answer the puzzle checker reads
DURATION_MAX_MS = 60 * 60 * 1000
# A second click sends the same rating, but another tab may have rated the item otherwise:
# say which rating stands and how to change it, not only that this one was dropped.
# It is also what a page from before an undo of a later rating gets (the undo moves the version
# on), so it claims no more than that the item changed since (notes/s11/review.md #5).
STALE_MESSAGE = (
    "Not saved: this item was rated or undone since this page was shown (a second click, or "
    "another tab), and what was saved then stands. Undo takes back your latest rating if you "
    "want to change it."
)
OUTDATED_PUZZLE = ("That puzzle's page is out of date: it was rated or undone since, so here is "
                   "what comes next.")
HISTORY_PER_PAGE = 50


@dataclass(frozen=True)
class Rated:
    """What the person is told after a rating: the review and when the item comes back."""

    review_id: int
    title: str  # the item's title
    due: datetime


# Every rating runs these statements, so they are built once with bind parameters (building a
# SQLAlchemy statement costs more than running these small indexed queries). The writes go to
# the tables themselves: the ORM's per-statement bookkeeping buys nothing for two fixed rows.
_STATE_TABLE, _REVIEW_TABLE = ReviewState.__table__, Review.__table__
LOAD_STATE = select(ReviewState).where(ReviewState.user_id == bindparam("user_id"),
                                       ReviewState.item_id == bindparam("item_id"))
INSERT_STATE = insert(_STATE_TABLE)
INSERT_REVIEW = insert(_REVIEW_TABLE)
# Conditional on the version the page showed: a second click finds the version moved on.
UPDATE_STATE = (update(_STATE_TABLE)
                .where(_STATE_TABLE.c.id == bindparam("row_id"),
                       _STATE_TABLE.c.version == bindparam("seen_version"))
                .values(state=bindparam("new_state"), due=bindparam("new_due"),
                        learning=bindparam("learning"), version=bindparam("version_after"),
                        reps=_STATE_TABLE.c.reps + 1, last_reviewed_at=bindparam("now")))


LOAD_UNDOS = (select(User.undo_count, User.last_undo_item_id)
              .where(User.id == bindparam("user_id")))


def predates_undo(page_undos: int, item_id: int, undos: int,
                  last_undo_item_id: int | None) -> bool:
    """Whether a puzzle page shown after ``page_undos`` undos is out of date by an undo since
    (the user has made ``undos``, the latest of ``last_undo_item_id``). Undoing an item's first
    rating deletes its state, so its versions start again and a page of any version may look
    current (notes/s11/retest.md #1); an undo of another item changes nothing on the page. After
    two or more undos, or one from before the item was stored (None), it is not known which
    items they took back, so such a page is refused, as before the item was stored."""
    if undos == page_undos:
        return False
    return undos != page_undos + 1 or last_undo_item_id in (None, item_id)


def compute_interval_labels(state: ItemState | ReviewState | None, user: User,
                            now: datetime) -> dict[int, str]:
    """The label on each rating button: when the item would be due again if rated so now."""
    current = state.state if state is not None else srs.new_state(now)
    intervals = srs.preview_intervals(current, now, desired_retention=user.desired_retention,
                                      maximum_interval_days=user.maximum_interval_days,
                                      zone=compute_user_zone(user))
    return {rating: srs.format_interval(delta) for rating, delta in intervals.items()}


def load_state(session: Session, user: User, item_id: int) -> ReviewState | None:
    return session.scalar(LOAD_STATE, {"user_id": user.id, "item_id": item_id})


def record_review(
    session: Session, user: User, item_id: int, rating: int, now: datetime, *,
    seen_version: int, duration_ms: int | None = None, answer: str | None = None,
    correct: bool | None = None, puzzle_seed: int | None = None,
) -> Rated:
    """Apply a rating made on a page that showed the item at ``seen_version`` (0 = new).

    The state row is changed only if it is still at ``seen_version`` (a conditional UPDATE, or
    the unique (user, item) key for a first review), so a double submit is refused, never
    applied twice, on SQLite and PostgreSQL alike.
    """
    item, state = load_item_and_state(session, user.id, item_id)
    return apply_rating(session, user, item, state, rating, now, seen_version=seen_version,
                        duration_ms=duration_ms, answer=answer, correct=correct,
                        puzzle_seed=puzzle_seed)


def apply_rating(
    session: Session, user: User, item: StudyItem, state: ItemState | None, rating: int,
    now: datetime, *, seen_version: int, duration_ms: int | None = None,
    answer: str | None = None, correct: bool | None = None, puzzle_seed: int | None = None,
    seen_undos: int | None = None,
) -> Rated:
    """record_review once the item and the user's state for it are read (load_item_and_state):
    schedule with FSRS, then the write transaction. ``seen_undos``: the user's undos when a
    puzzle's page was shown, checked in that transaction (predates_undo)."""
    srs.validate_rating(rating)
    if duration_ms is not None:
        duration_ms = max(0, min(int(duration_ms), DURATION_MAX_MS))
    if answer is not None:
        answer = answer[:ANSWER_MAX]
    is_new = state is None
    if (0 if is_new else state.version) != seen_version:
        raise Conflict(STALE_MESSAGE)
    before = srs.new_state(now) if is_new else state.state
    result = srs.review(before, rating, now, desired_retention=user.desired_retention,
                        maximum_interval_days=user.maximum_interval_days,
                        duration_ms=duration_ms, zone=compute_user_zone(user))
    review_row = {
        "user_id": user.id, "item_id": item.id, "reviewed_at": now, "rating": rating,
        "duration_ms": duration_ms, "answer": answer, "correct": correct,
        "puzzle_seed": puzzle_seed, "was_new": is_new,
        "was_review": not is_new and not state.learning,
        "state_before": None if is_new else state.state,
        "due_before": None if is_new else state.due,
        "last_reviewed_before": None if is_new else state.last_reviewed_at,
        "state_after": result.state, "due_after": result.due, "version_after": seen_version + 1,
        "fsrs_log": result.log,
    }
    # Everything is computed; the write transaction is two statements and a commit, so the
    # database's write lock is held as briefly as possible.
    with serialize_writes(session):
        review_id = apply_review(session, None if is_new else state.id, result, review_row,
                                 seen_undos)
    return Rated(review_id, item.title, result.due)


def apply_review(session: Session, state_id: int | None, result: srs.ReviewResult,
                 review_row: dict, seen_undos: int | None = None) -> int:
    """The write transaction of record_review: the state change and the log entry, committed.

    ``state_id`` None inserts the user's first state for the item; otherwise the row moves from
    the version before ``review_row["version_after"]`` to it, or Conflict if it has moved on.
    """
    version_after, now = review_row["version_after"], review_row["reviewed_at"]
    if state_id is None:
        try:
            session.connection().execute(INSERT_STATE, {
                "user_id": review_row["user_id"], "item_id": review_row["item_id"],
                "state": result.state, "due": result.due, "learning": srs.is_learning(result.state),
                "version": version_after, "reps": 1, "last_reviewed_at": now})
        except IntegrityError:
            session.rollback()
            raise Conflict(STALE_MESSAGE) from None
        # Read after the insert, in its transaction: an undo of this item's first rating that
        # committed after the page's own check is seen here (notes/s11/review.md #3).
        if seen_undos is not None and predates_undo(
                seen_undos, review_row["item_id"],
                *session.connection().execute(LOAD_UNDOS, {"user_id": review_row["user_id"]}).one()):
            session.rollback()
            raise Conflict(f"Not saved. {OUTDATED_PUZZLE}")
    else:
        changed = session.connection().execute(UPDATE_STATE, {
            "row_id": state_id, "seen_version": version_after - 1, "new_state": result.state,
            "new_due": result.due, "learning": srs.is_learning(result.state),
            "version_after": version_after, "now": now}).rowcount
        if changed != 1:
            session.rollback()
            raise Conflict(STALE_MESSAGE)
    review_id = session.connection().execute(INSERT_REVIEW, review_row).inserted_primary_key[0]
    session.commit()
    return review_id


@contextmanager
def serialize_writes(session: Session) -> Iterator[None]:
    """SQLite has one writer at a time and makes waiters sleep and retry (1, 2, 5, 10 ms...);
    threads of one process queue on a lock instead, which wakes the next one at once."""
    if session.get_bind().dialect.name != "sqlite":
        yield
        return
    with _SQLITE_WRITE_LOCK:
        yield


def load_own_review(session: Session, user: User, review_id: int) -> Review:
    """The user's review, or NotFound: another user's review id looks exactly like a missing one."""
    review = session.get(Review, review_id)
    if review is None or review.user_id != user.id:
        raise NotFound("That rating is not in your history: it was undone already (or it was "
                       "never yours). Nothing was undone.")
    return review


def undo_review(session: Session, user: User, review_id: int, now: datetime) -> Item:
    """Put the item back exactly as it was before the review and delete the review.

    Only the most recent review of the current study day can be undone (``now`` decides the
    day): a closed day's ratings stay as they are. Undos unwind in order, and every restored
    state is the one the following review started from.
    """
    review = load_own_review(session, user, review_id)
    # The state is read before the newest-review check, and the write is conditional on the
    # version read: a rating of this item committed before the check is seen by it, one
    # committed after it has moved the version on. Read the other way round, a rating racing
    # the undo stayed in the log while the undo put its state back (notes/s9/pg.md). Two undos
    # at once cannot both apply for the same reason.
    state_row = load_state(session, user, review.item_id)
    newest = session.scalar(select(func.max(Review.id)).where(Review.user_id == user.id))
    if review.id != newest:
        raise Conflict("Only your most recent rating can be undone.")
    if review.reviewed_at < srs.day_start(now, compute_user_zone(user)):
        raise Conflict("That rating was made on an earlier study day; only today's latest "
                       "rating can be undone. Nothing was undone.")
    item = review.item
    if state_row is None:
        raise Conflict("That rating was already undone; nothing was undone.")
    row_filter = (ReviewState.id == state_row.id, ReviewState.version == state_row.version)
    if review.was_new:
        # The item was new: removing its state makes it new again, as it was.
        changed = session.execute(delete(ReviewState).where(*row_filter)
                                  .execution_options(synchronize_session=False)).rowcount
    else:
        # The version keeps growing, so a page shown before the undo cannot rate again.
        changed = session.execute(
            update(ReviewState).where(*row_filter)
            .values(state=review.state_before, due=review.due_before,
                    learning=srs.is_learning(review.state_before),
                    last_reviewed_at=review.last_reviewed_before, reps=ReviewState.reps - 1,
                    version=state_row.version + 1)
            .execution_options(synchronize_session=False)).rowcount
    removed = session.execute(delete(Review).where(Review.id == review.id)
                              .execution_options(synchronize_session=False)).rowcount
    if changed != 1 or removed != 1:
        session.rollback()
        raise Conflict("That rating was already undone or changed; nothing was undone.")
    # A new puzzle for the item, not the one just answered (web.runtime.derive_puzzle_seed).
    session.execute(update(User).where(User.id == user.id)
                    .values(undo_count=User.undo_count + 1, last_undo_item_id=review.item_id)
                    .execution_options(synchronize_session=False))
    session.commit()
    return item


@dataclass(frozen=True)
class HistoryPage:
    """One page of a user's review history, newest first; ``first`` and ``last`` number its
    rows within the whole history (0 and 0 when there is none)."""

    reviews: list[Review]
    total: int
    page: int
    pages: int

    @property
    def first(self) -> int:
        return (self.page - 1) * HISTORY_PER_PAGE + 1 if self.reviews else 0

    @property
    def last(self) -> int:
        return (self.page - 1) * HISTORY_PER_PAGE + len(self.reviews)


def list_history(session: Session, user: User, page: int = 1) -> HistoryPage:
    """The user's reviews on ``page`` (1 = the newest), or ServiceError for a page number out of
    range. A page past the end shows the last page, as the question browser does."""
    check_page_number(page)
    mine = Review.user_id == user.id
    total = session.scalar(select(func.count()).select_from(Review).where(mine)) or 0
    pages = count_pages(total, HISTORY_PER_PAGE)
    page = min(page, pages)
    # The page's ids come from the (user_id, id) index alone; an OFFSET over whole rows read
    # every skipped review (three JSON states each): 21 ms for the last of 4,000 pages.
    ids = (select(Review.id).where(mine).order_by(Review.id.desc())
           .offset((page - 1) * HISTORY_PER_PAGE).limit(HISTORY_PER_PAGE))
    rows = list(session.scalars(
        select(Review).where(Review.id.in_(ids)).order_by(Review.id.desc())
        .options(selectinload(Review.item))))  # one query for the page's items, not one per row
    return HistoryPage(rows, total, page, pages)
