"""Account use cases: register, authenticate (throttled), start, load and end a login, change
the password."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from werkzeug.security import check_password_hash, generate_password_hash

from quizapp import srs
from quizapp.models import LoginSession, User
from quizapp.models.account import BROWSER_MAX, USERNAME_MAX
from quizapp.services.errors import InvalidCredentials, ServiceError
from quizapp.services.login_limits import (
    LoginLimits,
    mark_login_succeeded,
    reserve_login_attempt,
)
from quizapp.services.registration_limits import RegistrationLimit, reserve_registration
from quizapp.services.settings import validate_time_zone

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
    session: Session, username: str, password: str, now: datetime, *, hash_method: str,
    time_zone: str = srs.DEFAULT_ZONE, address: str | None = None,
    limit: RegistrationLimit | None = None,
) -> User:
    """Create an account; raises ServiceError when the name is taken or the input is invalid.

    ``time_zone`` (the browser's, at registration) decides when the study day turns
    over until the person changes it in settings. With ``address`` and ``limit`` (the web
    form) the attempt is counted first and refused with LoginThrottled over the limit.
    """
    if address is not None and limit is not None:
        reserve_registration(session, address, now, limit)
    username = canonicalize_username(username)
    validate_username(username)
    validate_password(password)
    validate_time_zone(time_zone)
    if session.scalar(select(User.id).where(User.username == username)) is not None:
        raise ServiceError("That username is taken; pick another.")
    user = User(
        username=username, password_hash=generate_password_hash(password, method=hash_method),
        created_at=now, time_zone=time_zone)
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
    the client logged in to account ``user_id``, named ``username``, while its session version
    was ``session_version``."""

    username: str
    session_version: int
    nonce: str
    user_id: int | None = None  # None in a cookie written before accounts could be deleted


def trusted_device(device: DeviceCookie | None, user: User | None) -> str | None:
    """The device's nonce when its cookie names this account at its current session version:
    changing the password (a version bump) makes every other device anonymous again. The
    account is named by its id too (ids are never reused): a deleted account's devices are
    strangers to a new account that took its name."""
    if (device is None or user is None or device.user_id != user.id
            or device.username != user.username
            or device.session_version != user.session_version):
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
    user = session.scalar(select(User).where(User.username == username))
    nonce = trusted_device(device, user)
    attempt_id = reserve_login_attempt(session, username, address, now, limits, nonce,
                                       account_created=user.created_at if user else None)
    stored = user.password_hash if user else compute_dummy_hash(hash_method)
    if not (check_password_hash(stored, password) and user is not None):
        raise InvalidCredentials("That username and password do not match an account.")
    mark_login_succeeded(session, attempt_id)
    session.commit()
    return user


@dataclass(frozen=True)
class SignedInUser:
    """The signed-in account as every request reads it: a plain row, not an ORM entity.

    Flask-Login loads the user on every request, and building an ORM ``User`` costs more than
    the indexed lookup itself. Use cases that change the account load ``User`` (load_account).
    ``login_id`` and ``nonce`` name the login (LoginSession) this request is signed in with.
    """

    id: int
    username: str
    session_version: int
    desired_retention: float
    new_per_day: int
    reviews_per_day: int
    maximum_interval_days: int
    new_from_level: str
    time_zone: str
    keyboard_shortcuts: bool
    theme: str
    undo_count: int
    last_undo_item_id: int | None
    login_id: int
    nonce: str = field(repr=False)

    @property
    def identity(self) -> str:
        """The login's identity "<id>.<session_version>.<login_id>.<nonce>" (what the web layer
        gives Flask-Login): it stops working when the login is ended (logout, password change)
        or the session version is bumped (load_user_for_session)."""
        return f"{self.id}.{self.session_version}.{self.login_id}.{self.nonce}"


# Flask-Login's remember-cookie lifetime; the web layer passes the configured one.
DEFAULT_LOGIN_LIFETIME = timedelta(days=365)
NONCE_BYTES = 24  # secrets.token_urlsafe(24): 32 characters of [A-Za-z0-9_-]
# Bounded digit runs (ids fit a 64-bit integer); a two-part identity from before logins were
# recorded does not match, so its cookie simply counts as signed out.
IDENTITY_PATTERN = re.compile(r"([0-9]{1,18})\.([0-9]{1,9})\.([0-9]{1,18})\.([A-Za-z0-9_-]{32})")
IDENTITY_MAX = 18 + 9 + 18 + 32 + 3


def hash_nonce(nonce: str) -> str:
    return hashlib.sha256(nonce.encode("ascii")).hexdigest()


_USER = User.__table__
_LOGIN = LoginSession.__table__
# Runs on every logged-in request: a Core statement built once, on the session's connection.
# One primary-key lookup of the login joined to its account by primary key.
LOAD_SIGNED_IN_USER = select(
    _USER.c.id, _USER.c.username, _USER.c.session_version, _USER.c.desired_retention,
    _USER.c.new_per_day, _USER.c.reviews_per_day, _USER.c.maximum_interval_days,
    _USER.c.new_from_level, _USER.c.time_zone, _USER.c.keyboard_shortcuts, _USER.c.theme,
    _USER.c.undo_count,
    _USER.c.last_undo_item_id, _LOGIN.c.created_at, _LOGIN.c.nonce_hash, _LOGIN.c.last_seen_at,
).select_from(_LOGIN.join(_USER, _USER.c.id == _LOGIN.c.user_id)).where(
    _LOGIN.c.id == bindparam("login_id"), _LOGIN.c.user_id == bindparam("user_id"))


def compute_signed_in_user(account: Any, login_id: int, nonce: str) -> SignedInUser:
    """The SignedInUser of ``account`` (a User, or a LOAD_SIGNED_IN_USER row: the same names)
    signed in with the login ``login_id``."""
    return SignedInUser(
        account.id, account.username, account.session_version, account.desired_retention,
        account.new_per_day, account.reviews_per_day, account.maximum_interval_days,
        account.new_from_level, account.time_zone, account.keyboard_shortcuts, account.theme,
        account.undo_count, account.last_undo_item_id, login_id=login_id, nonce=nonce)


def load_user_for_session(session: Session, identity: str, *,
                          not_before: datetime | None = None,
                          now: datetime | None = None) -> SignedInUser | None:
    """A login's identity (SignedInUser.identity) -> the user, or None when malformed, ended, stale or (with
    ``not_before``) started before that moment: a copied remember cookie carries no expiry of
    its own, so a login past its lifetime is refused here, not only pruned at the next login."""
    match = IDENTITY_PATTERN.fullmatch(identity) if len(identity) <= IDENTITY_MAX else None
    if match is None:
        return None
    user_id, version, login_id, nonce = match.groups()
    row = session.connection().execute(
        LOAD_SIGNED_IN_USER, {"login_id": int(login_id), "user_id": int(user_id)}).first()
    if row is None or row.session_version != int(version):
        return None
    if not hmac.compare_digest(row.nonce_hash, hash_nonce(nonce)):
        return None
    if not_before is not None and row.created_at < not_before:
        return None
    if now is not None and (row.last_seen_at or row.created_at) < now - LAST_SEEN_EVERY:
        # Renewed once in a while, not at every request: one more write per login and period.
        session.execute(update(LoginSession).where(LoginSession.id == int(login_id))
                        .values(last_seen_at=now))
        session.commit()
    return compute_signed_in_user(row, int(login_id), nonce)


# How stale a login's "last seen" may get before a request renews it.
LAST_SEEN_EVERY = timedelta(minutes=10)


@dataclass(frozen=True)
class LoginInfo:
    """One of the account's logins as Settings lists it."""

    id: int
    created_at: datetime
    last_seen_at: datetime
    browser: str | None
    current: bool


def list_logins(session: Session, user_id: int, current_login_id: int) -> list[LoginInfo]:
    """The account's logins, this one first, then the most recently seen."""
    rows = session.execute(
        select(LoginSession.id, LoginSession.created_at, LoginSession.last_seen_at,
               LoginSession.browser).where(LoginSession.user_id == user_id)).all()
    logins = [LoginInfo(row.id, row.created_at, row.last_seen_at or row.created_at, row.browser,
                        row.id == current_login_id) for row in rows]
    return sorted(logins, key=lambda login: (not login.current, -login.last_seen_at.timestamp()))


def end_other_logins(session: Session, user_id: int, keep_login_id: int) -> int:
    """Sign out every other session of the account; commits and returns how many ended."""
    ended = session.connection().execute(delete(LoginSession).where(
        LoginSession.user_id == user_id, LoginSession.id != keep_login_id)).rowcount
    session.commit()
    return ended


def _add_login(session: Session, user: User, now: datetime, lifetime: timedelta,
               browser: str | None = None) -> SignedInUser:
    """A new login row for ``user`` (flushed, not committed); logins older than ``lifetime``
    (the longest a cookie naming them stays valid) are pruned, so the table stays small.
    ``browser`` is the client's User-Agent, kept (cut) to name the login in Settings."""
    session.execute(delete(LoginSession).where(LoginSession.created_at < now - lifetime))
    nonce = secrets.token_urlsafe(NONCE_BYTES)
    login = LoginSession(user_id=user.id, nonce_hash=hash_nonce(nonce), created_at=now,
                         last_seen_at=now, browser=(browser or "")[:BROWSER_MAX] or None)
    session.add(login)
    session.flush()
    return compute_signed_in_user(user, login.id, nonce)


def start_login(session: Session, user: User, *, now: datetime,
                lifetime: timedelta = DEFAULT_LOGIN_LIFETIME, browser: str | None = None,
                ) -> SignedInUser:
    """Record a new login of ``user`` (after registering or authenticating) and commit; log
    the client in with the returned user, whose identity names this login."""
    signed_in = _add_login(session, user, now, lifetime, browser)
    session.commit()
    return signed_in


def end_login(session: Session, user_id: int, login_id: int) -> bool:
    """Log out (this login, or another of the account's from Settings): delete the login, so
    every copy of its session or remember cookie stops working. False: no such login of the
    account (already ended, or another account's)."""
    ended = session.connection().execute(delete(LoginSession).where(
        LoginSession.id == login_id, LoginSession.user_id == user_id)).rowcount
    session.commit()
    return ended == 1


def load_account(session: Session, user_id: int) -> User:
    """The ORM account, for use cases that change it (settings, password)."""
    user = session.get(User, user_id)
    if user is None:
        raise InvalidCredentials("That account no longer exists.")
    return user


def change_password(
    session: Session, user: User, current: str, new: str, *, hash_method: str, address: str,
    now: datetime, limits: LoginLimits, device: DeviceCookie | None = None,
    lifetime: timedelta = DEFAULT_LOGIN_LIFETIME, browser: str | None = None,
) -> SignedInUser:
    """Replace the password and sign out every other session: every login of the account is
    deleted (and session_version bumped); returns the new login for this client.

    Checking the current password is a login attempt: it is throttled and counted like one,
    so a signed-in cookie does not allow unlimited guesses of the password.
    """
    validate_password(new)  # before spending an attempt on a change that would be refused
    nonce = trusted_device(device, user)
    attempt_id = reserve_login_attempt(session, user.username, address, now, limits, nonce,
                                       account_created=user.created_at)
    if not check_password_hash(user.password_hash, current):
        raise InvalidCredentials("The current password is not right.")
    mark_login_succeeded(session, attempt_id)
    user.password_hash = generate_password_hash(new, method=hash_method)
    user.session_version += 1
    session.execute(delete(LoginSession).where(LoginSession.user_id == user.id))
    signed_in = _add_login(session, user, now, lifetime, browser)
    session.commit()
    return signed_in
