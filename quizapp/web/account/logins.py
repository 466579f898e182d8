"""A login's cookies and limits, shared by the account area's pages: the device cookie, the
login and registration limits from the configuration, starting a fresh session."""

from __future__ import annotations

import secrets
from dataclasses import fields
from datetime import timedelta
from math import ceil

from flask import current_app, request, session
from flask_login import UserMixin, login_user
from flask_login.config import COOKIE_DURATION, COOKIE_NAME
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.wrappers import Response

from quizapp.extensions import db
from quizapp.services import accounts
from quizapp.services.errors import LoginThrottled
from quizapp.services.items import Account
from quizapp.services.login_limits import LoginLimits
from quizapp.services.registration_limits import RegistrationLimit
from quizapp.web.http.runtime import current_time
from quizapp.web.http.signing import current_serializer

# The device cookie (see services/login_limits.py): signed, naming the account and a nonce.
DEVICE_COOKIE = "quizapp_device"
DEVICE_SALT = "quizapp.device-cookie"
DEVICE_MAX_AGE = timedelta(days=180)


def compute_retry_headers(throttled: LoginThrottled) -> dict[str, str]:
    """The Retry-After header of a 429 answer, in whole seconds."""
    return {"Retry-After": str(ceil(throttled.retry_after.total_seconds()))}


def current_registration_limit() -> RegistrationLimit:
    config = current_app.config
    return RegistrationLimit(per_address=config["REGISTER_LIMIT_PER_ADDRESS"],
                             window=timedelta(minutes=config["REGISTER_LIMIT_WINDOW_MINUTES"]))


def current_login_limits() -> LoginLimits:
    config = current_app.config
    # A device gets as many tries as the anonymous clients together: LOGIN_LIMIT_PER_ACCOUNT.
    return LoginLimits(
        per_account=config["LOGIN_LIMIT_PER_ACCOUNT"], per_address=config["LOGIN_LIMIT_PER_ADDRESS"],
        per_device=config["LOGIN_LIMIT_PER_ACCOUNT"],
        window=timedelta(minutes=config["LOGIN_LIMIT_WINDOW_MINUTES"]))


def _device_serializer() -> URLSafeTimedSerializer:
    return current_serializer(DEVICE_SALT, timed=True)


def read_device() -> accounts.DeviceCookie | None:
    """What this request's device cookie claims, when its signature is valid and recent."""
    cookie = request.cookies.get(DEVICE_COOKIE)
    if not cookie or len(cookie) > 300:
        return None
    try:
        # [username, version, nonce, user id]; a cookie from before it named the id has three.
        username, version, nonce, *rest = _device_serializer().loads(
            cookie, max_age=int(DEVICE_MAX_AGE.total_seconds()))
    except (BadData, ValueError, TypeError):
        return None
    user_id = rest[0] if len(rest) == 1 and type(rest[0]) is int else None
    if not (isinstance(username, str) and isinstance(nonce, str) and type(version) is int):
        return None
    return accounts.DeviceCookie(username, version, nonce, user_id)


def set_device_cookie(response: Response, user: Account) -> Response:
    """After a successful login (or password change): this client knows the password."""
    value = _device_serializer().dumps(
        [user.username, user.session_version, secrets.token_urlsafe(16), user.id])
    response.set_cookie(
        DEVICE_COOKIE, value, max_age=int(DEVICE_MAX_AGE.total_seconds()), httponly=True,
        samesite="Lax", secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def clear_device_cookie(response: Response) -> Response:
    """The account this client knew is gone: its device cookie goes too (same attributes)."""
    response.delete_cookie(DEVICE_COOKIE, httponly=True, samesite="Lax",
                           secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


def login_lifetime() -> timedelta:
    """The longest a cookie naming a login stays valid: the remember cookie's lifetime (or the
    session cookie's, if longer). Logins older than this are pruned."""
    config = current_app.config
    remember = config.get("REMEMBER_COOKIE_DURATION", COOKIE_DURATION)
    if isinstance(remember, int | float):
        remember = timedelta(seconds=remember)
    return max(remember, current_app.permanent_session_lifetime)


def has_remember_cookie() -> bool:
    """Whether this client chose "keep me logged in" (Flask-Login's remember cookie is here)."""
    name = current_app.config.get("REMEMBER_COOKIE_NAME", COOKIE_NAME)
    return bool(request.cookies.get(name))


class CurrentUser(accounts.SignedInUser, UserMixin):
    """The signed-in user as Flask-Login holds it (``current_user``): the services' plain row,
    with UserMixin's flags and the login's identity as Flask-Login's id."""

    def get_id(self) -> str:
        return self.identity


def as_current_user(user: accounts.SignedInUser) -> CurrentUser:
    """The services' SignedInUser, as Flask-Login's user."""
    return CurrentUser(**{field.name: getattr(user, field.name) for field in fields(user)})


def start_new_session(signed_in: accounts.SignedInUser, *, remember: bool = False) -> None:
    """Log in on a fresh session: nothing from before the login (such as a CSRF token someone
    planted in the visitor's cookie) stays valid after it. The ``next`` target lives in the
    query string, not the session, so nothing needs to be carried over. ``signed_in`` names
    a login recorded by accounts.start_login (or change_password)."""
    session.clear()
    login_user(as_current_user(signed_in), remember=remember)


def sign_in(user: Account, *, remember: bool = False) -> None:
    """Record a new login of ``user`` and log this client in with it."""
    start_new_session(accounts.start_login(db.session, user, now=current_time(),
                                           lifetime=login_lifetime(), browser=read_browser()),
                      remember=remember)


def read_browser() -> str | None:
    """The client's User-Agent, which names its login in Settings' list of sessions."""
    return request.headers.get("User-Agent") or None
