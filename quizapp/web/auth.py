"""Accounts area: register, log in (throttled), log out; Flask-Login wiring."""

from __future__ import annotations

from datetime import timedelta
from math import ceil

from flask import Blueprint, Flask, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user

from quizapp.extensions import db, login_manager
from quizapp.models import User
from quizapp.services import accounts
from quizapp.services.errors import InvalidCredentials, LoginThrottled, ServiceError
from quizapp.services.login_limits import LoginLimits
from quizapp.web.forms import LoginForm, RegisterForm
from quizapp.web.runtime import client_address, compute_safe_next, current_time

bp = Blueprint("auth", __name__)


def init_login_manager(_app: Flask) -> None:
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Log in to study: your progress is saved to your account."
    login_manager.login_message_category = "info"
    login_manager.session_protection = "basic"

    @login_manager.user_loader
    def load_user(identity: str) -> User | None:
        return accounts.load_user_for_session(db.session, identity)


def current_login_limits() -> LoginLimits:
    config = current_app.config
    return LoginLimits(
        per_account=config["LOGIN_LIMIT_PER_ACCOUNT"], per_address=config["LOGIN_LIMIT_PER_ADDRESS"],
        window=timedelta(minutes=config["LOGIN_LIMIT_WINDOW_MINUTES"]))


@bp.route("/register", methods=["GET", "POST"])
def register():
    if current_user.is_authenticated:
        return redirect(url_for("study.index"))
    form = RegisterForm()
    status = 200
    if form.validate_on_submit():
        try:
            user = accounts.register(
                db.session, form.username.data, form.password.data, current_time(),
                hash_method=current_app.config["PASSWORD_HASH_METHOD"])
        except ServiceError as exc:
            form.username.errors = [*form.username.errors, exc.message]
            status = 400
        else:
            login_user(user)
            flash(f"Welcome, {user.username}. Your first items are ready.", "success")
            return redirect(url_for("study.index"))
    elif form.is_submitted():
        status = 400
    return render_template("auth/register.html", form=form), status


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
                hash_method=current_app.config["PASSWORD_HASH_METHOD"])
        except LoginThrottled as exc:
            status, message = 429, exc.message
            headers["Retry-After"] = str(ceil(exc.retry_after.total_seconds()))
        except InvalidCredentials as exc:
            status, message = 401, exc.message
        else:
            login_user(user, remember=form.remember.data)
            return redirect(compute_safe_next(request.args.get("next"), url_for("study.index")))
    elif form.is_submitted():
        status = 400
    return render_template("auth/login.html", form=form, message=message), status, headers


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    """A POST, so another site cannot log a visitor out with a link."""
    logout_user()  # CSRFProtect has checked the post's token before this view runs
    flash("You are logged out. Your progress is saved.", "info")
    return redirect(url_for("questions.index"))
