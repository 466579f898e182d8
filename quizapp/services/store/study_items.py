"""Read models of the study pages: an item and a user's state for it, read with Core statements.

Every study request reads one item and perhaps its state. ORM entities cost more to build than
these small indexed queries cost to run (the polymorphic Item alone configures a loader for
its subclass on every query), so the hot path reads plain rows into frozen dataclasses. Pages
that edit items or states keep using the ORM models.
"""

from __future__ import annotations

import re

from sqlalchemy import ColumnElement, Row, and_, bindparam, literal_column, or_, select
from sqlalchemy.orm import Session

from quizapp.content.limits import KEY_MAX
from quizapp.models import Card, Item, ItemSuspension, ReviewState, Skill
from quizapp.services.errors import NotFound
from quizapp.services.items import SKILL_KEYS, ItemState, StudyItem, is_offered

ITEM, CARD, SKILL, STATE = (Item.__table__, Card.__table__, Skill.__table__,
                            ReviewState.__table__)
SUSPENSION = ItemSuspension.__table__
_SKILL_KEY = re.compile(r"[a-z0-9_]+/[a-z]+")


def compute_sql_literal(key: str) -> ColumnElement[str]:
    """A skill key written into the SQL as a string literal: the list is fixed for the process,
    so the statements keep one text (no expanding parameter), and a key (from code, never from
    a request) is checked to be quote-free first."""
    if not _SKILL_KEY.fullmatch(key):
        raise ValueError(f"unexpected characters in the skill key {key!r}")
    return literal_column(f"'{key}'")


# Items the study pages offer: in the bank (not retired), and a skill only if it is one of these.
OFFERED = and_(ITEM.c.retired.is_(False),
               or_(ITEM.c.kind != "skill",
                   ITEM.c.key.in_([compute_sql_literal(key) for key in sorted(SKILL_KEYS)])))


def select_suspended(user_id, item_id=ITEM.c.id):
    """EXISTS: ``user_id`` (a value or a bind parameter) suspended the item ``item_id`` (the
    item table's id by default, correlated). One lookup on the suspension's primary key, which
    answers it alone (it selects a key column, not SELECT *, which read the row as well)."""
    return (select(SUSPENSION.c.item_id)
            .where(SUSPENSION.c.user_id == user_id, SUSPENSION.c.item_id == item_id).exists())


# The item with its card or skill columns (outer joins on primary keys: one row, no sort).
ITEM_COLUMNS = (ITEM.c.id, ITEM.c.kind, ITEM.c.key, ITEM.c.title, ITEM.c.level, ITEM.c.retired,
                CARD.c.importance, CARD.c.question, CARD.c.content_hash, SKILL.c.family)
ITEM_JOIN = (ITEM.outerjoin(CARD, CARD.c.item_id == ITEM.c.id)
             .outerjoin(SKILL, SKILL.c.item_id == ITEM.c.id))
STATE_COLUMNS = (STATE.c.id.label("state_id"), STATE.c.version.label("state_version"),
                 STATE.c.state.label("state_state"), STATE.c.due.label("state_due"),
                 STATE.c.last_reviewed_at.label("state_last_reviewed_at"),
                 STATE.c.learning.label("state_learning"))
# One item and this user's state for it (no row: new to the user), in one round trip: what the
# answer page shows and what a rating reads before it writes.
LOAD_ITEM_AND_STATE = (
    select(*ITEM_COLUMNS, *STATE_COLUMNS)
    .select_from(ITEM_JOIN.outerjoin(STATE, and_(STATE.c.item_id == ITEM.c.id,
                                                 STATE.c.user_id == bindparam("user_id"))))
    .where(ITEM.c.id == bindparam("item_id")))


# A card by its key (the question page's id), or a skill by its ("family/level"), and this
# user's state for it: "Study it now".
LOAD_BY_KEY_AND_STATE = {kind: (
    select(*ITEM_COLUMNS, *STATE_COLUMNS)
    .select_from(ITEM_JOIN.outerjoin(STATE, and_(STATE.c.item_id == ITEM.c.id,
                                                 STATE.c.user_id == bindparam("user_id"))))
    .where(ITEM.c.kind == kind, ITEM.c.key == bindparam("key"))) for kind in ("card", "skill")}
NO_SUCH_CARD = ("There is no question with that id to study. The question list has every "
                "question in the bank.")
RETIRED_CARD = ("That question was retired from the bank, so it is no longer studied. Its "
                "page and your reviews of it are kept.")
NO_SUCH_SKILL = ("There is no puzzle skill with that name to study. The puzzle list has every "
                 "skill there is.")
SKILL_NOT_STUDIED = ("That puzzle skill is no longer in the bank, so it is not studied any more. "
                     "Your reviews of it are kept in your history.")


def compute_study_item(row: Row) -> StudyItem:
    """The StudyItem held in the ITEM_COLUMNS part of ``row``."""
    return StudyItem(row.id, row.kind, row.key, row.title, row.level, bool(row.retired),
                     row.importance, row.question, row.content_hash, row.family)


def compute_item_state(row: Row) -> ItemState | None:
    """The ItemState held in the STATE_COLUMNS part of ``row`` (None: no state row)."""
    if row.state_id is None:
        return None
    return ItemState(row.state_id, row.state_version, row.state_state, row.state_due,
                     row.state_last_reviewed_at, row.state_learning)


def load_item_and_state(session: Session, user_id: int,
                        item_id: int) -> tuple[StudyItem, ItemState | None]:
    """An item the study pages offer (OFFERED) and the user's state for it; NotFound if it is
    missing, retired or a skill this code cannot generate."""
    # Core statements run on the session's connection: same transaction, no ORM layer.
    row = session.connection().execute(
        LOAD_ITEM_AND_STATE, {"user_id": user_id, "item_id": item_id}).first()
    if row is None or not is_offered(item := compute_study_item(row)):
        raise NotFound("That item is not in the study queue any more.")
    return item, compute_item_state(row)


def load_card_and_state(session: Session, user_id: int,
                        key: str) -> tuple[StudyItem, ItemState | None]:
    """The card with the id ``key`` and the user's state for it, to study it out of turn;
    NotFound if there is no such card or it was retired."""
    return _load_by_key_and_state(session, user_id, "card", key, NO_SUCH_CARD, RETIRED_CARD)


def load_skill_by_key_and_state(session: Session, user_id: int,
                                key: str) -> tuple[StudyItem, ItemState | None]:
    """The skill ``key`` and the user's state for it, to study it out of turn; NotFound if
    there is none or the queue does not offer it (retired, or no puzzle the code can deal)."""
    return _load_by_key_and_state(session, user_id, "skill", key, NO_SUCH_SKILL,
                                  SKILL_NOT_STUDIED)


def _load_by_key_and_state(session: Session, user_id: int, kind: str, key: str, missing: str,
                           gone: str) -> tuple[StudyItem, ItemState | None]:
    row = None
    if 0 < len(key) <= KEY_MAX:  # longer is no key the bank can hold: no query
        row = session.connection().execute(
            LOAD_BY_KEY_AND_STATE[kind], {"user_id": user_id, "key": key}).first()
    if row is None:
        raise NotFound(missing)
    item = compute_study_item(row)
    if not is_offered(item):
        raise NotFound(gone)
    return item, compute_item_state(row)
