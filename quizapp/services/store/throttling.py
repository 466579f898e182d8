"""Throttling shared by logins and registrations: recent attempts counted from the database,
each one reserved (recorded and committed) before the work it guards."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from quizapp.services.errors import LoginThrottled

# Attempts older than this are pruned; it must exceed any configured window.
ATTEMPT_RETENTION = timedelta(days=1)


def compute_retry_after(oldest: datetime, window: timedelta, now: datetime) -> timedelta:
    """How long until the ``oldest`` attempt counted leaves the ``window`` (never longer than
    the window: an attempt recorded by a request running alongside can be later than ``now``,
    which read "16 minutes" for a 15-minute window)."""
    return min(max(oldest + window - now, timedelta(seconds=1)), window)


def describe_wait(delta: timedelta) -> str:
    minutes = math.ceil(delta.total_seconds() / 60)
    return "a minute" if minutes <= 1 else f"{minutes} minutes"


def recent_times(session: Session, model, conditions: tuple, since: datetime, limit: int,
                 own_attempt: int | None = None) -> Sequence[datetime]:
    """Times of the newest ``model`` rows (an attempt table) matching ``conditions`` after
    ``since``, at most ``limit``; the row ``own_attempt`` is left out."""
    query = select(model.attempted_at).where(*conditions, model.attempted_at > since)
    if own_attempt is not None:
        query = query.where(model.id != own_attempt)
    return session.scalars(query.order_by(model.attempted_at.desc()).limit(limit)).all()


def reserve_attempt(session: Session, attempt, validate: Callable[[int | None], None]) -> int:
    """Record ``attempt`` and commit it, then ``validate`` again leaving it out; returns its id.

    ``validate(own_attempt)`` raises LoginThrottled over the limit. It runs once before
    anything is written (a refusal then writes nothing) and once after the commit: attempts
    commit one after another, so the k-th sees at least k - 1 others in flight and at most
    ``limit`` get through however many requests run at once. A refused attempt is deleted,
    so requests sent during a lockout do not extend it. Old attempts are pruned here.
    """
    model = type(attempt)
    validate(None)
    session.execute(delete(model).where(model.attempted_at < attempt.attempted_at
                                        - ATTEMPT_RETENTION))
    session.add(attempt)
    session.commit()
    try:
        validate(attempt.id)
    except LoginThrottled:
        session.execute(delete(model).where(model.id == attempt.id))
        session.commit()
        raise
    return attempt.id
