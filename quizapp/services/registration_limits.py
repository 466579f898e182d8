"""Registration throttling: accounts tried per address within a window, stored in the DB.

As with logins (login_limits), the attempt is recorded and committed before anything else is
checked, then counted again with every other attempt in flight, so parallel requests cannot
all pass a count none of them has added to yet. Taken names count too: the limit also bounds
how fast one address can probe which usernames exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from quizapp.models import RegistrationAttempt
from quizapp.models.account import ADDRESS_MAX
from quizapp.services.errors import LoginThrottled
from quizapp.services.login_limits import compute_retry_after, describe_wait

ATTEMPT_RETENTION = timedelta(days=1)  # must exceed any configured window


@dataclass(frozen=True)
class RegistrationLimit:
    per_address: int = 10
    window: timedelta = timedelta(hours=1)


def count_recent(session: Session, address: str, since: datetime, limit: int,
                 own_attempt: int | None) -> list[datetime]:
    """Times of the newest attempts from ``address`` after ``since`` (at most ``limit``)."""
    query = select(RegistrationAttempt.attempted_at).where(
        RegistrationAttempt.address == address, RegistrationAttempt.attempted_at > since)
    if own_attempt is not None:
        query = query.where(RegistrationAttempt.id != own_attempt)
    return session.scalars(
        query.order_by(RegistrationAttempt.attempted_at.desc()).limit(limit)).all()


def validate_registration_allowed(session: Session, address: str, now: datetime,
                                  limit: RegistrationLimit, own_attempt: int | None = None) -> None:
    recent = count_recent(session, address, now - limit.window, limit.per_address, own_attempt)
    if len(recent) >= limit.per_address:
        wait = compute_retry_after(recent[-1], limit, now)
        raise LoginThrottled(
            f"Too many accounts were tried from your address. Try again in {describe_wait(wait)}.",
            wait)


def reserve_registration(session: Session, address: str, now: datetime,
                         limit: RegistrationLimit) -> None:
    """Allow one registration from ``address`` or raise LoginThrottled; commits."""
    address = address[:ADDRESS_MAX]
    validate_registration_allowed(session, address, now, limit)  # refuse without writing
    session.execute(delete(RegistrationAttempt)
                    .where(RegistrationAttempt.attempted_at < now - ATTEMPT_RETENTION))
    attempt = RegistrationAttempt(address=address, attempted_at=now)
    session.add(attempt)
    session.commit()
    try:
        validate_registration_allowed(session, address, now, limit, own_attempt=attempt.id)
    except LoginThrottled:
        session.execute(delete(RegistrationAttempt).where(RegistrationAttempt.id == attempt.id))
        session.commit()
        raise
