"""Registration throttling: accounts tried per address within a window, stored in the DB.

Reserved as logins are (throttling.reserve_attempt): the attempt is recorded and committed
before anything else is checked, then counted again with every other attempt in flight. Taken
names count too: the limit also bounds how fast one address can probe which usernames exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from quizapp.models import RegistrationAttempt
from quizapp.models.account import ADDRESS_MAX
from quizapp.services.errors import LoginThrottled
from quizapp.services.store.throttling import (
    compute_retry_after,
    describe_wait,
    recent_times,
    reserve_attempt,
)


@dataclass(frozen=True)
class RegistrationLimit:
    per_address: int = 10
    window: timedelta = timedelta(hours=1)


def validate_registration_allowed(session: Session, address: str, now: datetime,
                                  limit: RegistrationLimit, own_attempt: int | None = None) -> None:
    recent = recent_times(session, RegistrationAttempt, (RegistrationAttempt.address == address,),
                          now - limit.window, limit.per_address, own_attempt)
    if len(recent) >= limit.per_address:
        wait = compute_retry_after(recent[-1], limit.window, now)
        raise LoginThrottled(
            f"Too many accounts were tried from your address. Try again in {describe_wait(wait)}.",
            wait)


def reserve_registration(session: Session, address: str, now: datetime,
                         limit: RegistrationLimit) -> None:
    """Allow one registration from ``address`` or raise LoginThrottled; commits."""
    address = address[:ADDRESS_MAX]
    reserve_attempt(session, RegistrationAttempt(address=address, attempted_at=now),
                    lambda own: validate_registration_allowed(session, address, now, limit, own))
