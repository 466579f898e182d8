"""Account use cases: register, authenticate (throttled), load for a session, change password."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from quizapp.models import User
from quizapp.models.account import USERNAME_MAX
from quizapp.services.errors import InvalidCredentials, ServiceError
from quizapp.services.login_limits import (
    LoginLimits,
    record_login_attempt,
    validate_login_allowed,
)

USERNAME_MIN = 3
PASSWORD_MIN = 8
PASSWORD_MAX = 200
USERNAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_.-]*")


def canonicalize_username(raw: str) -> str:
    """Usernames are case-insensitive: stored and compared in lower case, trimmed."""
    return raw.strip().lower()


def validate_username(username: str) -> None:
    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        raise ServiceError(f"A username has {USERNAME_MIN} to {USERNAME_MAX} characters.")
    if not USERNAME_PATTERN.fullmatch(username):
        raise ServiceError(
            "A username uses letters, digits, '.', '_' and '-', and starts with a letter or digit.")


def validate_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServiceError(f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters.")


def register(
    session: Session, username: str, password: str, now: datetime, *, hash_method: str
) -> User:
    """Create an account; raises ServiceError when the name is taken or the input is invalid."""
    username = canonicalize_username(username)
    validate_username(username)
    validate_password(password)
    if session.scalar(select(User.id).where(User.username == username)) is not None:
        raise ServiceError("That username is taken; pick another.")
    user = User(
        username=username, password_hash=generate_password_hash(password, method=hash_method),
        created_at=now)
    session.add(user)
    try:
        session.commit()
    except IntegrityError:  # taken by a concurrent registration between the check and the insert
        session.rollback()
        raise ServiceError("That username is taken; pick another.") from None
    return user


# A hash to check against when the account does not exist, so both cases cost the same time.
_DUMMY_HASHES: dict[str, str] = {}


def compute_dummy_hash(hash_method: str) -> str:
    if hash_method not in _DUMMY_HASHES:
        _DUMMY_HASHES[hash_method] = generate_password_hash("not-a-password", method=hash_method)
    return _DUMMY_HASHES[hash_method]


def authenticate(
    session: Session, username: str, password: str, *, address: str, now: datetime,
    limits: LoginLimits, hash_method: str,
) -> User:
    """Check a login; every attempt is recorded so throttling works across workers."""
    username = canonicalize_username(username)[:USERNAME_MAX]
    validate_login_allowed(session, username, address, now, limits)
    user = session.scalar(select(User).where(User.username == username))
    stored = user.password_hash if user else compute_dummy_hash(hash_method)
    ok = check_password_hash(stored, password) and user is not None
    record_login_attempt(session, username, address, now, succeeded=ok)
    session.commit()
    if not ok:
        raise InvalidCredentials("That username and password do not match an account.")
    return user


@dataclass(frozen=True)
class SignedInUser(UserMixin):
    """The signed-in account as every request reads it: a plain row, not an ORM entity.

    Flask-Login loads the user on every request, and building an ORM ``User`` costs more than
    the indexed lookup itself. Use cases that change the account load ``User`` (load_account).
    """

    id: int
    username: str
    session_version: int
    desired_retention: float
    new_per_day: int
    reviews_per_day: int
    utc_offset_minutes: int

    def get_id(self) -> str:
        """Flask-Login identity, the same as User.get_id: id plus session version."""
        return f"{self.id}.{self.session_version}"


_USER = User.__table__
# Runs on every logged-in request: a Core statement built once, on the session's connection.
LOAD_SIGNED_IN_USER = select(
    _USER.c.id, _USER.c.username, _USER.c.session_version, _USER.c.desired_retention,
    _USER.c.new_per_day, _USER.c.reviews_per_day, _USER.c.utc_offset_minutes,
).where(_USER.c.id == bindparam("user_id"))


def load_user_for_session(session: Session, identity: str) -> SignedInUser | None:
    """Flask-Login identity "<id>.<session_version>" -> the user, or None when stale/invalid."""
    user_id, _, version = identity.partition(".")
    if not (user_id.isdigit() and version.isdigit()) or len(identity) > 40:
        return None
    row = session.connection().execute(LOAD_SIGNED_IN_USER, {"user_id": int(user_id)}).first()
    if row is None or row.session_version != int(version):
        return None
    return SignedInUser(*row)


def load_account(session: Session, user_id: int) -> User:
    """The ORM account, for use cases that change it (settings, password)."""
    user = session.get(User, user_id)
    if user is None:
        raise InvalidCredentials("That account no longer exists.")
    return user


def change_password(
    session: Session, user: User, current: str, new: str, *, hash_method: str
) -> None:
    """Replace the password and sign out every other session (session_version bump)."""
    if not check_password_hash(user.password_hash, current):
        raise InvalidCredentials("The current password is not right.")
    validate_password(new)
    user.password_hash = generate_password_hash(new, method=hash_method)
    user.session_version += 1
    session.commit()
