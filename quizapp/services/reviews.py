"""Rating an item and undoing a rating: FSRS state changes plus the review log, atomically."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    CursorResult,
    Result,
    bindparam,
    delete,
    func,
    literal_column,
    select,
    union_all,
    update,
)
from sqlalchemy.orm import Session, selectinload

from quizapp import puzzles, srs
from quizapp.models import Item, PracticeAttempt, Review, ReviewState, User
from quizapp.puzzles import MAX_RESPONSE_CHARS
from quizapp.services.errors import Conflict, NotFound
from quizapp.services.items import ItemState, StudyItem
from quizapp.services.paging import check_page_number, count_pages
from quizapp.services.rating_limits import RatingLimits, validate_rating_rate
from quizapp.services.store.rating_writes import (
    STALE_MESSAGE,
    Scheduling,
    apply_review,
    lock_user_row,
    serialize_writes,
)
from quizapp.services.store.study_items import load_item_and_state
from quizapp.services.users import StudyUser

ANSWER_MAX = MAX_RESPONSE_CHARS  # the longest answer the puzzle checker reads
DURATION_MAX_MS = 60 * 60 * 1000
HISTORY_PER_PAGE = 50


@dataclass(frozen=True)
class Rated:
    """What the person is told after a rating: the review and when the item comes back."""

    review_id: int
    title: str  # the item's title
    due: datetime


# Read on every rating page, so built once with bind parameters.
LOAD_STATE = select(ReviewState).where(ReviewState.user_id == bindparam("user_id"),
                                       ReviewState.item_id == bindparam("item_id"))


def compute_interval_labels(state: ItemState | ReviewState | None, user: StudyUser,
                            now: datetime) -> dict[int, str]:
    """The label on each rating button: when the item would be due again if rated so now."""
    current = state.state if state is not None else srs.new_state(now)
    intervals = srs.preview_intervals(current, now, desired_retention=user.desired_retention,
                                      maximum_interval_days=user.maximum_interval_days,
                                      zone=srs.compute_user_zone(user))
    return {rating: srs.format_interval(delta) for rating, delta in intervals.items()}


def _count_rows(result: Result[Any]) -> int:
    """The rows a DML statement matched: Session.execute is typed to return a Result, and for
    an UPDATE or DELETE it is a CursorResult, which has the rowcount."""
    return cast(CursorResult[Any], result).rowcount


def load_state(session: Session, user: StudyUser, item_id: int) -> ReviewState | None:
    return session.scalar(LOAD_STATE, {"user_id": user.id, "item_id": item_id})


def record_review(
    session: Session, user: StudyUser, item_id: int, rating: int, now: datetime, *,
    seen_version: int, duration_ms: int | None = None, answer: str | None = None,
    correct: bool | None = None, puzzle_seed: int | None = None,
    rate_limits: RatingLimits | None = None,
) -> Rated:
    """Apply a rating made on a page that showed the item at ``seen_version`` (0 = new).

    The state row is changed only if it is still at ``seen_version`` (a conditional UPDATE, or
    the unique (user, item) key for a first review), so a double submit is refused, never
    applied twice, on SQLite and PostgreSQL alike.
    """
    item, state = load_item_and_state(session, user.id, item_id)
    return apply_rating(session, user, item, state, rating, now, seen_version=seen_version,
                        duration_ms=duration_ms, answer=answer, correct=correct,
                        puzzle_seed=puzzle_seed, rate_limits=rate_limits)


def apply_rating(
    session: Session, user: StudyUser, item: StudyItem, state: ItemState | None, rating: int,
    now: datetime, *, seen_version: int, duration_ms: int | None = None,
    answer: str | None = None, correct: bool | None = None, puzzle_seed: int | None = None,
    seen_undos: int | None = None, rate_limits: RatingLimits | None = None,
) -> Rated:
    """record_review once the item and the user's state for it are read (load_item_and_state):
    schedule with FSRS, then the write transaction. ``seen_undos``: the user's undos when a
    puzzle's page was shown, checked in that transaction (srs.predates_undo). ``rate_limits``:
    the account's rate of ratings (rating_limits; RatingThrottled past it)."""
    srs.validate_rating(rating)
    if rate_limits is not None:
        validate_rating_rate(session, user.id, now, rate_limits)
    if duration_ms is not None:
        duration_ms = max(0, min(int(duration_ms), DURATION_MAX_MS))
    if answer is not None:
        answer = answer[:ANSWER_MAX]
    is_new = state is None
    if (0 if state is None else state.version) != seen_version:
        raise Conflict(STALE_MESSAGE)
    before = srs.new_state(now) if state is None else state.state

    @cache
    def schedule(settings: Scheduling) -> srs.ReviewResult:
        return srs.review(before, rating, now, desired_retention=settings.desired_retention,
                          maximum_interval_days=settings.maximum_interval_days,
                          duration_ms=duration_ms, zone=srs.compute_named_zone(settings.time_zone))

    # Computed before the write transaction, and again in it only if a Settings save changed
    # these since the request read them (rating_writes.LOAD_SCHEDULING).
    read = Scheduling(user.desired_retention, user.maximum_interval_days, user.time_zone)
    schedule(read)
    review_row = {
        "user_id": user.id, "item_id": item.id, "reviewed_at": now, "rating": rating,
        "duration_ms": duration_ms, "answer": answer, "correct": correct,
        "puzzle_seed": puzzle_seed, "was_new": is_new,
        "was_review": state is not None and not state.learning,
        "state_before": None if state is None else state.state,
        "due_before": None if state is None else state.due,
        "last_reviewed_before": None if state is None else state.last_reviewed_at,
        "version_after": seen_version + 1,
    }
    # Everything is computed; the write transaction is a read of the settings, two writes and
    # a commit, so the database's write lock is held as briefly as possible.
    with serialize_writes(session):
        review_id, result = apply_review(session, None if state is None else state.id, schedule, read,
                                         review_row, seen_undos)
    return Rated(review_id, item.title, result.due)


