"""The track forms: a track's title, its steps of three kinds, assigning it, due dates."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, StopValidation

from quizapp.services.tracks import DESCRIPTION_MAX, STEP_TITLE_MAX, TRACK_TITLE_MAX
from quizapp.web.http.fields import ID_MAX, NumberField

DATE_CHARS_MAX = 20
LINK_MAX = 600  # a practice set's or a question list's address, as pasted


class TrackForm(FlaskForm):
    title = StringField("Title", id="track-title", validators=[
        InputRequired(message="Give the track a title."),
        Length(max=TRACK_TITLE_MAX,
               message=f"A track's title is at most {TRACK_TITLE_MAX} characters.")],
        render_kw={"maxlength": TRACK_TITLE_MAX})
    description = TextAreaField("Description (optional)", id="track-description", validators=[
        Length(max=DESCRIPTION_MAX,
               message=f"A description is at most {DESCRIPTION_MAX} characters.")],
        render_kw={"rows": 3, "maxlength": DESCRIPTION_MAX})


# The track page holds several of these forms at once: each field's id is its form's prefix
# and its name ("set-due", "list-due"...), so no id is used twice and each label finds its box.

def due_field(prefix: str, label: str = "Due date") -> StringField:
    return StringField(label, id=f"{prefix}-due", validators=[Length(
        max=DATE_CHARS_MAX, message="Give the date as YYYY-MM-DD.")],
        render_kw={"type": "date"})


def title_field(prefix: str, label: str = "Step title (optional)") -> StringField:
    return StringField(label, id=f"{prefix}-title", validators=[Length(
        max=STEP_TITLE_MAX, message=f"A step's title is at most {STEP_TITLE_MAX} characters.")],
        render_kw={"maxlength": STEP_TITLE_MAX})


def pass_mark_field(prefix: str) -> NumberField:
    return NumberField("Pass mark, in percent", id=f"{prefix}-pass-mark", default=80,
                       validators=[Optional(), NumberRange(
                           0, 100, message="A pass mark is a percentage from 0 to 100.")],
                       render_kw={"inputmode": "numeric", "size": 4})


class SetStepForm(FlaskForm):
    set_link = StringField("The practice set's address", id="set-link", validators=[
        InputRequired(message="Paste the address of a set's page, or pick one of yours."),
        Length(max=LINK_MAX, message="That address is too long to be a set's.")],
        render_kw={"placeholder": "https://…/sets/…", "autocomplete": "off"})
    title = title_field("set")
    pass_mark = pass_mark_field("set")
    due = due_field("set")


class QuestionsStepForm(FlaskForm):
    """A question list as /questions filters it: its address pasted, or the filters picked."""

    list_link = StringField("A question list's address (optional)", id="list-link", validators=[
        Length(max=LINK_MAX, message="That address is too long to be a question list's.")],
        render_kw={"placeholder": "https://…/questions?level=…", "autocomplete": "off"})
    level = SelectField("Level", id="list-level", validate_choice=False)
    concept = SelectField("Concept", id="list-concept", validate_choice=False)
    importance = SelectField("Importance", id="list-importance", validate_choice=False)
    q = StringField("Search", id="list-q", validators=[
        Length(max=100, message="Search text is at most 100 characters.")])
    title = title_field("list")
    due = due_field("list")


class ChosenField(Field):
    """Every value sent under the field's name (check boxes), bounded in count and length."""

    def __init__(self, *args, most: int, longest: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.most, self.longest = most, longest

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = list(valuelist)

    def pre_validate(self, form: FlaskForm) -> None:
        values = self.data or []
        if len(values) > self.most or any(len(value) > self.longest for value in values):
            raise StopValidation("The choices sent are damaged; reload the page.")


class SkillsStepForm(FlaskForm):
    skills = ChosenField("Puzzle skills", default=(), most=500, longest=80)
    title = title_field("skills")
    due = due_field("skills")


class StepEditForm(FlaskForm):
    title = StringField("Title", id="step-title", validators=[
        InputRequired(message="Give the step a title."),
        Length(max=STEP_TITLE_MAX,
               message=f"A step's title is at most {STEP_TITLE_MAX} characters.")],
        render_kw={"maxlength": STEP_TITLE_MAX})
    pass_mark = pass_mark_field("step")
    due = due_field("step")


class MoveForm(FlaskForm):
    direction = HiddenField(validators=[InputRequired(), Length(max=4)])


class AssignForm(FlaskForm):
    to = RadioField("Assign to", choices=[
        SelectChoice("team", "The whole team: everyone with the member role, and those who "
                             "join later"),
        SelectChoice("chosen", "The members I pick")], default="team",
        validators=[InputRequired(message="Say whom to assign the track to.")])
    people = ChosenField("Members", default=(), most=1000, longest=10)
    due = due_field("assign", "Due date for the whole track")

    def read_people(self) -> list[int] | None:
        """The picked member ids; None if one is not an id (a damaged form)."""
        ids = []
        for value in self.people.data or ():
            if not value.isascii() or not value.isdigit() or not 0 < int(value) <= ID_MAX:
                return None
            ids.append(int(value))
        return ids


class DueForm(FlaskForm):
    due = due_field("due")


def set_filter_choices(form: QuestionsStepForm, levels, concepts, importances) -> None:
    form.level.choices = [SelectChoice("", "Any level")] + [
        SelectChoice(level, level.capitalize()) for level in levels]
    form.concept.choices = [SelectChoice("", "Any concept")] + [
        SelectChoice(tag, tag.replace("-", " ")) for tag in concepts]
    form.importance.choices = [SelectChoice("", "Any importance")] + [
        SelectChoice(name, name.replace("-", " ").capitalize()) for name in importances]
