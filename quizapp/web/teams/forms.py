"""The team forms: make or edit a team, delete it, a new join code, join with a code."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from quizapp.services import teams
from quizapp.web.http.fields import NumberField

# What a form reads at most; the service's own checks say the real limits in words.
NAME_INPUT_MAX = 4 * teams.TEAM_NAME_MAX
DESCRIPTION_INPUT_MAX = 2 * teams.TEAM_DESCRIPTION_MAX


class TeamForm(FlaskForm):
    """A team's name and description (services.teams checks them)."""

    name = StringField("Team name", render_kw={"maxlength": teams.TEAM_NAME_MAX,
                                               "autocomplete": "off"},
                       validators=[InputRequired(message="Give the team a name."),
                                   Length(max=NAME_INPUT_MAX,
                                          message=f"The team name can be at most "
                                                  f"{teams.TEAM_NAME_MAX} characters.")])
    description = TextAreaField(
        "Description (optional)", render_kw={"rows": 3, "maxlength": teams.TEAM_DESCRIPTION_MAX},
        validators=[Optional(), Length(max=DESCRIPTION_INPUT_MAX,
                                       message=f"The description can be at most "
                                               f"{teams.TEAM_DESCRIPTION_MAX:,} characters.")])


class DeleteTeamForm(FlaskForm):
    confirm_name = StringField("The team's name, typed to confirm",
                               render_kw={"autocomplete": "off", "spellcheck": "false"},
                               validators=[InputRequired(message="Type the team's name."),
                                           Length(max=NAME_INPUT_MAX)])


class JoinCodeForm(FlaskForm):
    """A new join code: how many days it lasts and, optionally, how many people may use it."""

    days = NumberField("Lasts for (days)", default=teams.JOIN_CODE_DAYS,
                       render_kw={"inputmode": "numeric", "size": 4},
                       validators=[InputRequired(message="Say how many days the code lasts."),
                                   NumberRange(1, teams.JOIN_CODE_DAYS_MAX,
                                               message=f"A code can last from 1 to "
                                                       f"{teams.JOIN_CODE_DAYS_MAX} days.")])
    max_uses = NumberField("Number of uses (empty: no limit)",
                           render_kw={"inputmode": "numeric", "size": 5},
                           validators=[Optional(),
                                       NumberRange(1, teams.JOIN_CODE_USES_MAX,
                                                   message=f"A code can be used from 1 to "
                                                           f"{teams.JOIN_CODE_USES_MAX:,} times.")])


class JoinForm(FlaskForm):
    code = StringField("Join code", render_kw={
        "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false",
        "size": 12, "maxlength": teams.JOIN_CODE_CHARS_MAX},
        validators=[InputRequired(message="Type the join code your team lead gave you."),
                    Length(max=teams.JOIN_CODE_CHARS_MAX,
                           message="That is too long to be a join code.")])
