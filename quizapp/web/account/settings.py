"""Settings area: retention, longest interval, daily limits, day boundary, keys, password."""

from __future__ import annotations

from dataclasses import asdict

from flask import Blueprint, abort, current_app, flash, redirect, url_for
from flask_login import current_user, login_required

from quizapp import srs
from quizapp.extensions import db
from quizapp.services import accounts
from quizapp.services.errors import LoginThrottled, ServiceError
from quizapp.services.settings import (
    NEW_FROM_LEVEL_LABELS,
    SETTING_LABELS,
    THEME_LABELS,
    MergedSettings,
    StudySettings,
    count_past_cap,
    merge_settings,
    read_settings,
    update_settings,
)
from quizapp.web.account.forms import PasswordForm, SettingsForm
from quizapp.web.account.logins import (
    compute_retry_headers,
    current_login_limits,
    has_remember_cookie,
    login_lifetime,
    read_browser,
    read_device,
    set_device_cookie,
    start_new_session,
)
from quizapp.web.account.settings_page import read_shown_settings, render_settings_page
from quizapp.web.http.runtime import client_address, current_time

bp = Blueprint("settings", __name__)


def describe_merge(merged: MergedSettings) -> str:
    """"Settings saved." and, where another tab or device saved something meanwhile, what."""
    text = "Settings saved."
    if merged.kept:
        kept = ", ".join(f"{SETTING_LABELS[name]} {format_setting(merged.settings, name)}"
                         for name in merged.kept)
        text += f" Kept what another tab or device saved after this page was opened: {kept}."
    if merged.replaced:
        names = ", ".join(SETTING_LABELS[name] for name in merged.replaced)
        text += f" Yours replaced what was saved there meanwhile for: {names}."
    return text


def describe_moved(moved: int, days: int) -> str:
    """What bringing the dues forward did, for the confirmation."""
    limit = format_interval_days(days)
    if not moved:
        return f"No item was scheduled later than {limit} after its last review."
    items = "1 item" if moved == 1 else f"{moved} items"
    return (f"{items} scheduled later than {limit} after {'its' if moved == 1 else 'their'} "
            f"last review now {'comes' if moved == 1 else 'come'} back by then (or now, "
            "if that day has passed).")


def describe_left(left: int, days: int) -> str:
    """After a lower cap saved without the box: the items it leaves due later, if any."""
    if not left:
        return ""
    items = "1 item stays" if left == 1 else f"{left} items stay"
    return (f" {items} due later than {format_interval_days(days)} after "
            f"{'its' if left == 1 else 'their'} last review; tick “Also bring forward what is "
            f"scheduled later than that” and save again to move {'it' if left == 1 else 'them'}.")


def format_interval_days(days: int) -> str:
    return f"{days} day{'' if days == 1 else 's'}"


def format_setting(settings: StudySettings, name: str) -> str:
    value = getattr(settings, name)
    if isinstance(value, bool):
        return "on" if value else "off"
    if name == "maximum_interval_days":
        return format_interval_days(value)
    if name == "new_from_level":
        return NEW_FROM_LEVEL_LABELS.get(value, value)
    if name == "theme":
        return THEME_LABELS.get(value, value)
    return f"{value:.2f}" if isinstance(value, float) else str(value)


@bp.route("/settings", methods=["GET", "POST"])
@login_required
def index():
    current = read_settings(current_user)
    form = SettingsForm(data=asdict(current), now=current_time())
    shown = read_shown_settings(form.shown_settings.data) if form.is_submitted() else None
    if form.validate_on_submit():
        base = shown or current  # a page without them: every field as posted, as before
        submitted = StudySettings(
            float(form.desired_retention.data), form.new_per_day.data, form.reviews_per_day.data,
            form.maximum_interval_days.data, form.new_from_level.data, form.time_zone.data,
            form.chosen_shortcuts(base.keyboard_shortcuts), form.theme.data)
        try:
            account = accounts.load_account(db.session, current_user.id)
            merged = merge_settings(base, submitted, read_settings(account))
            moved = update_settings(db.session, account, merged.settings,
                                    bring_forward=form.bring_forward.data)
        except ServiceError as exc:
            form.desired_retention.errors = [exc.message]
            return render_settings_page(form, PasswordForm(formdata=None), 400,
                                        form.shown_settings.data if shown else None)
        message = describe_merge(merged)
        days = merged.settings.maximum_interval_days
        if form.bring_forward.data:
            message += " " + describe_moved(moved, days)
        elif days < current.maximum_interval_days:
            message += describe_left(count_past_cap(db.session, account.id, days,
                                                    srs.compute_user_zone(account)), days)
        flash(message, "success")
        return redirect(url_for("settings.index"), 303)
    # A refused form keeps the settings it was first shown with, for the merge once corrected.
    return render_settings_page(form, PasswordForm(formdata=None),
                                400 if form.is_submitted() else 200,
                                form.shown_settings.data if shown else None)


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
                lifetime=login_lifetime(), device=read_device(), browser=read_browser())
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


@bp.route("/settings/sessions/<int:login_id>/end", methods=["POST"])
@login_required
def end_session(login_id: int):
    """Sign out one other session of this account (this one signs out with Log out)."""
    # CSRFProtect has checked the post's token before this view runs.
    if login_id == current_user.login_id or not accounts.end_login(
            db.session, current_user.id, login_id):
        abort(404)
    flash("That session is signed out.", "success")
    return redirect(url_for("settings.index", _anchor="sessions-title"), 303)


@bp.route("/settings/sessions/end-others", methods=["POST"])
@login_required
def end_other_sessions():
    # CSRFProtect has checked the post's token before this view runs.
    ended = accounts.end_other_logins(db.session, current_user.id, current_user.login_id)
    noun = "session is" if ended == 1 else "sessions are"
    flash(f"{ended} other {noun} signed out.", "success")
    return redirect(url_for("settings.index", _anchor="sessions-title"), 303)
