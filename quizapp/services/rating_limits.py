"""A rate of ratings no person can exceed, per account: the review log grows at most that fast.

Reading a card or working a puzzle and rating it takes a person seconds; scripts re-rating one
card (Study it now) made 3,527 ratings in 24 s. A rating is refused (RatingThrottled, 429) when
the account already has ``per_minute`` reviews in the last minute or ``per_hour`` in the last
hour. Checked before the write transaction: ratings committing at the same moment may each pass
it, so an account can exceed a window's count by the requests the server runs at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from quizapp.services.errors import ServiceError
from quizapp.services.store.rating_rate import load_nth_newest_time


@dataclass(frozen=True)
class RatingLimits:
    per_minute: int = 60
    per_hour: int = 1000


class RatingThrottled(ServiceError):
    """Ratings come faster than a person makes them; nothing was saved."""

    status = 429

    def __init__(self, message: str, retry_after: timedelta) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def validate_rating_rate(session: Session, user_id: int, now: datetime,
                         limits: RatingLimits) -> None:
    for count, window, name in ((limits.per_minute, timedelta(minutes=1), "a minute"),
                                (limits.per_hour, timedelta(hours=1), "an hour")):
        oldest = load_nth_newest_time(session, user_id, count)
        if oldest is not None and oldest > now - window:
            wait = max(oldest + window - now, timedelta(seconds=1))
            seconds = int(wait.total_seconds() + 0.999)
            raise RatingThrottled(
                f"Not saved: that is more than {count} ratings in {name}, faster than anyone "
                f"reads and answers. Wait {seconds} second{'s' if seconds != 1 else ''}, then "
                "rate again.", wait)
