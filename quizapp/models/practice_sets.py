"""Saved practice sets, the attempts at them and each attempt's answers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from quizapp.extensions import db

SLUG_MAX = 43  # secrets.token_urlsafe(32) at most; sets get token_urlsafe(16), 128 bits
SET_TITLE_MAX = 200  # quizapp.practice_sets.TITLE_MAX


class PracticeSet(db.Model):
    """A generated set its owner saved: the parameters and seed it was made from, and its item
    keys frozen in order, so a later bank edit never reshuffles it. Anyone holding the
    unguessable ``slug`` may open and take it; only the owner may rename or delete it."""

    __tablename__ = "practice_set"
    __table_args__ = (
        # The owner's sets, newest first (/sets).
        Index("ix_practice_set_owner_id_created_at", "owner_id", "created_at"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(SLUG_MAX), unique=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(SET_TITLE_MAX))
    # The generation parameters as the core reads them back (levels, concepts, families,
    # count, puzzles, time limit), so the set can be described and generated again.
    parameters: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    time_limit_minutes: Mapped[int | None]
    item_keys: Mapped[list[Any]] = mapped_column(JSON)  # [key, ...] in the set's order
    created_at: Mapped[datetime]


class SetAttempt(db.Model):
    """One go at a set by one taker (an account, or a visitor whose session holds its id). A
    timed attempt's deadline is fixed on the server when it starts; answers after it are
    kept out of the score."""

    __tablename__ = "set_attempt"
    __table_args__ = (
        # A taker's attempts, newest first (/sets).
        Index("ix_set_attempt_user_id_started_at", "user_id", "started_at"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    set_id: Mapped[int] = mapped_column(ForeignKey("practice_set.id", ondelete="CASCADE"),
                                        index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    started_at: Mapped[datetime]
    deadline: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    score: Mapped[int | None]  # right answers counted, once finished
    # Set when the attempt was taken as a step of a team's track: the team's lead sees it.
    # Deleting the team or the step keeps the attempt, as the taker's own history.
    team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id", ondelete="SET NULL"),
                                                index=True)
    step_id: Mapped[int | None] = mapped_column(
        ForeignKey("track_step.id", ondelete="SET NULL"), index=True)


class SetAnswer(db.Model):
    """The answer an attempt gave to the set's item at ``position``: the text typed (a puzzle)
    or the self-grade (a card: "knew" or "didnt"), and whether it was right."""

    __tablename__ = "set_answer"

    attempt_id: Mapped[int] = mapped_column(
        ForeignKey("set_attempt.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    answer: Mapped[str] = mapped_column(Text)
    correct: Mapped[bool]
    answered_at: Mapped[datetime]


class QueuedItem(db.Model):
    """An item a user asked to study next ("Add to my reviews" on a set): while it is new to
    them, the study queue brings it in before its turn (and whatever its level), in the order
    asked. An item already studied keeps its schedule; the row then has no effect."""

    __tablename__ = "queued_item"
    __table_args__ = (
        # The user's queued items in the order asked: the queue's first new item.
        Index("ix_queued_item_user_id_queued_at_position", "user_id", "queued_at", "position"),
    )

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"),
                                         primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"),
                                         primary_key=True)
    queued_at: Mapped[datetime]
    position: Mapped[int]  # its place in the set it came from
