"""Login throttling: recent failures counted per account and per address, stored in the DB.

Every password check is reserved first (reserve_login_attempt): the attempt is recorded as a
failure and committed *before* the password is checked, then the failures are counted again
with every other attempt still in flight (throttling.reserve_attempt), so at most ``limit``
attempts per window get past the count however many requests run at once (on SQLite and
PostgreSQL alike).
A right password then turns the row into a success (mark_login_succeeded).

Refused attempts are not recorded (a refusal after the reservation deletes its row), so
requests sent during a lockout do not extend it: it ends ``window`` after the failures that
caused it, and only real password checks, at most ``limit`` per window, can renew it.

Device cookies (OWASP's "slow down online guessing attacks with device cookies"): a client
that logged in to an account before carries a signed cookie naming the account and a random
nonce. Its attempts on that account are counted per device (``per_device``) instead of with
the anonymous failures (``per_account``), so strangers failing on purpose cannot lock the
account's owner out of a device they have logged in from. The address limit holds anonymous
attempts only, and counts only theirs: behind a NAT, or a proxy trusted with too few hops,
everyone shares one address, and strangers failing there must not lock out a known device
(its owner logging in, changing the password or deleting the account).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from quizapp.models import LoginAttempt
from quizapp.models.account import ADDRESS_MAX, DEVICE_MAX, USERNAME_MAX
from quizapp.services.errors import LoginThrottled
from quizapp.services.store.throttling import (
    compute_retry_after,
    describe_wait,
    recent_times,
    reserve_attempt,
)


@dataclass(frozen=True)
class LoginLimits:
    per_account: int = 5
    per_address: int = 20
    per_device: int = 5
    window: timedelta = timedelta(minutes=15)


def validate_login_allowed(
    session: Session, username: str, address: str, now: datetime, limits: LoginLimits,
    *, account_created: datetime | None, device: str | None = None,
    own_attempt: int | None = None,
) -> None:
    """Raise LoginThrottled when this account or this address failed too often in the window.

    ``device`` is the nonce of a valid device cookie for this account: the account's count is
    then this device's failures (``per_device``), else the anonymous ones (``per_account``).
    ``own_attempt`` is the id of the caller's reserved attempt, left out of the count: with it
    counted, a reservation over the limit would see ``limit + 1`` failures. ``account_created``
    is when the account of that name was made (None: no such account), which the caller has
    already read with the account.
    """
    since = now - limits.window
    username, address = username[:USERNAME_MAX], address[:ADDRESS_MAX]
    if device is None:
        account_limit, on_device = limits.per_account, ""
        who = (LoginAttempt.username == username) & LoginAttempt.device.is_(None)
    else:
        account_limit, on_device = limits.per_device, " on this device"
        who = (LoginAttempt.username == username) & (LoginAttempt.device == device[:DEVICE_MAX])
    # A success clears its own count only: the owner logging in from a known device does not
    # hand strangers a fresh set of guesses. The address count is never cleared early.
    last_success = session.scalar(
        select(func.max(LoginAttempt.attempted_at)).where(who, LoginAttempt.succeeded.is_(True)))
    # Failures from before the account existed were made on a free name (guesses, or a deleted
    # account's): they say nothing of this account and must not lock out whoever took the name.
    # (Counted are those after ``account_since``: one made at the account's creation counts.)
    before_created = account_created - timedelta(microseconds=1) if account_created else None
    account_since = max(moment for moment in (since, last_success, before_created) if moment)
    failed = LoginAttempt.succeeded.is_(False)  # attempts in flight count as failures
    account_failures = recent_times(
        session, LoginAttempt, (who, failed), account_since, account_limit, own_attempt)
    if len(account_failures) >= account_limit:
        wait = compute_retry_after(account_failures[-1], limits.window, now)
        raise LoginThrottled(
            f"Too many failed logins for this account{on_device}. "
            f"Try again in {describe_wait(wait)}.", wait)
    if device is not None:
        return  # a known device: its own limit above, never the strangers' at its address
    address_failures = recent_times(
        session, LoginAttempt,
        (LoginAttempt.address == address, LoginAttempt.device.is_(None), failed), since,
        limits.per_address, own_attempt)
    if len(address_failures) >= limits.per_address:
        wait = compute_retry_after(address_failures[-1], limits.window, now)
        raise LoginThrottled(
            f"Too many failed logins from your address. Try again in {describe_wait(wait)}.", wait)


def reserve_login_attempt(
    session: Session, username: str, address: str, now: datetime, limits: LoginLimits,
    device: str | None = None, *, account_created: datetime | None,
) -> int:
    """Allow one password check or raise LoginThrottled; commits. Returns the attempt's id,
    recorded as a failure until mark_login_succeeded (throttling.reserve_attempt)."""
    attempt = LoginAttempt(
        username=username[:USERNAME_MAX], address=address[:ADDRESS_MAX], attempted_at=now,
        succeeded=False, device=device[:DEVICE_MAX] if device else None)
    return reserve_attempt(session, attempt, lambda own: validate_login_allowed(
        session, username, address, now, limits, account_created=account_created, device=device,
        own_attempt=own))


def mark_login_succeeded(session: Session, attempt_id: int) -> None:
    """The reserved attempt's password was right; the caller commits."""
    session.execute(
        update(LoginAttempt).where(LoginAttempt.id == attempt_id).values(succeeded=True))
