"""Study settings use case: desired retention, daily limits and the user's day boundary."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.models import User
from quizapp.services.errors import ServiceError

RETENTION_RANGE = srs.DESIRED_RETENTION_RANGE  # what the scheduler itself accepts
NEW_PER_DAY_RANGE = (0, 999)
REVIEWS_PER_DAY_RANGE = (0, 9999)
UTC_OFFSET_RANGE = (-12 * 60, 14 * 60)


@dataclass(frozen=True)
class StudySettings:
    desired_retention: float
    new_per_day: int
    reviews_per_day: int
    utc_offset_minutes: int


def validate_settings(settings: StudySettings) -> None:
    low, high = RETENTION_RANGE
    if not low <= settings.desired_retention <= high:
        raise ServiceError(f"Desired retention is between {low:.2f} and {high:.2f}.")
    for value, (low, high), label in (
        (settings.new_per_day, NEW_PER_DAY_RANGE, "New items per day"),
        (settings.reviews_per_day, REVIEWS_PER_DAY_RANGE, "Reviews per day"),
    ):
        if not low <= value <= high:
            raise ServiceError(f"{label} is between {low} and {high}.")
    validate_utc_offset(settings.utc_offset_minutes)


def validate_utc_offset(minutes: int) -> None:
    """The user's UTC offset (it decides when their study day turns over), or ServiceError."""
    low, high = UTC_OFFSET_RANGE
    if not low <= minutes <= high:
        raise ServiceError(f"The UTC offset in minutes is between {low} and {high}.")


def read_settings(user: User) -> StudySettings:
    return StudySettings(
        user.desired_retention, user.new_per_day, user.reviews_per_day, user.utc_offset_minutes)


def update_settings(session: Session, user: User, settings: StudySettings) -> None:
    validate_settings(settings)
    user.desired_retention = round(settings.desired_retention, 3)
    user.new_per_day = settings.new_per_day
    user.reviews_per_day = settings.reviews_per_day
    user.utc_offset_minutes = settings.utc_offset_minutes
    session.commit()
