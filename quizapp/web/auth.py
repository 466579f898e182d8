"""Accounts area: register, log in (throttled), log out; Flask-Login wiring."""

from __future__ import annotations

import secrets
from datetime import timedelta
from math import ceil

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required, login_url, login_user, logout_user
from flask_login.config import COOKIE_DURATION, COOKIE_NAME
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.wrappers import Response

from quizapp import srs
from quizapp.extensions import db, login_manager
from quizapp.models import User
from quizapp.services import accounts
from quizapp.services.errors import InvalidCredentials, LoginThrottled, ServiceError
from quizapp.services.login_limits import LoginLimits
from quizapp.services.registration_limits import RegistrationLimit
from quizapp.web.forms import LoginForm, RegisterForm, read_browser_zone
from quizapp.web.runtime import client_address, compute_safe_next, current_time
from quizapp.web.signing import current_serializer

bp = Blueprint("auth", __name__)

# The device cookie (see services/login_limits.py): signed, naming the account and a nonce.
DEVICE_COOKIE = "quizapp_device"
DEVICE_SALT = "quizapp.device-cookie"
DEVICE_MAX_AGE = timedelta(days=180)


def init_login_manager(_app: Flask) -> None:
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Log in to study: your progress is saved to your account."
    login_manager.login_message_category = "info"
    login_manager.session_protection = "basic"

    @login_manager.user_loader
    def load_user(identity: str) -> accounts.SignedInUser | None:
        return accounts.load_user_for_session(
            db.session, identity, not_before=current_time() - login_lifetime())

    login_manager.unauthorized_handler(ask_to_log_in)


# Where a form posted while signed out leads back to after logging in: its own page.
FORM_PAGES = {"study": "study.index", "settings": "settings.index",
              "account_data": "settings.index"}


def ask_to_log_in() -> Response:
    """Send a signed-out visitor to the login page and, after it, back where they were.

    A page asked for (GET) is the target, as Flask-Login does by default. A form posted while
    signed out (the login ended on another device, or expired) was not saved, and its URL only
    takes POST, so logging in would end on a 405: the target is the page the form was on, and
    the message says that the last action was not saved.
    """
    if request.endpoint == "auth.logout":  # what was asked for is already the case
        flash("You are logged out.", "info")
        return redirect(url_for("auth.login"))
    if request.method in ("GET", "HEAD"):
        flash(login_manager.login_message, login_manager.login_message_category)
        # The path, not request.url: building the absolute URL decodes the Host header, and
        # an invalid punycode label ("xn--zz") raised there, a 500 (notes/s10/retest.md).
        target = request.full_path.rstrip("?")
    else:
        flash("You were signed out, so that was not saved. Log in and carry on from here.",
              "warning")
        target = url_for(FORM_PAGES.get(request.blueprint or "", "study.index"))
    return redirect(login_url(login_manager.login_view, next_url=target))


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


def set_device_cookie(response: Response, user: User) -> Response:
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


def start_new_session(signed_in: accounts.SignedInUser, *, remember: bool = False) -> None:
    """Log in on a fresh session: nothing from before the login (such as a CSRF token someone
    planted in the visitor's cookie) stays valid after it. The ``next`` target lives in the
    query string, not the session, so nothing needs to be carried over. ``signed_in`` names
    a login recorded by accounts.start_login (or change_password)."""
    session.clear()
    login_user(signed_in, remember=remember)


def sign_in(user: User, *, remember: bool = False) -> None:
    """Record a new login of ``user`` and log this client in with it."""
    start_new_session(accounts.start_login(db.session, user, now=current_time(),
                                           lifetime=login_lifetime()), remember=remember)


@bp.route("/register", methods=["GET", "POST"])
def register():
    if current_user.is_authenticated:
        return redirect(url_for("study.index"))
    form = RegisterForm()
    status, message, headers = 200, None, {}
    if form.validate_on_submit():
        try:
            user = accounts.register(
                db.session, form.username.data, form.password.data, current_time(),
                hash_method=current_app.config["PASSWORD_HASH_METHOD"],
                time_zone=read_browser_zone(form.time_zone.data, form.utc_offset.data),
                address=client_address(), limit=current_registration_limit())
        except LoginThrottled as exc:
            status, message, headers = 429, exc.message, compute_retry_headers(exc)
        except ServiceError as exc:
            form.username.errors = [*form.username.errors, exc.message]
            status = 400
        else:
            sign_in(user)
            zone = srs.describe_zone(user.time_zone, current_time())  # the offset clears up
            # names such as Etc/GMT+12 (which is UTC-12:00)
            flash(f"Welcome, {user.username}. Your first items are ready. Your study day turns "
                  f"over at 04:00 in {zone}; change the time zone in Settings.", "success")
            target = compute_safe_next(request.args.get("next"), url_for("study.index"))
            return set_device_cookie(redirect(target), user)
    elif form.is_submitted():
        status = 400
    return render_template("auth/register.html", form=form, message=message,
                           next_url=read_next()), status, headers


def read_next() -> str | None:
    """The page a visitor was asked to log in for (?next=, same-site only), which the login and
    register pages hand on to each other, so a new account also lands there."""
    target = compute_safe_next(request.args.get("next"), "")
    return target or None


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(url_for("study.index"))
    form = LoginForm()
    status, headers, message = 200, {}, None
    if form.validate_on_submit():
        try:
            user = accounts.authenticate(
                db.session, form.username.data, form.password.data, address=client_address(),
                now=current_time(), limits=current_login_limits(),
                hash_method=current_app.config["PASSWORD_HASH_METHOD"],
                device=read_device())
        except LoginThrottled as exc:
            status, message, headers = 429, exc.message, compute_retry_headers(exc)
        except InvalidCredentials as exc:
            status, message = 401, exc.message
        else:
            target = compute_safe_next(request.args.get("next"), url_for("study.index"))
            sign_in(user, remember=form.remember.data)
            return set_device_cookie(redirect(target), user)
    elif form.is_submitted():
        status = 400
    return render_template("auth/login.html", form=form, message=message,
                           next_url=read_next()), status, headers


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    """A POST, so another site cannot log a visitor out with a link. The login is deleted on
    the server, so copies of this client's session or remember cookie stop working too."""
    # CSRFProtect has checked the post's token before this view runs
    accounts.end_login(db.session, current_user.id, current_user.login_id)
    logout_user()
    flash("You are logged out. Your progress is saved.", "info")
    return redirect(url_for("questions.index"))
