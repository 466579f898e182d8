"""Study settings use case: desired retention, daily limits, the day boundary, shortcuts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, tzinfo

from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.models import User
from quizapp.services.errors import ServiceError

RETENTION_RANGE = srs.DESIRED_RETENTION_RANGE  # what the scheduler itself accepts
NEW_PER_DAY_RANGE = (0, 999)
REVIEWS_PER_DAY_RANGE = (0, 9999)


@dataclass(frozen=True)
class StudySettings:
    desired_retention: float
    new_per_day: int
    reviews_per_day: int
    time_zone: str  # an IANA name or "UTC+05:30" (quizapp.srs.zones)
    keyboard_shortcuts: bool  # Space, 1-4 and u on study pages


def validate_settings(settings: StudySettings, *, kept_zone: str | None = None) -> None:
    """ServiceError for a value out of range. ``kept_zone`` (the zone already stored) passes
    unchecked: a name this server's zone database lacks is kept, not refused on every save."""
    low, high = RETENTION_RANGE
    if not low <= settings.desired_retention <= high:
        raise ServiceError(f"Desired retention is between {low:.2f} and {high:.2f}.")
    for value, (low, high), label in (
        (settings.new_per_day, NEW_PER_DAY_RANGE, "New items per day"),
        (settings.reviews_per_day, REVIEWS_PER_DAY_RANGE, "Reviews per day"),
    ):
        if not low <= value <= high:
            raise ServiceError(f"{label} is between {low} and {high}.")
    if settings.time_zone != kept_zone:
        validate_time_zone(settings.time_zone)


UNKNOWN_ZONE_MESSAGE = "Pick a time zone from the list, such as Europe/Berlin or America/New_York."


def validate_time_zone(name: str) -> None:
    """The user's time zone (their study day turns over at 04:00 there), or ServiceError."""
    if srs.canonicalize_zone_name(name) != name:
        raise ServiceError(UNKNOWN_ZONE_MESSAGE)


def compute_user_zone(user) -> tzinfo:
    """The tzinfo of ``user.time_zone``; UTC if the name is no longer known (a zone database
    without it), so a page still renders rather than failing on every request."""
    try:
        return srs.compute_zone(user.time_zone)
    except ValueError:
        return UTC


def read_settings(user: User) -> StudySettings:
    return StudySettings(
        user.desired_retention, user.new_per_day, user.reviews_per_day, user.time_zone,
        user.keyboard_shortcuts)


def update_settings(session: Session, user: User, settings: StudySettings) -> None:
    validate_settings(settings, kept_zone=user.time_zone)
    user.desired_retention = round(settings.desired_retention, 3)
    user.new_per_day = settings.new_per_day
    user.reviews_per_day = settings.reviews_per_day
    user.time_zone = settings.time_zone
    user.keyboard_shortcuts = settings.keyboard_shortcuts
    session.commit()
