"""Study settings use case: retention, the longest interval, daily limits, day boundary, keys,
theme."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import tzinfo
from typing import Any

from sqlalchemy import and_, bindparam, case, select, update
from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.content import LEVELS
from quizapp.models import ReviewState, User
from quizapp.services.errors import ServiceError
from quizapp.services.store.study_items import ITEM, OFFERED, select_suspended
from quizapp.services.users import StudyUser

RETENTION_RANGE = srs.DESIRED_RETENTION_RANGE  # what the scheduler itself accepts
NEW_PER_DAY_RANGE = (0, 999)
REVIEWS_PER_DAY_RANGE = (0, 9999)
MAXIMUM_INTERVAL_RANGE = srs.MAXIMUM_INTERVAL_RANGE  # days
NEW_FROM_LEVELS = LEVELS  # the queue introduces new items of this level and those above it
# Each choice of "New items from level" as Settings' menu and messages say it.
NEW_FROM_LEVEL_LABELS = {"junior": "Every level, junior first", "middle": "Middle and above",
                         "senior": "Senior and above", "principal": "Principal only"}
# The same inside a sentence ("New items come from ... only"): the label "Principal only",
# lowered, read "principal only only" there.
NEW_FROM_LEVEL_SCOPES = {"junior": "every level", "middle": "middle and above",
                         "senior": "senior and above", "principal": "principal"}
# The page's colours: "system" follows the browser's prefers-color-scheme (the default).
THEME_LABELS = {"system": "Follow the system", "light": "Light", "dark": "Dark"}
THEMES = tuple(THEME_LABELS)
UNKNOWN_THEME_MESSAGE = "Pick a theme: light, dark or follow the system."


@dataclass(frozen=True)
class StudySettings:
    desired_retention: float
    new_per_day: int
    reviews_per_day: int
    maximum_interval_days: int  # the longest wait between two reviews of an item
    new_from_level: str  # the lowest level whose new items the queue introduces
    time_zone: str  # an IANA name or "UTC+05:30" (quizapp.srs.zones)
    keyboard_shortcuts: bool  # Space, 1-4 and u on study pages
    theme: str  # one of THEMES


def validate_settings(settings: StudySettings, *, kept_zone: str | None = None) -> None:
    """ServiceError for a value out of range. ``kept_zone`` (the zone already stored) passes
    unchecked: a name this server's zone database lacks is kept, not refused on every save."""
    low, high = RETENTION_RANGE
    if not low <= settings.desired_retention <= high:
        raise ServiceError(f"Desired retention is between {low:.2f} and {high:.2f}.")
    for value, (low, high), label in (
        (settings.new_per_day, NEW_PER_DAY_RANGE, "New items per day"),
        (settings.reviews_per_day, REVIEWS_PER_DAY_RANGE, "Reviews per day"),
        (settings.maximum_interval_days, MAXIMUM_INTERVAL_RANGE, "Maximum interval in days"),
    ):
        if not low <= value <= high:
            raise ServiceError(f"{label} is between {low} and {high}.")
    if settings.new_from_level not in NEW_FROM_LEVELS:
        raise ServiceError(f"New items come from one of the levels {', '.join(NEW_FROM_LEVELS)}.")
    if settings.theme not in THEMES:
        raise ServiceError(UNKNOWN_THEME_MESSAGE)
    if settings.time_zone != kept_zone:
        validate_time_zone(settings.time_zone)


UNKNOWN_ZONE_MESSAGE = "Pick a time zone from the list, such as Europe/Berlin or America/New_York."


def validate_time_zone(name: str) -> None:
    """The user's time zone (their study day turns over at 04:00 there), or ServiceError."""
    if srs.canonicalize_zone_name(name) != name:
        raise ServiceError(UNKNOWN_ZONE_MESSAGE)


def compute_new_levels(user: StudyUser) -> list[str]:
    """The levels whose new items the queue introduces for ``user``: theirs and those above."""
    start = NEW_FROM_LEVELS.index(user.new_from_level) if (
        user.new_from_level in NEW_FROM_LEVELS) else 0
    return list(NEW_FROM_LEVELS[start:])


def takes_every_level(user: StudyUser) -> bool:
    """Whether the queue introduces new items of every level for ``user`` (the default)."""
    return len(compute_new_levels(user)) == len(NEW_FROM_LEVELS)


def read_settings(user: StudyUser) -> StudySettings:
    return StudySettings(
        user.desired_retention, user.new_per_day, user.reviews_per_day,
        user.maximum_interval_days, user.new_from_level, user.time_zone,
        user.keyboard_shortcuts, user.theme)


SETTING_LABELS = {"desired_retention": "Desired retention", "new_per_day": "New items per day",
                  "reviews_per_day": "Reviews per day",
                  "maximum_interval_days": "Maximum interval",
                  "new_from_level": "New items from level", "time_zone": "Time zone",
                  "keyboard_shortcuts": "Keyboard shortcuts", "theme": "Theme"}


