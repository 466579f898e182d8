"""How fast one account has been rating: the time of its Nth newest review, read through the
review (user_id, id) index, so the check costs one short index walk whatever the log's size."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from quizapp.models import Review

NTH_NEWEST = (select(Review.reviewed_at).where(Review.user_id == bindparam("user_id"))
              .order_by(Review.id.desc()).limit(1).offset(bindparam("skip")))


def load_nth_newest_time(session: Session, user_id: int, n: int) -> datetime | None:
    """When the account's ``n``-th newest review was made (None: it has fewer)."""
    return session.scalar(NTH_NEWEST, {"user_id": user_id, "skip": n - 1})
