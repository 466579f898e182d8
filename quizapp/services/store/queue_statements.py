"""The study queue's SQL statements: counts, the first due and new item, the next due time."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BindParameter, and_, bindparam, exists, func, literal, select

from quizapp.models import Item, QueuedItem, Review, ReviewState
from quizapp.services.store.study_items import (
    ITEM,
    ITEM_COLUMNS,
    ITEM_JOIN,
    OFFERED,
    STATE,
    STATE_COLUMNS,
    SUSPENSION,
    select_suspended,
)

# The queue's statements are built once with bind parameters: every study page runs them, and
# building SQLAlchemy statements costs more than executing these small indexed queries.
# Counting and filtering use the item table itself: the Item entity would bring its card and
# skill joins (with_polymorphic) into queries that read no card or skill column.
_USER: BindParameter[int] = bindparam("user_id")
_NOW: BindParameter[datetime] = bindparam("now")
_UNTIL: BindParameter[datetime] = bindparam("until")
_DAY_START: BindParameter[datetime] = bindparam("day_start")
_ITEM, _REVIEW = Item.__table__, Review.__table__
_SEEN = exists().where(ReviewState.user_id == _USER, ReviewState.item_id == _ITEM.c.id)
# Suspended items are left out of every statement below: a probe of their (user_id, item_id) key.
_NOT_SUSPENDED = ~select_suspended(_USER)
# New items only of the levels the user takes new items from (their setting and those above).
# bank_import.renumber_new_order numbers items level by level, so those levels are the positions
# from the first of their items on: a bound on the (retired, new_order, id) index's walk rather
# than a filter on level, which made PostgreSQL sort the candidates.
_LEVELS_ITEM = _ITEM.alias("levels_item")
_NEW_FROM_ORDER = (select(func.min(_LEVELS_ITEM.c.new_order))
                   .where(_LEVELS_ITEM.c.retired.is_(False),
                          _LEVELS_ITEM.c.level.in_(bindparam("new_levels", expanding=True)))
                   .scalar_subquery())
_NEW_LEVEL = _ITEM.c.new_order >= _NEW_FROM_ORDER
# Items the user asked to study next ("Add to my reviews" on a practice set): while new to
# them, they come before every other new item, in the order asked, whatever their level.
_QUEUED = QueuedItem.__table__
_QUEUED_NEW = (_QUEUED.c.user_id == _USER, OFFERED, ~_SEEN, _NOT_SUSPENDED)


def _count_reviews_today(flag=None):
    """Today's ratings with ``flag`` set: was_new (the new-item limit) or was_review (the review
    limit; learning steps count toward neither, as in Anki); every rating without a flag."""
    query = (select(func.count()).select_from(Review)
             .where(Review.user_id == _USER, Review.reviewed_at >= _DAY_START))
    return (query if flag is None else query.where(flag.is_(True))).scalar_subquery()


def _count_learning_later():
    """Items in learning steps that come back later today (minutes away, before the next study
    day): Anki counts them in its learning figure before they fall due."""
    return (select(func.count()).select_from(ReviewState)
            .join(_ITEM, ReviewState.item_id == _ITEM.c.id)
            .where(ReviewState.user_id == _USER, ReviewState.learning.is_(True),
                   ReviewState.due > _NOW, ReviewState.due < bindparam("next_day"),
                   OFFERED, _NOT_SUSPENDED)
            .scalar_subquery())


def _count_due(*, learning_only: bool):
    query = (select(func.count()).select_from(ReviewState)
             .join(_ITEM, ReviewState.item_id == _ITEM.c.id)
             .where(ReviewState.user_id == _USER, ReviewState.due <= _NOW,
                    OFFERED, _NOT_SUSPENDED))
    if learning_only:
        query = query.where(ReviewState.learning.is_(True))
    return query.scalar_subquery()


# The user's latest review, read once: its id from the (user_id, id) index, then that row and
# its item's title by primary key (aliases, so the counts' own subqueries stay uncorrelated).
# Undo takes it back; the study page confirms it. COUNTS stays one row for a user with no
# review yet: a constant row, left-joined to it.
_LATEST_REVIEW_ID = (select(_REVIEW.c.id).where(_REVIEW.c.user_id == _USER)
                     .order_by(_REVIEW.c.id.desc()).limit(1).scalar_subquery())
_LATEST, _LATEST_ITEM = _REVIEW.alias("latest_review"), _ITEM.alias("latest_item")
# The item's state now is the one that rating made (it is the user's latest): whether it left
# the item in learning steps, or in Review with a day-long interval; and its due, which Settings'
# bring-forward may have moved since (the review keeps the due the rating gave).
_LATEST_STATE, _LATEST_OUT = STATE.alias("latest_state"), SUSPENSION.alias("latest_suspension")
_LATEST_FROM = (select(literal(1).label("one")).subquery("one_row")
                .outerjoin(_LATEST, _LATEST.c.id == _LATEST_REVIEW_ID)
                .outerjoin(_LATEST_ITEM, _LATEST_ITEM.c.id == _LATEST.c.item_id)
                .outerjoin(_LATEST_STATE, and_(_LATEST_STATE.c.user_id == _USER,
                                               _LATEST_STATE.c.item_id == _LATEST.c.item_id))
                .outerjoin(_LATEST_OUT, and_(_LATEST_OUT.c.user_id == _USER,
                                             _LATEST_OUT.c.item_id == _LATEST.c.item_id)))


def _count_queued_below(new_level):
    """The queued new items the level bound leaves out (they are offered all the same); 0
    without a bound, where every queued item is counted among the new ones already."""
    if new_level is None:
        return literal(0)
    return (select(func.count()).select_from(_QUEUED.join(_ITEM, _ITEM.c.id == _QUEUED.c.item_id))
            .where(*_QUEUED_NEW, ~new_level).scalar_subquery())


def _build_counts(new_level):
    """The study counts with ``new_level`` bounding the new items (None: every level, counted
    from the (retired, kind, key) index alone, without reading an item row)."""
    bound = () if new_level is None else (new_level,)
    return select(
        _count_reviews_today(Review.was_new).label("new_done"),
        _count_reviews_today(Review.was_review).label("reviews_done"),
        _count_reviews_today().label("rated"),
        _count_due(learning_only=False).label("due"),
        _count_due(learning_only=True).label("due_learning"),
        _count_learning_later().label("learning_later"),
        # New = active items minus the active items this user has a state for: two index counts,
        # instead of probing the user's states once per item in the bank; and minus the unrated
        # ones the user suspended (read from their suspensions); of the levels new items come
        # from for this user, when those are not every level (plus the items the user queued
        # from below those levels).
        ((select(func.count()).select_from(_ITEM).where(OFFERED, *bound).scalar_subquery()
         - select(func.count()).select_from(ReviewState)
         .join(_ITEM, ReviewState.item_id == _ITEM.c.id)
         .where(ReviewState.user_id == _USER, OFFERED, *bound).scalar_subquery()
         - select(func.count())
         .select_from(SUSPENSION.join(_ITEM, SUSPENSION.c.item_id == _ITEM.c.id))
         .where(SUSPENSION.c.user_id == _USER, OFFERED, *bound, ~_SEEN).scalar_subquery())
         + _count_queued_below(new_level)).label("new"),
        _LATEST.c.id.label("last_review_id"), _LATEST.c.item_id.label("last_review_item_id"),
        _LATEST.c.rating.label("last_review_rating"),
        _LATEST.c.reviewed_at.label("last_review_at"),
        func.coalesce(_LATEST_STATE.c.due, _LATEST.c.due_after).label("last_review_due"),
        _LATEST_ITEM.c.title.label("last_review_title"),
        _LATEST_ITEM.c.retired.label("last_review_retired"),
        _LATEST_STATE.c.learning.label("last_review_learning"),
        _LATEST_OUT.c.item_id.label("last_review_suspended"),
    ).select_from(_LATEST_FROM)


# Every level (the default) needs no bound: every active item's position is past the first.
COUNTS = _build_counts(None)
COUNTS_FROM_LEVEL = _build_counts(_NEW_LEVEL)
# The first due state and its item, in one indexed lookup on (user_id, due, id).
FIRST_DUE = (select(*ITEM_COLUMNS, *STATE_COLUMNS)
             .select_from(ITEM_JOIN.join(STATE, STATE.c.item_id == ITEM.c.id))
             .where(STATE.c.user_id == _USER, STATE.c.due <= _UNTIL, OFFERED, _NOT_SUSPENDED)
             .order_by(STATE.c.due, STATE.c.id).limit(1))
# The same, among items in learning steps: what is shown once the review limit is used up.
FIRST_DUE_LEARNING = FIRST_DUE.where(STATE.c.learning.is_(True))
# The first new item is found on the item table alone, then read with its card or skill row:
# sorting the card-joined rows would read every unseen card's text to keep one.
_FIRST_QUEUED_ID = (select(_ITEM.c.id)
                    .select_from(_QUEUED.join(_ITEM, _ITEM.c.id == _QUEUED.c.item_id))
                    .where(*_QUEUED_NEW)
                    .order_by(_QUEUED.c.queued_at, _QUEUED.c.position).limit(1)
                    .correlate(None).scalar_subquery())
_FIRST_NEW_ID = func.coalesce(
    _FIRST_QUEUED_ID,
    select(_ITEM.c.id).where(OFFERED, _NEW_LEVEL, ~_SEEN, _NOT_SUSPENDED)
    .order_by(_ITEM.c.new_order, _ITEM.c.id).limit(1).correlate(None).scalar_subquery())
FIRST_NEW = select(*ITEM_COLUMNS).select_from(ITEM_JOIN).where(ITEM.c.id == _FIRST_NEW_ID)
NEXT_DUE = (select(func.min(ReviewState.due)).join(_ITEM, ReviewState.item_id == _ITEM.c.id)
            .where(ReviewState.user_id == _USER, OFFERED, _NOT_SUSPENDED))
NEXT_DUE_LEARNING = NEXT_DUE.where(ReviewState.learning.is_(True))
