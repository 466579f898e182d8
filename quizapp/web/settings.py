"""Settings area: desired retention, daily limits, day boundary, and the password."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from flask_login import current_user, login_required, login_user

from quizapp.extensions import db
from quizapp.services import accounts
from quizapp.services.errors import ServiceError
from quizapp.services.settings import StudySettings, read_settings, update_settings
from quizapp.web.forms import PasswordForm, SettingsForm

bp = Blueprint("settings", __name__)


def render_settings_page(settings_form: SettingsForm, password_form: PasswordForm, status: int):
    return render_template("settings.html", form=settings_form, password_form=password_form), status


@bp.route("/settings", methods=["GET", "POST"])
@login_required
def index():
    current = read_settings(current_user)
    form = SettingsForm(data=asdict(current))
    if form.validate_on_submit():
        try:
            update_settings(db.session, accounts.load_account(db.session, current_user.id),
                            StudySettings(
                                float(form.desired_retention.data), form.new_per_day.data,
                                form.reviews_per_day.data, form.utc_offset_minutes.data))
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
    if form.validate_on_submit():
        account = accounts.load_account(db.session, current_user.id)
        try:
            accounts.change_password(db.session, account, form.current.data, form.new.data,
                                     hash_method=current_app.config["PASSWORD_HASH_METHOD"])
        except ServiceError as exc:
            form.current.errors = [exc.message]
        else:
            login_user(account)  # re-issue this session with the new session version
            flash("Password changed. Other devices are signed out.", "success")
            return redirect(url_for("settings.index"), 303)
    current = read_settings(current_user)
    settings_form = SettingsForm(formdata=None, data=asdict(current))
    return render_settings_page(settings_form, form, 400)
