"""Add to my reviews: a set's cards and puzzle skills brought forward among the user's new items."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, tuple_
from sqlalchemy.orm import Session

from quizapp.models import Item, ItemSuspension, QueuedItem, ReviewState
from quizapp.practice_sets import CARD, parse_puzzle_key
from quizapp.services.items import is_offered
from quizapp.services.practice_sets import SavedSet
from quizapp.services.users import StudyUser


@dataclass(frozen=True)
class AddedToReviews:
    """What "Add to my reviews" did: items now first among the user's new ones, items kept
    as they were (already studied, already added), and those it could not add."""

    added: int
    studied: int  # already have a schedule, which they keep
    already: int  # added before and still new
    suspended: int  # added, but suspended by the user: they come once resumed
    missing: int  # retired or no longer in the bank


def compute_item_keys(saved: SavedSet) -> list[tuple[str, str]]:
    """(kind, key) of the set's study items in its order: a card, or a puzzle's skill
    (family/level), each once."""
    return compute_ref_keys([(ref.kind, ref.key) for ref in saved.refs])


def compute_ref_keys(refs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """compute_item_keys of a set's frozen (kind, key) items."""
    keys: list[tuple[str, str]] = []
    for kind, ref_key in refs:
        if kind == CARD:
            key = ("card", ref_key)
        else:
            puzzle = parse_puzzle_key(ref_key)
            key = ("skill", f"{puzzle.family}/{puzzle.level}")
        if key not in keys:
            keys.append(key)
    return keys


def add_set_to_reviews(session: Session, user: StudyUser, saved: SavedSet,
                       now: datetime) -> AddedToReviews:
    """Queue the set's cards and skills the user has not studied yet as their next new
    items, in the set's order; those already studied keep their schedule."""
    return add_items_to_reviews(session, user, compute_item_keys(saved), now)


def add_items_to_reviews(session: Session, user: StudyUser, keys: Sequence[tuple[str, str]],
                         now: datetime) -> AddedToReviews:
    """Queue the (kind, key) items the user has not studied yet as their next new items, in
    the order given (a set's, a track step's); those already studied keep their schedule."""
    keys = list(keys)
    rows = session.scalars(select(Item).where(tuple_(Item.kind, Item.key).in_(keys))).all()
    by_key = {(row.kind, row.key): row for row in rows}
    ids = [row.id for row in rows]
    studied = set(session.scalars(select(ReviewState.item_id).where(
        ReviewState.user_id == user.id, ReviewState.item_id.in_(ids))))
    queued = set(session.scalars(select(QueuedItem.item_id).where(
        QueuedItem.user_id == user.id, QueuedItem.item_id.in_(ids))))
    suspended = set(session.scalars(select(ItemSuspension.item_id).where(
        ItemSuspension.user_id == user.id, ItemSuspension.item_id.in_(ids))))
    added = already = studied_count = suspended_count = missing = 0
    for position, key in enumerate(keys):
        row = by_key.get(key)
        if row is None or not is_offered(row):
            missing += 1
            continue
        if row.id in studied:
            studied_count += 1
            continue
        if row.id in queued:
            already += 1
            continue
        session.add(QueuedItem(user_id=user.id, item_id=row.id, queued_at=now,
                               position=position))
        added += 1
        suspended_count += row.id in suspended
    session.commit()
    return AddedToReviews(added, studied_count, already, suspended_count, missing)