def load_own_review(session: Session, user: StudyUser, review_id: int) -> Review:
    """The user's review, or NotFound: another user's review id looks exactly like a missing one."""
    review = session.get(Review, review_id)
    if review is None or review.user_id != user.id:
        raise NotFound("That rating is not in your history: it was undone already (or it was "
                       "never yours). Nothing was undone.")
    return review


def undo_review(session: Session, user: StudyUser, review_id: int, now: datetime) -> Item:
    """Put the item back exactly as it was before the review and delete the review.

    Only the most recent review of the current study day can be undone (``now`` decides the
    day): a closed day's ratings stay as they are. Undos unwind in order, and every restored
    state is the one the following review started from.
    """
    review = load_own_review(session, user, review_id)
    # The state is read before the newest-review check, and the write is conditional on the
    # version read: a rating of this item committed before the check is seen by it, one
    # committed after it has moved the version on. Read the other way round, a rating racing
    # the undo stayed in the log while the undo put its state back. Two undos
    # at once cannot both apply for the same reason.
    state_row = load_state(session, user, review.item_id)
    newest = session.scalar(select(func.max(Review.id)).where(Review.user_id == user.id))
    if review.id != newest:
        raise Conflict("Only your most recent rating can be undone.")
    if review.reviewed_at < srs.day_start(now, srs.compute_user_zone(user)):
        raise Conflict("That rating was made on an earlier study day; only today's latest "
                       "rating can be undone. Nothing was undone.")
    item = review.item
    if state_row is None:
        raise Conflict("That rating was already undone; nothing was undone.")
    lock_user_row(session, user.id)  # before the state, as a rating (rating_writes)
    row_filter = (ReviewState.id == state_row.id, ReviewState.version == state_row.version)
    if review.was_new:
        # The item was new: removing its state makes it new again, as it was.
        changed = _count_rows(session.execute(delete(ReviewState).where(*row_filter)
                                              .execution_options(synchronize_session=False)))
    else:
        # The version keeps growing, so a page shown before the undo cannot rate again.
        # A review of an item that had a state keeps that state (record_review).
        assert review.state_before is not None
        changed = _count_rows(session.execute(
            update(ReviewState).where(*row_filter)
            .values(state=review.state_before,
                    stability=srs.state_stability(review.state_before), due=review.due_before,
                    learning=srs.is_learning(review.state_before),
                    last_reviewed_at=review.last_reviewed_before, reps=ReviewState.reps - 1,
                    version=state_row.version + 1)
            .execution_options(synchronize_session=False)))
    removed = _count_rows(session.execute(delete(Review).where(Review.id == review.id)
                                          .execution_options(synchronize_session=False)))
    if changed != 1 or removed != 1:
        session.rollback()
        raise Conflict("That rating was already undone or changed; nothing was undone.")
    # A new puzzle for the item, not the one just answered (web.http.runtime.derive_puzzle_seed).
    session.execute(update(User).where(User.id == user.id)
                    .values(undo_count=User.undo_count + 1, last_undo_item_id=review.item_id)
                    .execution_options(synchronize_session=False))
    session.commit()
    return item


