"""Flask-WTF forms: every POST carries a CSRF token and every field is bounded."""

from __future__ import annotations

from decimal import Decimal

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DecimalField,
    HiddenField,
    IntegerField,
    PasswordField,
    StringField,
)
from wtforms.validators import (
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Regexp,
    ValidationError,
)

from quizapp.services.accounts import PASSWORD_MAX, PASSWORD_MIN, USERNAME_MIN
from quizapp.services.reviews import ANSWER_MAX
from quizapp.services.settings import (
    NEW_PER_DAY_RANGE,
    RETENTION_RANGE,
    REVIEWS_PER_DAY_RANGE,
    UTC_OFFSET_RANGE,
)

USERNAME_MAX_INPUT = 40
TOKEN_MAX = 1000
ID_MAX = 2**31 - 1  # Integer primary keys: PostgreSQL refuses a larger value (a 500, not a 404)
# DataRequired strips the text first, so these also answer a password of spaces only.
NO_PASSWORD = "Type a password; spaces alone do not make one."
NO_REPEAT = "Type the same password again."


class RegisterForm(FlaskForm):
    username = StringField("Username", validators=[
        DataRequired(), Length(USERNAME_MIN, USERNAME_MAX_INPUT),
        Regexp(r"^\s*[A-Za-z0-9][A-Za-z0-9_.-]*\s*$",
               message="Use letters, digits, '.', '_' and '-'; start with a letter or digit.")])
    password = PasswordField("Password", validators=[
        DataRequired(message=NO_PASSWORD), Length(PASSWORD_MIN, PASSWORD_MAX)])
    confirm = PasswordField("Repeat password", validators=[
        DataRequired(message=NO_REPEAT), EqualTo("password", message="The two passwords differ.")])
    # Filled in by study.js from the browser's clock, so the study day turns over at the
    # person's own 04:00 from the first day; without JavaScript it stays empty (UTC).
    utc_offset_minutes = HiddenField()


def read_browser_offset(text: str | None) -> int:
    """The offset a registration form's hidden field carries, or 0 (UTC) if it names none in
    range: the visitor never sees the field, so a bad value is no reason to refuse them."""
    text = (text or "").strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 4):
        return 0
    minutes = int(text)
    low, high = UTC_OFFSET_RANGE
    return minutes if low <= minutes <= high else 0


class LoginForm(FlaskForm):
    username = StringField("Username", validators=[DataRequired(), Length(1, USERNAME_MAX_INPUT)])
    password = PasswordField("Password", validators=[DataRequired(), Length(1, PASSWORD_MAX)])
    remember = BooleanField("Keep me logged in on this device")


class PasswordForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired(), Length(1, PASSWORD_MAX)])
    new = PasswordField("New password", validators=[
        DataRequired(message=NO_PASSWORD), Length(PASSWORD_MIN, PASSWORD_MAX)])
    confirm = PasswordField("Repeat new password", validators=[
        DataRequired(message=NO_REPEAT), EqualTo("new", message="The two passwords differ.")])


class SettingsForm(FlaskForm):
    # Decimal bounds: NumberRange compares the typed Decimal("0.99") with its bounds, and the
    # float 0.99 is 0.98999..., so a float bound refused the top of the stated range.
    desired_retention = DecimalField("Desired retention", places=2, validators=[
        InputRequired(), NumberRange(*(Decimal(str(bound)) for bound in RETENTION_RANGE))])
    new_per_day = IntegerField("New items per day", validators=[
        InputRequired(), NumberRange(*NEW_PER_DAY_RANGE)])
    reviews_per_day = IntegerField("Reviews per day", validators=[
        InputRequired(), NumberRange(*REVIEWS_PER_DAY_RANGE)])
    utc_offset_minutes = IntegerField("Your UTC offset in minutes", validators=[
        InputRequired(), NumberRange(*UTC_OFFSET_RANGE)])

    def validate_desired_retention(self, field: DecimalField) -> None:
        # The field shows two decimals: a third would be saved, then shown (and saved back)
        # rounded, changing the setting without anyone asking.
        # NumberRange has already refused what is missing, out of range, NaN or infinite.
        if field.errors or field.data is None or not field.data.is_finite():
            return
        if field.data != field.data.quantize(Decimal("0.01")):
            raise ValidationError("Use at most two decimals, e.g. 0.9 or 0.95.")


class StudyForm(FlaskForm):
    """Base of the study loop's POST forms, which are read on every rating.

    Their CSRF token is checked once, by the app-wide CSRFProtect before any POST view runs
    (a missing or wrong token is a 400 there); checking it again in the form would also mint a
    new token on every post. The study templates write the token field themselves.
    """

    class Meta:
        csrf = False


class RateForm(StudyForm):
    """A rating of the item named by the signed ``token`` (the page it was shown on)."""

    token = HiddenField(validators=[DataRequired(), Length(1, TOKEN_MAX)])
    rating = IntegerField(validators=[InputRequired(), NumberRange(1, 4)])
    answer = HiddenField(validators=[Length(0, ANSWER_MAX)])
    hints_used = IntegerField(default=0, validators=[NumberRange(0, 2)])


class AnswerForm(StudyForm):
    """A typed answer to a puzzle; checking it reveals the solution and suggests a rating."""

    token = HiddenField(validators=[DataRequired(), Length(1, TOKEN_MAX)])
    answer = StringField("Your answer", validators=[
        DataRequired(message="Type an answer first."), Length(1, ANSWER_MAX)])
    hints_used = IntegerField(default=0, validators=[NumberRange(0, 2)])


class UndoForm(StudyForm):
    review_id = IntegerField(validators=[InputRequired(), NumberRange(1, ID_MAX)])


class ExplainQueryForm(FlaskForm):
    """The explorer's GET form (read-only, so no CSRF token: links to a chain can be shared)."""

    class Meta:
        csrf = False

    expr = StringField("Expression", validators=[DataRequired(), Length(1, 2000)])
