"""Errors the use cases raise; the web layer turns each into a 4xx with its message."""

from __future__ import annotations

from datetime import timedelta

# What a puzzle page rated or undone since it was shown is told (by the rating's write
# transaction, and by the study page before it): the page shows the next item instead.
OUTDATED_PUZZLE = ("That puzzle's page is out of date: it was rated or undone since, so here is "
                   "what comes next.")


class ServiceError(Exception):
    """A request the use case refuses; ``message`` is shown to the person as is."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """The thing does not exist, or belongs to someone else (never say which)."""

    status = 404


class Forbidden(ServiceError):
    """The person may see the thing but not do this to it (a team member asking for what only
    its leads may do)."""

    status = 403


class LimitReached(ServiceError):
    """A limit on how many of something there may be (members of a team, teams of an
    account); the message names the limit."""

    status = 409


class Conflict(ServiceError):
    """The request was made against a state that has since changed (a stale page, a double click)."""

    status = 409


class InvalidCredentials(ServiceError):
    status = 401


class LoginThrottled(ServiceError):
    """Too many failed logins (or registrations) recently for this account or this address."""

    status = 429

    def __init__(self, message: str, retry_after: timedelta) -> None:
        super().__init__(message)
        self.retry_after = retry_after
