"""The account area's forms: register, log in, Settings, password, delete the account.

Flask-WTF forms: every POST carries a CSRF token and every field is bounded."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from flask_wtf import FlaskForm
from wtforms import (
    DecimalField,
    HiddenField,
    PasswordField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.fields import SelectChoice
from wtforms.validators import (
    AnyOf,
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Regexp,
    StopValidation,
    ValidationError,
)

from quizapp import srs
from quizapp.services.accounts import PASSWORD_MAX, PASSWORD_MIN, USERNAME_MIN
from quizapp.services.settings import (
    MAXIMUM_INTERVAL_RANGE,
    NEW_FROM_LEVEL_LABELS,
    NEW_FROM_LEVELS,
    NEW_PER_DAY_RANGE,
    RETENTION_RANGE,
    REVIEWS_PER_DAY_RANGE,
    THEME_LABELS,
    THEMES,
    UNKNOWN_THEME_MESSAGE,
    UNKNOWN_ZONE_MESSAGE,
)
from quizapp.web.http.fields import CheckBox, DecimalNumberField, NumberField

USERNAME_MAX_INPUT = 40
# DataRequired strips the text first, so these also answer a password of spaces only.
NO_PASSWORD = "Type a password; spaces alone do not make one."
NO_REPEAT = "Type the same password again."
PASSWORD_LENGTH = f"A password is {PASSWORD_MIN} to {PASSWORD_MAX} characters long."
PASSWORD_TOO_LONG = f"A password is at most {PASSWORD_MAX} characters long."
# WTForms' own words ("This field is required.", "Field must be between 3 and 40 characters
# long.") name no field and read unlike the rest of the page: every validator says its own.
NO_USERNAME = "Type a username."
USERNAME_LENGTH = f"A username has {USERNAME_MIN} to {USERNAME_MAX_INPUT} characters."  # as the service says


# What a phone's keyboard and password manager need to know (the autocomplete tokens let it
# offer to generate and save a password; no capital put first on a username).
USERNAME_INPUT = {"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}
NEW_PASSWORD_INPUT = {"autocomplete": "new-password"}
CURRENT_PASSWORD_INPUT = {"autocomplete": "current-password"}


class RegisterForm(FlaskForm):
    username = StringField("Username", render_kw=USERNAME_INPUT, validators=[
        DataRequired(message=NO_USERNAME),
        Length(USERNAME_MIN, USERNAME_MAX_INPUT, message=USERNAME_LENGTH),
        Regexp(r"^\s*[A-Za-z0-9][A-Za-z0-9_.-]*\s*$",
               message="Use letters, digits, '.', '_' and '-'; start with a letter or digit.")])
    password = PasswordField("Password", render_kw=NEW_PASSWORD_INPUT, validators=[
        DataRequired(message=NO_PASSWORD),
        Length(PASSWORD_MIN, PASSWORD_MAX, message=PASSWORD_LENGTH)])
    confirm = PasswordField("Repeat password", render_kw=NEW_PASSWORD_INPUT, validators=[
        DataRequired(message=NO_REPEAT), EqualTo("password", message="The two passwords differ.")])
    # Filled in by study.js with the browser's time zone ("Europe/Berlin"; a fixed
    # "UTC+05:30" where the browser names none), so the study day turns over at the person's
    # own 04:00 from the first day; without JavaScript it stays empty (UTC).
    time_zone = HiddenField()
    # The browser's offset now, in minutes east of UTC: the fallback for a zone name this
    # server does not know ("Etc/Unknown", or a zone newer than its zone database).
    utc_offset = HiddenField()


def read_browser_zone(name: str | None, offset: str | None = None) -> str:
    """The zone the registration form's hidden fields carry: the name if the server knows it,
    else the offset as a fixed zone ("UTC+05:30"), else UTC. The visitor never sees these
    fields, so a bad value is no reason to refuse them."""
    known = srs.canonicalize_zone_name(name)
    if known:
        return known
    text = (offset or "").strip()
    digits = text[1:] if text[:1] in "+-" else text
    if digits.isascii() and digits.isdigit() and len(digits) <= 4:
        return srs.canonicalize_zone_name(srs.format_fixed_offset(int(text))) or srs.DEFAULT_ZONE
    return srs.DEFAULT_ZONE


UNKNOWN_ZONE_LABEL = "{name} (unknown to this server, so UTC is used)"


def compute_zone_choices(now: datetime, stored: str | None,
                         posted: str | None = None) -> list[tuple[str, str]]:
    """(name, label) for every listed zone, labelled with its offset at ``now``
    ("Europe/Berlin (UTC+01:00 now)"). Zones the list lacks come first: the ``stored`` one
    (an alias, a fixed offset, or a name this machine's zone database lacks, which is kept
    and said to be unknown, never silently swapped for the first choice) and a ``posted``
    one the server knows (the browser's, picked by study.js)."""
    names = srs.listed_zone_names()
    extra = []
    # A stored link shows as the zone it names; a name unknown here as itself.
    stored = srs.canonicalize_zone_name(stored) or stored
    if stored and len(stored) <= srs.ZONE_NAME_MAX and stored not in names:
        extra.append(stored)
    posted = srs.canonicalize_zone_name(posted)
    if posted and posted not in names and posted not in extra:
        extra.append(posted)
    choices = []
    for name in (*extra, *names):
        try:
            choices.append((name, srs.describe_zone(name, now)))
        except ValueError:
            choices.append((name, UNKNOWN_ZONE_LABEL.format(name=name)))
    return choices


class LoginForm(FlaskForm):
    username = StringField("Username", render_kw=USERNAME_INPUT, validators=[
        DataRequired(message="Type your username."),
        Length(1, USERNAME_MAX_INPUT, message="That is not your username.")])
    password = PasswordField("Password", render_kw=CURRENT_PASSWORD_INPUT, validators=[
        DataRequired(message="Type your password."),
        Length(1, PASSWORD_MAX, message=PASSWORD_TOO_LONG)])
    remember = CheckBox("Keep me logged in on this device")


class PasswordForm(FlaskForm):
    current = PasswordField("Current password", render_kw=CURRENT_PASSWORD_INPUT, validators=[
        DataRequired(message="Type your current password."),
        Length(1, PASSWORD_MAX, message=PASSWORD_TOO_LONG)])
    new = PasswordField("New password", render_kw=NEW_PASSWORD_INPUT, validators=[
        DataRequired(message=NO_PASSWORD),
        Length(PASSWORD_MIN, PASSWORD_MAX, message=PASSWORD_LENGTH)])
    confirm = PasswordField("Repeat new password", render_kw=NEW_PASSWORD_INPUT, validators=[
        DataRequired(message=NO_REPEAT), EqualTo("new", message="The two passwords differ.")])


def stop_if_unreadable(_form: FlaskForm, field) -> None:
    """A value that could not be read as a number has already said so ("Use a whole number…");
    the range check after it would only add a second message about the same thing."""
    if field.process_errors:
        raise StopValidation()


def keep_if_not_posted(_form: FlaskForm, field) -> None:
    """A field missing from the post (a page opened before the setting existed, a script)
    keeps the stored value instead of being refused as empty; a field posted empty is
    still refused."""
    if not field.raw_data:
        field.data = field.object_data
        raise StopValidation()


class SettingsForm(FlaskForm):
    # Decimal bounds: NumberRange compares the typed Decimal("0.99") with its bounds, and the
    # float 0.99 is 0.98999..., so a float bound refused the top of the stated range.
    desired_retention = DecimalNumberField("Desired retention", places=2, validators=[
        stop_if_unreadable, InputRequired(),
        NumberRange(*(Decimal(str(bound)) for bound in RETENTION_RANGE))])
    new_per_day = NumberField("New items per day", validators=[
        stop_if_unreadable, InputRequired(), NumberRange(*NEW_PER_DAY_RANGE)])
    reviews_per_day = NumberField("Reviews per day", validators=[
        stop_if_unreadable, InputRequired(), NumberRange(*REVIEWS_PER_DAY_RANGE)])
    maximum_interval_days = NumberField("Maximum interval, in days", validators=[
        keep_if_not_posted, stop_if_unreadable, InputRequired(),
        NumberRange(*MAXIMUM_INTERVAL_RANGE)])
    new_from_level = SelectField("New items from level", choices=[
                                     SelectChoice(value, label)
                                     for value, label in NEW_FROM_LEVEL_LABELS.items()],
                                 validate_choice=False,
                                 validators=[keep_if_not_posted, AnyOf(
                                     NEW_FROM_LEVELS, message="Pick a level from the list.")])
    # Not a setting: what this one save does to the dues already set (web.account.settings.describe_moved
    # words the outcome).
    bring_forward = CheckBox("Also bring forward what is scheduled later than that")
    # Any zone the server knows is taken (study.js may pick an alias a browser reports, such
    # as "Asia/Calcutta"), so the choices only offer; validate_time_zone decides.
    time_zone = SelectField("Time zone", validate_choice=False, validators=[InputRequired()])
    keyboard_shortcuts = CheckBox("Keyboard shortcuts on study pages")
    # An unticked box is not posted at all: this says the form carried the box, so a form
    # without it (a page opened before the setting existed, a script) leaves the setting alone.
    keyboard_shortcuts_shown = HiddenField()
    # Radios, so every choice is in sight and works without script; a post without the field
    # (a page from before the setting) keeps the stored theme.
    theme = RadioField("Theme", choices=[SelectChoice(value, label)
                                         for value, label in THEME_LABELS.items()],
                       validate_choice=False,
                       validators=[keep_if_not_posted])
    # The settings this form was shown with, signed (web.account.settings_page.sign_shown_settings); one
    # that does not verify only makes the save take every field as posted.
    shown_settings = HiddenField()

    def __init__(self, *args, now: datetime, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A link is shown and saved as the zone it names ("Asia/Calcutta": Asia/Kolkata).
        self.time_zone.data = srs.canonicalize_zone_name(self.time_zone.data) or self.time_zone.data
        self.time_zone.choices = compute_zone_choices(
            now, self.time_zone.object_data, self.time_zone.data)

    def chosen_shortcuts(self, current: bool) -> bool:
        """The shortcut setting this post asks for: the box's state, if the form had the box."""
        return self.keyboard_shortcuts.data if self.keyboard_shortcuts_shown.data else current

    def validate_time_zone(self, field: SelectField) -> None:
        # The zone already stored is kept as it is, even one this server does not know.
        if field.data != field.object_data and srs.canonicalize_zone_name(field.data) != field.data:
            # The page shown again selects the zone still stored, not the first of the list
            # (a second save without looking would otherwise switch the user to UTC).
            field.data = field.object_data
            raise ValidationError(UNKNOWN_ZONE_MESSAGE)

    def validate_theme(self, field: RadioField) -> None:
        if field.data not in THEMES:
            # Shown again with the stored theme ticked: a second save keeps it.
            field.data = field.object_data
            raise ValidationError(UNKNOWN_THEME_MESSAGE)

    def validate_desired_retention(self, field: DecimalField) -> None:
        # The field shows two decimals: a third would be saved, then shown (and saved back)
        # rounded, changing the setting without anyone asking.
        # What is missing, out of range, NaN or infinite has been refused already.
        if field.errors or field.data is None or not field.data.is_finite():
            return
        if field.data != field.data.quantize(Decimal("0.01")):
            raise ValidationError("Use at most two decimals, e.g. 0.9 or 0.95.")


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
