"""Settings area: desired retention, daily limits, day boundary, shortcuts, and the password."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from quizapp.extensions import db
from quizapp.services import accounts
from quizapp.services.errors import LoginThrottled, ServiceError
from quizapp.services.settings import StudySettings, read_settings, update_settings
from quizapp.web.auth import (
    compute_retry_headers,
    current_login_limits,
    has_remember_cookie,
    login_lifetime,
    read_device,
    set_device_cookie,
    start_new_session,
)
from quizapp.web.forms import PasswordForm, SettingsForm
from quizapp.web.runtime import client_address, current_time

bp = Blueprint("settings", __name__)


def render_settings_page(settings_form: SettingsForm, password_form: PasswordForm, status: int):
    return render_template("settings.html", form=settings_form, password_form=password_form), status


@bp.route("/settings", methods=["GET", "POST"])
@login_required
def index():
    current = read_settings(current_user)
    form = SettingsForm(data=asdict(current), now=current_time())
    if form.validate_on_submit():
        try:
            update_settings(db.session, accounts.load_account(db.session, current_user.id),
                            StudySettings(
                                float(form.desired_retention.data), form.new_per_day.data,
                                form.reviews_per_day.data, form.time_zone.data,
                                form.chosen_shortcuts(current.keyboard_shortcuts)))
        except ServiceError as exc:
            form.desired_retention.errors = [exc.message]
            return render_settings_page(form, PasswordForm(formdata=None), 400)
        flash("Settings saved.", "success")
        return redirect(url_for("settings.index"), 303)
    return render_settings_page(form, PasswordForm(formdata=None),
                                400 if form.is_submitted() else 200)


@bp.route("/settings/password", methods=["POST"])
@login_required
def password():
    form = PasswordForm()
    status, headers = 400, {}
    if form.validate_on_submit():
        account = accounts.load_account(db.session, current_user.id)
        try:
            signed_in = accounts.change_password(
                db.session, account, form.current.data, form.new.data,
                hash_method=current_app.config["PASSWORD_HASH_METHOD"],
                address=client_address(), now=current_time(), limits=current_login_limits(),
                lifetime=login_lifetime(), device=read_device())
        except LoginThrottled as exc:  # wrong current passwords count as failed logins
            form.current.errors = [exc.message]
            status, headers = 429, compute_retry_headers(exc)
        except ServiceError as exc:
            form.current.errors = [exc.message]
        else:
            # A new session and CSRF token, naming the new login; the other logins are gone.
            # A client that chose "keep me logged in" keeps it: its remember cookie named the
            # login the change just ended.
            start_new_session(signed_in, remember=has_remember_cookie())
            flash("Password changed. Other devices are signed out.", "success")
            # This device stays known; the others' device cookies named the old version.
            return set_device_cookie(redirect(url_for("settings.index"), 303), account)
    current = read_settings(current_user)
    settings_form = SettingsForm(formdata=None, data=asdict(current), now=current_time())
    page, _ = render_settings_page(settings_form, form, status)
    return page, status, headers
