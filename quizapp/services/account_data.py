"""A person's own data: their review log, schedule, practice answers and team memberships as
CSV rows, and deleting the account."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

from sqlalchemy import delete, exists, func, select
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash

from quizapp import srs
from quizapp.markup.spreadsheet import neutralize_cell
from quizapp.models import Item, PracticeAttempt, Review, ReviewState, Team, TeamMember, User
from quizapp.services.accounts import DeviceCookie, canonicalize_username, trusted_device
from quizapp.services.errors import InvalidCredentials, ServiceError
from quizapp.services.login_limits import (
    LoginLimits,
    mark_login_succeeded,
    reserve_login_attempt,
)
from quizapp.services.store.study_items import select_suspended
from quizapp.services.teams import OWNER, validate_account_deletable

# Rows read from the database at a time: a long log is never held in memory whole.
BATCH_ROWS = 500
# Text written before a chunk is handed on to the response.
CHUNK_CHARS = 16 * 1024

REVIEW_HEADER = ("reviewed_at_utc", "item_key", "item_kind", "item_title", "rating",
                 "duration_ms", "answer", "correct", "was_new")
SCHEDULE_HEADER = ("item_key", "item_kind", "item_title", "due_utc", "fsrs_state",
                   "stability_days", "difficulty", "reps", "last_reviewed_at_utc", "suspended")
PRACTICE_HEADER = ("answered_at_utc", "family", "level", "seed", "answer", "correct",
                   "hints_used", "duration_ms")
TEAM_HEADER = ("team", "role", "joined_utc", "last_active_utc")
RATING_NAMES = {rating: name.capitalize() for rating, name in srs.RATINGS.items()}
FSRS_STATES: dict[object, str] = {1: "Learning", 2: "Review", 3: "Relearning"}  # fsrs.State's values

_REVIEW = Review.__table__
_STATE = ReviewState.__table__
_ITEM = Item.__table__
_PRACTICE = PracticeAttempt.__table__
_MEMBER = TeamMember.__table__
_TEAM = Team.__table__


class WrongConfirmation(ServiceError):
    """The name typed to confirm a deletion is not the account's."""


