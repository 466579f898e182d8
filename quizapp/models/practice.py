"""Free practice: puzzles answered outside the schedule, kept for the accuracy figures."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from quizapp.content.limits import TAG_MAX
from quizapp.extensions import db


class PracticeAttempt(db.Model):
    """One answer to a practice puzzle (family, level and seed name it): judged on the server,
    never rated, so no review state or queue moves. The first answer to a dealt puzzle is the
    one kept (the unique key): sending the same page again records nothing more."""

    __tablename__ = "practice_attempt"
    __table_args__ = (
        UniqueConstraint("user_id", "family", "level", "seed"),
        # A user's answers in a time window (Progress: puzzle accuracy) from the index alone.
        Index("ix_practice_attempt_user_id_answered_at", "user_id", "answered_at", "family",
              "correct"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(TAG_MAX))
    level: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    answer: Mapped[str] = mapped_column(Text)
    correct: Mapped[bool]
    hints_used: Mapped[int] = mapped_column(default=0)
    duration_ms: Mapped[int | None]
    answered_at: Mapped[datetime]
