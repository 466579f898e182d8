"""Suspending an item (Anki's "Suspend"): out of the user's reviews, its schedule kept as is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from quizapp.services.errors import NotFound
from quizapp.services.items import StudyItem
from quizapp.services.store.rating_writes import serialize_writes
from quizapp.services.store.study_items import (
    ITEM,
    ITEM_COLUMNS,
    ITEM_JOIN,
    OFFERED,
    STATE,
    SUSPENSION,
    compute_study_item,
    load_item_and_state,
    select_suspended,
)
from quizapp.services.users import StudyUser

NO_SUCH_ITEM = ("There is no question or puzzle with that id to suspend or resume: it may have "
                "left the bank. Nothing was changed.")
IS_SUSPENDED = select(select_suspended(bindparam("user_id"), bindparam("item_id")))
INSERT_SUSPENSION = insert(SUSPENSION)
DELETE_SUSPENSION = delete(SUSPENSION).where(SUSPENSION.c.user_id == bindparam("user_id"),
                                             SUSPENSION.c.item_id == bindparam("item_id"))


@dataclass(frozen=True)
class Change:
    """The item suspended or resumed, and whether that changed anything (False: it already was
    suspended, or was not suspended, so the request was a repeat)."""

    item: StudyItem
    changed: bool


@dataclass(frozen=True)
class SuspendedItem:
    """A row of the suspended-items page: the item, when it was suspended and, if it was ever
    rated, when its schedule has it due (resuming it puts it back there)."""

    item: StudyItem
    suspended_at: datetime
    due: datetime | None


def load_offered_item(session: Session, user: StudyUser, item_id: int) -> StudyItem:
    """An item the study pages offer; NotFound (in words) for an unknown id, a retired item or
    a puzzle skill this code cannot generate."""
    try:
        item, _ = load_item_and_state(session, user.id, item_id)
    except NotFound:
        raise NotFound(NO_SUCH_ITEM) from None
    return item


def is_suspended(session: Session, user_id: int, item_id: int) -> bool:
    return bool(session.connection().execute(
        IS_SUSPENDED, {"user_id": user_id, "item_id": item_id}).scalar())


def suspend_item(session: Session, user: StudyUser, item_id: int, now: datetime) -> Change:
    """Take the item out of the user's reviews; its state and reviews are left as they are.
    Suspending it again changes nothing (Change.changed False)."""
    item = load_offered_item(session, user, item_id)
    with serialize_writes(session):
        if is_suspended(session, user.id, item.id):
            session.rollback()
            return Change(item, False)
        try:
            session.connection().execute(INSERT_SUSPENSION, {
                "user_id": user.id, "item_id": item.id, "suspended_at": now})
            session.commit()
        except IntegrityError:
            session.rollback()
            if is_suspended(session, user.id, item.id):  # suspended at once from another tab
                return Change(item, False)
            # No such user or item any more: the account was deleted, or the item, meanwhile.
            raise NotFound(NO_SUCH_ITEM) from None
    return Change(item, True)


def resume_item(session: Session, user: StudyUser, item_id: int) -> Change:
    """Put a suspended item back where its schedule has it (an overdue one is simply due).
    Resuming an item that is not suspended changes nothing (Change.changed False)."""
    item = load_offered_item(session, user, item_id)
    with serialize_writes(session):
        removed = session.connection().execute(
            DELETE_SUSPENSION, {"user_id": user.id, "item_id": item.id}).rowcount
        session.commit()
    return Change(item, removed == 1)


def list_suspended(session: Session, user: StudyUser) -> list[SuspendedItem]:
    """The user's suspended items still on offer, the latest suspended first."""
    rows = session.connection().execute(
        select(*ITEM_COLUMNS, SUSPENSION.c.suspended_at, STATE.c.due.label("state_due"))
        .select_from(SUSPENSION.join(ITEM_JOIN, ITEM.c.id == SUSPENSION.c.item_id)
                     .outerjoin(STATE, (STATE.c.item_id == ITEM.c.id)
                                & (STATE.c.user_id == user.id)))
        .where(SUSPENSION.c.user_id == user.id, OFFERED)
        .order_by(SUSPENSION.c.suspended_at.desc(), ITEM.c.id))
    return [SuspendedItem(compute_study_item(row), row.suspended_at, row.state_due)
            for row in rows]