def format_utc(moment: datetime | None) -> str:
    """ISO 8601 in UTC to the second ("2025-03-03T09:00:00Z"); empty for None."""
    if moment is None:
        return ""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def format_flag(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def count_reviews(session: Session, user_id: int) -> int:
    return session.scalar(select(func.count()).select_from(_REVIEW).where(
        _REVIEW.c.user_id == user_id)) or 0


def iter_review_rows(session: Session, user_id: int) -> Iterator[tuple[str, ...]]:
    """The user's ratings, oldest first (ids grow with every rating and are never reused),
    one CSV row each, read BATCH_ROWS at a time."""
    query = select(
        _REVIEW.c.reviewed_at, _ITEM.c.key, _ITEM.c.kind, _ITEM.c.title, _REVIEW.c.rating,
        _REVIEW.c.duration_ms, _REVIEW.c.answer, _REVIEW.c.correct, _REVIEW.c.was_new,
    ).join(_ITEM, _ITEM.c.id == _REVIEW.c.item_id).where(
        _REVIEW.c.user_id == user_id).order_by(_REVIEW.c.id)
    result = session.execute(query.execution_options(yield_per=BATCH_ROWS))
    for row in result:
        yield (format_utc(row.reviewed_at), neutralize_cell(row.key), row.kind,
               neutralize_cell(row.title), RATING_NAMES.get(row.rating, str(row.rating)),
               "" if row.duration_ms is None else str(row.duration_ms),
               neutralize_cell(row.answer), format_flag(row.correct), format_flag(row.was_new))


def iter_schedule_rows(session: Session, user_id: int) -> Iterator[tuple[str, ...]]:
    """Where the user stands with each item they have rated, soonest due first (a suspended
    one says so: its due time waits until it is resumed)."""
    query = select(
        _ITEM.c.key, _ITEM.c.kind, _ITEM.c.title, _STATE.c.due, _STATE.c.state, _STATE.c.reps,
        _STATE.c.last_reviewed_at, select_suspended(user_id).label("suspended"),
    ).join(_ITEM, _ITEM.c.id == _STATE.c.item_id).where(
        _STATE.c.user_id == user_id).order_by(_STATE.c.due, _STATE.c.id)
    for row in session.execute(query.execution_options(yield_per=BATCH_ROWS)):
        state = row.state if isinstance(row.state, dict) else {}
        yield (neutralize_cell(row.key), row.kind, neutralize_cell(row.title),
               format_utc(row.due), FSRS_STATES.get(state.get("state"), ""),
               format_number(state.get("stability")), format_number(state.get("difficulty")),
               str(row.reps), format_utc(row.last_reviewed_at), format_flag(row.suspended))


def iter_practice_rows(session: Session, user_id: int) -> Iterator[tuple[str, ...]]:
    """The user's practice answers (puzzles answered outside the schedule), oldest first; the
    family, level and seed name the puzzle, so each can be dealt again."""
    query = select(
        _PRACTICE.c.answered_at, _PRACTICE.c.family, _PRACTICE.c.level, _PRACTICE.c.seed,
        _PRACTICE.c.answer, _PRACTICE.c.correct, _PRACTICE.c.hints_used, _PRACTICE.c.duration_ms,
    ).where(_PRACTICE.c.user_id == user_id).order_by(_PRACTICE.c.id)
    for row in session.execute(query.execution_options(yield_per=BATCH_ROWS)):
        yield (format_utc(row.answered_at), neutralize_cell(row.family),
               neutralize_cell(row.level), str(row.seed), neutralize_cell(row.answer),
               format_flag(row.correct), str(row.hints_used),
               "" if row.duration_ms is None else str(row.duration_ms))


def iter_team_rows(session: Session, user_id: int) -> Iterator[tuple[str, ...]]:
    """The teams the user belongs to, first joined first: the team's name (a lead typed it),
    the user's role and when they joined and last did assigned work."""
    query = select(
        _TEAM.c.name, _MEMBER.c.role, _MEMBER.c.joined_at, _MEMBER.c.last_active_at,
    ).join(_TEAM, _TEAM.c.id == _MEMBER.c.team_id).where(
        _MEMBER.c.user_id == user_id).order_by(_MEMBER.c.joined_at, _MEMBER.c.team_id)
    for row in session.execute(query.execution_options(yield_per=BATCH_ROWS)):
        yield (neutralize_cell(row.name), neutralize_cell(row.role), format_utc(row.joined_at),
               format_utc(row.last_active_at))


def count_practice_answers(session: Session, user_id: int) -> int:
    return session.scalar(select(func.count()).select_from(_PRACTICE).where(
        _PRACTICE.c.user_id == user_id)) or 0


def count_teams(session: Session, user_id: int) -> int:
    return session.scalar(select(func.count()).select_from(_MEMBER).where(
        _MEMBER.c.user_id == user_id)) or 0


def format_number(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, int | float) and not isinstance(value, bool) else ""


def iter_csv(header: Iterable[str], rows: Iterable[Iterable[str]]) -> Iterator[str]:
    """CSV text (RFC 4180: quoted where needed, CRLF line ends) in chunks of about
    CHUNK_CHARS, so the response streams while the rows are read."""
    buffer = io.StringIO()
    # Every cell quoted (OWASP's advice beside the apostrophe): a spreadsheet that splits on
    # ";" or tabs keeps "x;=1+1" one cell instead of starting a new one with a formula.
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL)
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
        if buffer.tell() >= CHUNK_CHARS:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def delete_account(
    session: Session, user: User, password: str, typed_username: str, *, address: str,
    now: datetime, limits: LoginLimits, device: DeviceCookie | None = None,
) -> int:
    """Delete ``user`` and, through the foreign keys' ON DELETE CASCADE, their schedule,
    review log, logins and team memberships; commits and returns how many reviews went with it.

    The account's name must be typed (any case, as at login) and the password given; checking
    the password is a login attempt, throttled and counted as change_password's is. An owner
    of a team is refused (teams.OwnsTeams) until each team is handed over or deleted; the
    account's memberships go with it.
    """
    if canonicalize_username(typed_username) != user.username:
        raise WrongConfirmation(f"Type your username, {user.username}, to confirm.")
    validate_account_deletable(session, user.id)
    nonce = trusted_device(device, user)
    attempt_id = reserve_login_attempt(session, user.username, address, now, limits, nonce,
                                       account_created=user.created_at)
    if not check_password_hash(user.password_hash, password):
        raise InvalidCredentials("The password is not right.")
    mark_login_succeeded(session, attempt_id)
    reviews = count_reviews(session, user.id)
    # The check above ran before this transaction: a team handed over to the account since
    # would lose its owner with it. The memberships are locked (PostgreSQL; SQLite's delete
    # holds the database) and the delete happens only while the account owns no team.
    session.execute(select(TeamMember.team_id).where(TeamMember.user_id == user.id)
                    .with_for_update())
    deleted = session.execute(delete(User).where(User.id == user.id, ~exists().where(
        TeamMember.user_id == user.id, TeamMember.role == OWNER)))
    if deleted.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        validate_account_deletable(session, user.id)
        raise ServiceError("The account could not be deleted; try again.")
    session.commit()
    return reviews