@dataclass(frozen=True)
class PracticeMiss:
    """A wrong answer given under Practice (outside the schedule: never rated, nothing due
    after it), as "My mistakes" lists it beside the wrong reviews."""

    id: int
    family: str
    level: str
    title: str
    answer: str
    duration_ms: int | None
    answered_at: datetime
    is_practice: bool = True


@dataclass(frozen=True)
class HistoryPage:
    """One page of a user's review history, newest first; ``first`` and ``last`` number its
    rows within the whole history (0 and 0 when there is none). The wrong answers only
    ("My mistakes") hold the wrong practice answers too, as PracticeMiss rows."""

    reviews: list[Review | PracticeMiss]
    total: int
    page: int
    pages: int

    @property
    def first(self) -> int:
        return (self.page - 1) * HISTORY_PER_PAGE + 1 if self.reviews else 0

    @property
    def last(self) -> int:
        return (self.page - 1) * HISTORY_PER_PAGE + len(self.reviews)


def list_history(session: Session, user: StudyUser, page: int = 1, *,
                 wrong_only: bool = False) -> HistoryPage:
    """The user's reviews on ``page`` (1 = the newest), or ServiceError for a page number out of
    range. A page past the end shows the last page, as the question browser does.
    ``wrong_only``: only the puzzle answers judged wrong ("My mistakes"), in reviews and in
    practice: a practice answer counts in puzzle accuracy and "Practise my mistakes" deals
    from its misses, so the list those are read from shows it too."""
    check_page_number(page)
    if wrong_only:
        return list_mistakes(session, user, page)
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
    return HistoryPage(list(rows), total, page, pages)


def list_mistakes(session: Session, user: StudyUser, page: int) -> HistoryPage:
    """The user's wrong puzzle answers, reviews and practice together, newest first."""
    wrong = union_all(
        select(literal_column("0").label("practice"), Review.id.label("id"),
               Review.reviewed_at.label("at"))
        .where(Review.user_id == user.id, Review.correct.is_(False)),
        select(literal_column("1").label("practice"), PracticeAttempt.id.label("id"),
               PracticeAttempt.answered_at.label("at"))
        .where(PracticeAttempt.user_id == user.id, PracticeAttempt.correct.is_(False)),
    ).subquery()
    total = session.scalar(select(func.count()).select_from(wrong)) or 0
    pages = count_pages(total, HISTORY_PER_PAGE)
    page = min(page, pages)
    keys = [(bool(row.practice), row.id) for row in session.execute(
        select(wrong.c.practice, wrong.c.id)
        .order_by(wrong.c.at.desc(), wrong.c.practice.desc(), wrong.c.id.desc())
        .offset((page - 1) * HISTORY_PER_PAGE).limit(HISTORY_PER_PAGE))]
    review_ids = [key for practice, key in keys if not practice]
    practice_ids = [key for practice, key in keys if practice]
    reviews = {review.id: review for review in session.scalars(
        select(Review).where(Review.id.in_(review_ids)).options(selectinload(Review.item)))}
    titles = {family["id"]: family["title"] for family in puzzles.families()}
    misses = {attempt.id: PracticeMiss(
        attempt.id, attempt.family, attempt.level, titles.get(attempt.family, attempt.family),
        attempt.answer, attempt.duration_ms, attempt.answered_at)
        for attempt in session.scalars(
            select(PracticeAttempt).where(PracticeAttempt.id.in_(practice_ids)))}
    rows: list[Review | PracticeMiss] = [misses[key] if practice else reviews[key]
                                         for practice, key in keys]
    return HistoryPage(rows, total, page, pages)
