"""Per-user scheduling state and the review log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from quizapp.extensions import db
from quizapp.models.bank import Item


class ReviewState(db.Model):
    """Where one user stands with one item: the FSRS state and when it is next due.

    ``version`` grows with every review, so a rating made against a stale page is refused
    instead of being applied twice.
    """

    __tablename__ = "review_state"
    __table_args__ = (
        UniqueConstraint("user_id", "item_id"),
        Index("ix_review_state_user_id_due_id", "user_id", "due", "id"),
        # A user's due learning steps, shown once the review limit holds the reviews back.
        Index("ix_review_state_user_id_learning_due_id", "user_id", "learning", "due", "id"),
        # Members' forgetting curves (a lead's dashboard) read from the index alone.
        Index("ix_review_state_user_id_item_id_curve", "user_id", "item_id", "last_reviewed_at",
              "stability"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"))
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    due: Mapped[datetime]
    version: Mapped[int] = mapped_column(default=1)
    reps: Mapped[int] = mapped_column(default=0)
    # In learning or relearning steps (srs.is_learning): such an item is shown when due even
    # over the daily review limit, as Anki shows its intraday learning cards.
    learning: Mapped[bool] = mapped_column(default=False, server_default=false())
    last_reviewed_at: Mapped[datetime | None]
    # The state's own "stability" (srs.state_stability), kept beside it by every write of the
    # state so that a forgetting curve is read without extracting it from the JSON.
    stability: Mapped[float | None]

    item: Mapped[Item] = relationship()


class Review(db.Model):
    """One rating in the log, with what undo needs to restore the state before it."""

    __tablename__ = "review"
    __table_args__ = (
        CheckConstraint("rating >= 1 AND rating <= 4", name="rating_range"),
        # A user's ratings in a time window (today's counts, Stats) read from the index alone.
        Index("ix_review_user_id_reviewed_at_figures", "user_id", "reviewed_at", "was_review",
              "rating", "duration_ms"),
        # The newest reviews of a user (undo, history) in index order, without a sort.
        Index("ix_review_user_id_id", "user_id", "id"),
        # One item's reviews of a user, newest first (the card page's record), without reading
        # the user's other reviews.
        Index("ix_review_user_id_item_id_id", "user_id", "item_id", "id"),
        # A member's answers on a track's items since it was assigned, counted from the index
        # alone (the lead's dashboard).
        Index("ix_review_user_id_item_id_outcome", "user_id", "item_id", "reviewed_at", "rating",
              "correct"),
        # Ids are never reused (PostgreSQL's sequences never are): an Undo button names a
        # review by id, and must not take back a later rating that got a deleted one's id.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"))
    reviewed_at: Mapped[datetime]
    rating: Mapped[int]
    duration_ms: Mapped[int | None]
    answer: Mapped[str | None] = mapped_column(Text)
    correct: Mapped[bool | None]
    puzzle_seed: Mapped[int | None] = mapped_column(BigInteger)
    was_new: Mapped[bool]
    # The item was in Review before this rating: it counts toward the daily review limit
    # (first ratings count toward the new-item limit, learning steps toward neither).
    was_review: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The state before the review (None when the item was new: undo makes it new again).
    state_before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    due_before: Mapped[datetime | None]
    last_reviewed_before: Mapped[datetime | None]
    state_after: Mapped[dict[str, Any]] = mapped_column(JSON)
    due_after: Mapped[datetime]
    version_after: Mapped[int]
    fsrs_log: Mapped[dict[str, Any]] = mapped_column(JSON)

    item: Mapped[Item] = relationship()


class ItemSuspension(db.Model):
    """An item one user took out of their reviews (Anki's "Suspend"). Its state and its reviews
    stay as they are; deleting this row (resuming) puts it back where its schedule says."""

    __tablename__ = "item_suspension"

    # The primary key is the queue's NOT EXISTS lookup: (user_id, item_id), both bound.
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"),
                                         primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"),
                                         primary_key=True)
    suspended_at: Mapped[datetime]
