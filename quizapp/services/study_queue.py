"""What to study next: due reviews first, then new items, within the user's daily limits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.services.items import ItemState, StudyItem
from quizapp.services.settings import compute_new_levels, takes_every_level
from quizapp.services.store.queue_statements import (
    COUNTS,
    COUNTS_FROM_LEVEL,
    FIRST_DUE,
    FIRST_DUE_LEARNING,
    FIRST_NEW,
    NEXT_DUE,
    NEXT_DUE_LEARNING,
)
from quizapp.services.store.study_items import (
    compute_item_state,
    compute_study_item,
    load_card_and_state,
    load_item_and_state,
    load_skill_by_key_and_state,
)
from quizapp.services.suspensions import is_suspended
from quizapp.services.users import StudyUser

# When nothing is due, an item whose learning step ends within this span is shown early
# (Anki's "learn ahead"), so a session does not stall on a one-minute step.
LEARN_AHEAD = timedelta(minutes=20)


@dataclass(frozen=True)
class TodayCounts:
    new_done: int  # first ratings (the new-item limit)
    reviews_done: int  # ratings of items in Review (the review limit)
    rated: int  # every rating today, learning steps included


@dataclass(frozen=True)
class LastReview:
    """The rating undo would take back: its id, the item's title, the rating and when the item
    is due again, as that rating or a bring-forward since set it (the study page confirms a
    rating from this, not from a session flash)."""

    id: int
    item_id: int
    title: str
    rating: int
    reviewed_at: datetime
    due: datetime
    retired: bool  # the item left the bank since: it will not come back
    learning: bool  # the rating left the item in learning steps (due in minutes, not days)
    suspended: bool = False  # the item was suspended since: it comes back only once resumed


@dataclass(frozen=True)
class QueueView:
    """The next item (or None), what is left today, and the rating undo would take back."""

    item: StudyItem | None
    state: ItemState | None  # None when the item is new to this user
    due_left: int
    new_left: int
    learned_ahead: bool
    next_due: datetime | None  # when something is next due, if the queue is empty
    due_held: int  # due now, but over today's review limit
    new_held: int  # never seen, but over today's new-item limit
    next_due_held: bool  # next_due falls before tomorrow, but today's review limit is used up
    next_day: datetime  # when the user's next study day (and its daily limits) begins
    today: TodayCounts
    last_review: LastReview | None
    # The latest rating, when it was made on the previous study day less than UNDO_CLOSED_NOTE
    # ago: a person studying across 04:00 is told why Undo went (Anki's survives the rollover).
    closed_review_at: datetime | None = None
    suspended: bool = False  # the item shown is one the user suspended (chosen out of turn)
    learning_later: int = 0  # in learning steps, due later today (not yet in due_left)


UNDO_CLOSED_NOTE = timedelta(hours=2)


@dataclass(frozen=True)
class QueueCounts:
    today: TodayCounts
    due: int  # due now, before the daily limit
    due_learning: int  # of those, in learning steps (never held by the review limit)
    learning_later: int  # in learning steps, due later today
    new: int  # never seen, before the daily limit
    last_review: LastReview | None  # the latest rating, if it was made today
    day_start: datetime  # when the user's today began
    next_day: datetime  # when the next study day begins (23 to 25 hours on where clocks change)
    closed_review_at: datetime | None = None  # as QueueView's


def count_queue(session: Session, user: StudyUser, now: datetime) -> QueueCounts:
    """Today's done counts, what is waiting and the latest review, in one round trip."""
    start, next_day = srs.compute_study_day(now, srs.compute_user_zone(user))
    # Core statements go to the session's connection (same transaction): the ORM layer of
    # Session.execute has nothing to do for them and costs as much as the query itself.
    statement = COUNTS if takes_every_level(user) else COUNTS_FROM_LEVEL
    row = session.connection().execute(
        statement, {"user_id": user.id, "now": now, "day_start": start, "next_day": next_day,
                    "new_levels": compute_new_levels(user)}).one()
    last = None
    # An earlier day's rating is not offered for Undo: the status bar would report it as just
    # made, and "u" would reach back into days already closed.
    if row.last_review_id is not None and row.last_review_at >= start:
        last = LastReview(row.last_review_id, row.last_review_item_id, row.last_review_title,
                          row.last_review_rating, row.last_review_at, row.last_review_due,
                          row.last_review_retired, bool(row.last_review_learning),
                          row.last_review_suspended is not None)
    closed = None
    if row.last_review_id is not None and start > row.last_review_at > now - UNDO_CLOSED_NOTE:
        closed = row.last_review_at
    return QueueCounts(TodayCounts(row.new_done, row.reviews_done, row.rated), row.due,
                       row.due_learning, row.learning_later, row.new, last, start, next_day,
                       closed)


def select_first_due(session: Session, user: StudyUser, until: datetime, *,
                     learning_only: bool = False) -> list[tuple[StudyItem, ItemState]]:
    statement = FIRST_DUE_LEARNING if learning_only else FIRST_DUE
    rows = session.connection().execute(statement, {"user_id": user.id, "until": until})
    due = []
    for row in rows:
        state = compute_item_state(row)
        assert state is not None  # the statement joins the state table: a due item has one
        due.append((compute_study_item(row), state))
    return due


