"""The Settings page as every form on it renders it, with the settings it was shown with signed
into it (the settings, password and delete-account forms all come back to this page)."""

from __future__ import annotations

from dataclasses import astuple

from flask import render_template
from flask_login import current_user
from itsdangerous import BadSignature

from quizapp.extensions import db
from quizapp.services import account_data, accounts, teams
from quizapp.services.settings import StudySettings, read_settings
from quizapp.web.account.forms import DeleteAccountForm, PasswordForm, SettingsForm
from quizapp.web.http.signing import current_serializer

# The settings a form was shown with ride in it, signed, so a save changes only what the
# person changed on that form (services.settings.merge_settings).
SHOWN_SALT = "quizapp.settings-shown"


def sign_shown_settings(settings: StudySettings) -> str:
    return current_serializer(SHOWN_SALT).dumps([current_user.id, *astuple(settings)])


def read_shown_settings(token: str | None) -> StudySettings | None:
    """The settings the posted form was shown with; None from a page without them (older)."""
    try:
        user_id, *values = current_serializer(SHOWN_SALT).loads(token or "")
        return StudySettings(*values) if user_id == current_user.id else None
    except (BadSignature, ValueError, TypeError):
        return None


def render_settings_page(settings_form: SettingsForm, password_form: PasswordForm, status: int,
                         shown_settings: str | None = None,
                         delete_form: DeleteAccountForm | None = None):
    return render_template(
        "settings.html", form=settings_form, password_form=password_form,
        shown_settings=shown_settings or sign_shown_settings(read_settings(current_user)),
        delete_form=delete_form or DeleteAccountForm(formdata=None),
        review_count=account_data.count_reviews(db.session, current_user.id),
        practice_count=account_data.count_practice_answers(db.session, current_user.id),
        team_count=account_data.count_teams(db.session, current_user.id),
        owned_teams=teams.list_owned_teams(db.session, current_user.id),
        logins=accounts.list_logins(db.session, current_user.id, current_user.login_id)), status
