"""Accounts area: register, log in (throttled), log out; Flask-Login wiring."""

from __future__ import annotations

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required, login_url, logout_user
from werkzeug.wrappers import Response

from quizapp import srs
from quizapp.extensions import db, login_manager
from quizapp.services import accounts
from quizapp.services.errors import InvalidCredentials, LoginThrottled, ServiceError
from quizapp.web.account.forms import LoginForm, RegisterForm, read_browser_zone
from quizapp.web.account.logins import (
    CurrentUser,
    as_current_user,
    compute_retry_headers,
    current_login_limits,
    current_registration_limit,
    login_lifetime,
    read_device,
    set_device_cookie,
    sign_in,
)
from quizapp.web.http.runtime import client_address, compute_safe_next, current_time

bp = Blueprint("auth", __name__)


def init_login_manager(_app: Flask) -> None:
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Log in to study: your progress is saved to your account."
    login_manager.login_message_category = "info"
    login_manager.session_protection = "basic"

    @login_manager.user_loader
    def load_user(identity: str) -> CurrentUser | None:
        now = current_time()
        user = accounts.load_user_for_session(
            db.session, identity, not_before=now - login_lifetime(), now=now)
        return as_current_user(user) if user is not None else None

    login_manager.unauthorized_handler(ask_to_log_in)


# Where a form posted while signed out leads back to after logging in: its own page.
FORM_PAGES = {"study": "study.index", "settings": "settings.index",
              "account_data": "settings.index", "teams": "teams.index"}


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
        # an invalid punycode label ("xn--zz") raised there, a 500.
        target = request.full_path.rstrip("?")
    else:
        flash("You were signed out, so that was not saved. Log in and carry on from here.",
              "warning")
        target = url_for(FORM_PAGES.get(request.blueprint or "", "study.index"))
    return redirect(login_url(login_manager.login_view, next_url=target))


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