def select_first_new(session: Session, user: StudyUser) -> list[StudyItem]:
    rows = session.connection().execute(FIRST_NEW, {"user_id": user.id,
                                                     "new_levels": compute_new_levels(user)})
    return [compute_study_item(row) for row in rows]


def compute_next_due(session: Session, user: StudyUser, *,
                     learning_only: bool = False) -> datetime | None:
    statement = NEXT_DUE_LEARNING if learning_only else NEXT_DUE
    return session.connection().execute(statement, {"user_id": user.id}).scalar()


def compute_due_shown(counts: QueueCounts, reviews_left: int) -> tuple[int, int]:
    """(due items today's limits let through, due items held): learning steps always pass,
    reviews up to what the review limit has left."""
    reviews_shown = min(reviews_left, counts.due - counts.due_learning)
    shown = counts.due_learning + reviews_shown
    return shown, counts.due - shown


def compute_left_today(user: StudyUser, today: TodayCounts) -> tuple[int, int]:
    """(reviews, new items) the user's daily limits still allow today."""
    return (srs.compute_remaining(user.reviews_per_day, today.reviews_done),
            srs.compute_remaining(user.new_per_day, today.new_done))


def compute_queue(session: Session, user: StudyUser, now: datetime) -> QueueView:
    """The next item to show: srs.plan_session over due learning steps, due reviews and new
    items, under the user's daily limits."""
    counts = count_queue(session, user, now)
    status = compute_status_view(counts, user)
    today = counts.today
    reviews_left, new_left = compute_left_today(user, today)
    # Only the head of the plan is shown, so each list is fetched with LIMIT 1; due items come
    # before new ones, and once the review limit is used up only learning steps are due.
    due = select_first_due(session, user, now) if reviews_left and counts.due else []
    learning = (select_first_due(session, user, now, learning_only=True)
                if not due and counts.due_learning else [])
    new = (select_first_new(session, user)
           if new_left and counts.new and not due and not learning else [])
    plan: Sequence[tuple[StudyItem, ItemState] | StudyItem] = srs.plan_session(
        due, new, learning=learning, new_done_today=today.new_done,
        reviews_done_today=today.reviews_done, new_limit=user.new_per_day,
        review_limit=user.reviews_per_day)
    learned_ahead = False
    if not plan:
        # Learning steps only (as Anki): reviews are due at a study day's start, and learning
        # them ahead from 03:40 would move the next day's reviews into this one.
        plan = select_first_due(session, user, now + LEARN_AHEAD, learning_only=True)
        learned_ahead = bool(plan)
    head = plan[0] if plan else None
    item: StudyItem | None
    state: ItemState | None
    if isinstance(head, tuple):
        item, state = head
    else:
        item, state = head, None
    next_due, next_due_held = None, False
    if head is None:
        next_due = compute_next_due(session, user, learning_only=not reviews_left)
        if next_due is None and not reviews_left:  # only reviews are left, and they are held
            next_due = compute_next_due(session, user)
            next_due_held = next_due is not None and next_due < status.next_day
    return replace(status, item=item, state=state, learned_ahead=learned_ahead,
                   next_due=next_due, next_due_held=next_due_held)


def compute_status(session: Session, user: StudyUser, now: datetime,
                   item_id: int | None = None) -> QueueView:
    """The status bar's part of the queue (counts, the rating Undo takes back) for pages that
    show their own item (a puzzle's result), and whether the user suspended that item."""
    view = compute_status_view(count_queue(session, user, now), user)
    suspended = item_id is not None and is_suspended(session, user.id, item_id)
    return replace(view, suspended=suspended) if suspended else view


def compute_status_view(counts: QueueCounts, user: StudyUser) -> QueueView:
    """The QueueView of ``counts`` with no item chosen: what today's limits let through and
    hold back, when the next study day starts, the rating Undo takes back."""
    reviews_left, new_left = compute_left_today(user, counts.today)
    due_total, due_held = compute_due_shown(counts, reviews_left)
    new_total = min(new_left, counts.new)
    return QueueView(None, None, due_total, new_total, False, None, due_held,
                     counts.new - new_total, False, counts.next_day, counts.today,
                     counts.last_review, counts.closed_review_at,
                     learning_later=counts.learning_later)


def compute_chosen_card(session: Session, user: StudyUser, now: datetime, key: str, *,
                        kind: str = "card") -> QueueView:
    """The status bar's view with the card (or, with ``kind="skill"``, the puzzle skill) ``key``
    as its item, shown ahead of the queue ("Study it now", even if suspended); NotFound if
    there is no such item or the queue no longer offers it."""
    load = load_skill_by_key_and_state if kind == "skill" else load_card_and_state
    item, state = load(session, user.id, key)
    return replace(compute_status(session, user, now, item.id), item=item, state=state)


def compute_item_view(session: Session, user: StudyUser, now: datetime, item_id: int) -> QueueView:
    """The status bar's view with the item ``item_id`` as its item, whether or not the queue
    would show it now (a puzzle dealt out of turn whose typed answer is shown again with an
    error); NotFound if the queue no longer offers it."""
    item, state = load_item_and_state(session, user.id, item_id)
    return replace(compute_status(session, user, now, item.id), item=item, state=state)