@dataclass(frozen=True)
class MergedSettings:
    """What a Settings form saves: ``kept`` names the settings changed elsewhere since the form
    was shown and left as saved there; ``replaced`` those changed there and on this form too."""

    settings: StudySettings
    kept: tuple[str, ...]
    replaced: tuple[str, ...]


def _same(name: str, one: Any, other: Any) -> bool:
    if name == "desired_retention":  # shown with two decimals, stored as given
        return round(float(one), 2) == round(float(other), 2)
    return one == other


def merge_settings(shown: StudySettings, submitted: StudySettings,
                   stored: StudySettings) -> MergedSettings:
    """A form shown with ``shown`` saves only what the person changed on it: a setting it left
    as shown keeps what is stored now, which another tab or device may have changed meanwhile
    (an older tab saving only a new retention put the zone and the
    new-item limit back). Where both changed one setting, this form's value, the later, wins."""
    values, kept, replaced = {}, [], []
    for field in fields(StudySettings):
        name = field.name
        was, typed, now = (getattr(s, name) for s in (shown, submitted, stored))
        elsewhere = not _same(name, now, was)
        if _same(name, typed, was):
            values[name] = now
            kept += [name] if elsewhere else []
        else:
            values[name] = typed
            replaced += [name] if elsewhere and not _same(name, now, typed) else []
    return MergedSettings(StudySettings(**values), tuple(kept), tuple(replaced))


def update_settings(session: Session, user: User, settings: StudySettings, *,
                    bring_forward: bool = False) -> int:
    """Save ``settings``; with ``bring_forward``, also move every item the user has in Review
    that is due later than the maximum interval after its last review to that day (Anki's
    "Reschedule cards on change", for this one setting). Returns how many of those moved the
    study pages offer and the user has not suspended: the ones that now come back by then."""
    validate_settings(settings, kept_zone=user.time_zone)
    user.desired_retention = round(settings.desired_retention, 3)
    user.new_per_day = settings.new_per_day
    user.reviews_per_day = settings.reviews_per_day
    user.maximum_interval_days = settings.maximum_interval_days
    user.new_from_level = settings.new_from_level
    user.time_zone = settings.time_zone
    user.keyboard_shortcuts = settings.keyboard_shortcuts
    user.theme = settings.theme
    moved = 0
    if bring_forward:
        # The user's row is written before any due moves: on PostgreSQL a rating in progress
        # holds a share lock on it (services.store.rating_writes), so this waits for that rating's
        # commit and then finds its due, and a rating after this point waits for this commit
        # and is scheduled with the new cap. On SQLite this write takes the database's lock.
        # (A save that changes no setting writes nothing: ratings already use the stored cap.)
        session.flush()
        moved = bring_forward_dues(session, user.id, settings.maximum_interval_days,
                                   srs.compute_user_zone(user))
    session.commit()
    return moved


_STATE = ReviewState.__table__
# Whether the study pages will show the item again, as Stats counts it "in review": an item
# that left the bank or that the user suspended is moved too (it keeps the cap if it returns)
# but not counted as coming back.
_COMES_BACK = case((and_(OFFERED, ~select_suspended(bindparam("user_id"))), 1), else_=0)
_SCHEDULED = (select(_STATE.c.id, _STATE.c.version, _STATE.c.state,
                     _COMES_BACK.label("comes_back"))
              .select_from(_STATE.join(ITEM, _STATE.c.item_id == ITEM.c.id))
              .where(_STATE.c.user_id == bindparam("user_id"), _STATE.c.learning.is_(False)))
_MOVE_DUE = (update(_STATE)
             .where(_STATE.c.id == bindparam("row_id"), _STATE.c.version == bindparam("seen"))
             .values(state=bindparam("new_state"), stability=bindparam("new_stability"),
                     due=bindparam("new_due")))


def count_past_cap(session: Session, user_id: int, maximum_interval_days: int,
                   zone: tzinfo) -> int:
    """How many items that come back (see update_settings) are due later than the maximum
    interval after their last review: what bring_forward_dues would move and count."""
    rows = session.connection().execute(_SCHEDULED, {"user_id": user_id}).all()
    return sum(1 for row in rows if row.comes_back
               and srs.cap_state_due(row.state, maximum_interval_days, zone) is not None)


def bring_forward_dues(session: Session, user_id: int, maximum_interval_days: int,
                       zone: tzinfo) -> int:
    """Cap the dues already scheduled (srs.cap_state_due), not committed. Each row moves only
    if no rating changed it since it was read (its version), as a rating's own write is.
    Returns how many moved among the items that come back (see update_settings)."""
    moved = 0
    for row in session.connection().execute(_SCHEDULED, {"user_id": user_id}).all():
        capped = srs.cap_state_due(row.state, maximum_interval_days, zone)
        if capped is not None:
            state, due = capped
            changed = session.connection().execute(_MOVE_DUE, {
                "row_id": row.id, "seen": row.version, "new_state": state,
                "new_stability": srs.state_stability(state), "new_due": due}).rowcount
            moved += changed if row.comes_back else 0
    return moved
