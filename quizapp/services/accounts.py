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
    mark_login_succeeded,
    reserve_login_attempt,
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


@dataclass(frozen=True)
class DeviceCookie:
    """What a device cookie whose signature is valid claims (see services/login_limits.py):
    the client logged in to ``username`` while its session version was ``session_version``."""

    username: str
    session_version: int
    nonce: str


def trusted_device(device: DeviceCookie | None, username: str, session_version: int | None
                   ) -> str | None:
    """The device's nonce when its cookie names this account at its current session version:
    changing the password (a version bump) makes every other device anonymous again."""
    if device is None or device.username != username or device.session_version != session_version:
        return None
    return device.nonce


def authenticate(
    session: Session, username: str, password: str, *, address: str, now: datetime,
    limits: LoginLimits, hash_method: str, device: DeviceCookie | None = None,
) -> User:
    """Check a login; every attempt is recorded so throttling works across workers.

    The attempt is reserved (recorded as a failure and committed) before the slow password
    check, so parallel requests cannot get more checks than the limits allow. A known
    ``device`` is limited on its own rather than with anonymous clients (see login_limits).
    """
    username = canonicalize_username(username)[:USERNAME_MAX]
    nonce = None
    if device is not None and device.username == username:
        version = session.scalar(select(User.session_version).where(User.username == username))
        nonce = trusted_device(device, username, version)
    attempt_id = reserve_login_attempt(session, username, address, now, limits, nonce)
    user = session.scalar(select(User).where(User.username == username))
    stored = user.password_hash if user else compute_dummy_hash(hash_method)
    if not (check_password_hash(stored, password) and user is not None):
        raise InvalidCredentials("That username and password do not match an account.")
    mark_login_succeeded(session, attempt_id)
    session.commit()
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
    session: Session, user: User, current: str, new: str, *, hash_method: str, address: str,
    now: datetime, limits: LoginLimits, device: DeviceCookie | None = None,
) -> None:
    """Replace the password and sign out every other session (session_version bump).

    Checking the current password is a login attempt: it is throttled and counted like one,
    so a signed-in cookie does not allow unlimited guesses of the password.
    """
    validate_password(new)  # before spending an attempt on a change that would be refused
    nonce = trusted_device(device, user.username, user.session_version)
    attempt_id = reserve_login_attempt(session, user.username, address, now, limits, nonce)
    if not check_password_hash(user.password_hash, current):
        raise InvalidCredentials("The current password is not right.")
    mark_login_succeeded(session, attempt_id)
    user.password_hash = generate_password_hash(new, method=hash_method)
    user.session_version += 1
    session.commit()
