"""The Settings page's form to delete the account (forms.py holds the others)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, Length

from quizapp.services.accounts import PASSWORD_MAX
from quizapp.web.forms import CURRENT_PASSWORD_INPUT, USERNAME_MAX_INPUT

PASSWORD_TOO_LONG = f"A password is at most {PASSWORD_MAX} characters long."
# The name is typed to confirm, not filled in: a password manager must not offer it.
CONFIRM_NAME_INPUT = {"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}


class DeleteAccountForm(FlaskForm):
    """Deleting needs the password (a throttled login attempt) and the username typed out."""

    # Ids of their own: the Settings page also has the password form's fields.
    password = PasswordField(
        "Your password", id="delete_password", render_kw=CURRENT_PASSWORD_INPUT,
        validators=[DataRequired(message="Type your password."),
                    Length(1, PASSWORD_MAX, message=PASSWORD_TOO_LONG)])
    confirm_username = StringField(
        "Your username, typed to confirm", render_kw=CONFIRM_NAME_INPUT,
        validators=[DataRequired(message="Type your username."),
                    Length(1, USERNAME_MAX_INPUT, message="That is not your username.")])
