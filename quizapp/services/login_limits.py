"""Login throttling: recent failures counted per account and per address, stored in the DB."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from quizapp.models import LoginAttempt
from quizapp.models.account import ADDRESS_MAX, USERNAME_MAX
from quizapp.services.errors import LoginThrottled

# Attempts older than this are pruned; it must exceed any configured window.
ATTEMPT_RETENTION = timedelta(days=1)


@dataclass(frozen=True)
class LoginLimits:
    per_account: int = 5
    per_address: int = 20
    window: timedelta = timedelta(minutes=15)


def compute_retry_after(oldest_failure: datetime, limits: LoginLimits, now: datetime) -> timedelta:
    return max(oldest_failure + limits.window - now, timedelta(seconds=1))


def describe_wait(delta: timedelta) -> str:
    minutes = math.ceil(delta.total_seconds() / 60)
    return "a minute" if minutes <= 1 else f"{minutes} minutes"


def validate_login_allowed(
    session: Session, username: str, address: str, now: datetime, limits: LoginLimits
) -> None:
    """Raise LoginThrottled when this account or this address failed too often in the window."""
    since = now - limits.window
    username, address = username[:USERNAME_MAX], address[:ADDRESS_MAX]
    last_success = session.scalar(
        select(func.max(LoginAttempt.attempted_at)).where(
            LoginAttempt.username == username, LoginAttempt.succeeded.is_(True)))
    # A successful login clears the account's count; the address count is never cleared early.
    account_since = max(since, last_success) if last_success else since
    account_failures = recent_failures(
        session, LoginAttempt.username == username, account_since, limits.per_account)
    if len(account_failures) >= limits.per_account:
        wait = compute_retry_after(account_failures[-1], limits, now)
        raise LoginThrottled(
            f"Too many failed logins for this account. Try again in {describe_wait(wait)}.", wait)
    address_failures = recent_failures(
        session, LoginAttempt.address == address, since, limits.per_address)
    if len(address_failures) >= limits.per_address:
        wait = compute_retry_after(address_failures[-1], limits, now)
        raise LoginThrottled(
            f"Too many failed logins from your address. Try again in {describe_wait(wait)}.", wait)


def recent_failures(session: Session, who, since: datetime, limit: int) -> list[datetime]:
    """Times of the newest failed attempts matching ``who`` after ``since``, at most ``limit``."""
    return session.scalars(
        select(LoginAttempt.attempted_at).where(
            who, LoginAttempt.succeeded.is_(False), LoginAttempt.attempted_at > since)
        .order_by(LoginAttempt.attempted_at.desc()).limit(limit)).all()


def record_login_attempt(
    session: Session, username: str, address: str, now: datetime, succeeded: bool
) -> None:
    """Add the attempt and prune old ones; the caller commits."""
    session.execute(delete(LoginAttempt).where(LoginAttempt.attempted_at < now - ATTEMPT_RETENTION))
    session.add(LoginAttempt(
        username=username[:USERNAME_MAX], address=address[:ADDRESS_MAX], attempted_at=now,
        succeeded=succeeded))
