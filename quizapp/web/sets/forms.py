"""The practice-set forms: a set's parameters (preview and save), rename, answer an item."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, SelectMultipleField, StringField
from wtforms.fields import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, StopValidation
from wtforms.widgets import CheckboxInput, ListWidget

from quizapp import practice_sets as core
from quizapp.puzzles import LEVELS, families
from quizapp.services.practice_sets import PICKS_MAX
from quizapp.services.reviews import ANSWER_MAX
from quizapp.web.http.fields import NumberField

DEFAULT_COUNT = 10
SEED_CHARS_MAX = 20  # -9223372036854775808


class PlainForm(FlaskForm):
    """CSRFProtect checks every POST before its view runs (a missing or wrong token is a 400
    there); these forms are read from GET too (a preview), so they carry no token of their own."""

    class Meta:
        csrf = False


class ChoicesField(SelectMultipleField):
    """Check boxes, one a value; an unknown value is refused by the set's own checks."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: FlaskForm) -> None:
        if len(self.data or ()) > core.params.MAX_FILTER_VALUES:
            raise StopValidation("Too many values were sent.")


class SetForm(PlainForm):
    """A set's parameters, as typed: read_params checks them with the set generator's rules."""

    levels = ChoicesField("Levels", choices=[SelectChoice(level, level.capitalize()) for level in LEVELS],
                          validate_choice=False)
    concepts = ChoicesField("Concepts", validate_choice=False)
    families = ChoicesField("Puzzle families", validate_choice=False)
    count = StringField("Number of items", default=str(DEFAULT_COUNT),
                        render_kw={"inputmode": "numeric", "size": 4})
    puzzles = StringField("Of which puzzles", render_kw={"inputmode": "numeric", "size": 4})
    seed = StringField("Seed", render_kw={"inputmode": "numeric", "size": 22,
                                          "autocomplete": "off"})
    title = StringField("Title", render_kw={"maxlength": core.TITLE_MAX})
    time_limit = StringField("Time limit, in minutes", render_kw={"inputmode": "numeric",
                                                                  "size": 4})

    def __init__(self, *args, concepts: Collection[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.concepts.choices = [SelectChoice(tag, tag.replace("-", " "))
                                for tag in sorted(concepts)]
        self.families.choices = [SelectChoice(f["id"], f["title"]) for f in families()]


@dataclass(frozen=True)
class ReadParams:
    """The checked parameters (None while any field is wrong) and whether the seed was drawn."""

    params: core.SetParams | None
    drawn_seed: bool


def sentence(message: str) -> str:
    """The generator's message ("the seed must be ...") as a sentence on the form."""
    text = message[:1].upper() + message[1:]
    return text if text.endswith(".") else text + "."


def read_params(form: SetForm, known_concepts: Collection[str],
                draw_seed: core.params.SeedSource | None) -> ReadParams:
    """Check every field (each wrong one gets its message, what was typed is kept); a missing
    seed is drawn with ``draw_seed`` and written into the form, so the page shows it."""
    values: dict = {}
    checks = (
        ("levels", lambda: core.canonicalize_levels(form.levels.data)),
        ("concepts", lambda: core.canonicalize_concepts(form.concepts.data, known_concepts)),
        ("families", lambda: core.canonicalize_families(form.families.data)),
        ("count", lambda: core.canonicalize_count((form.count.data or "").strip()[:40])),
        ("title", lambda: core.canonicalize_title(form.title.data)),
        ("time_limit", lambda: core.canonicalize_time_limit(
            (form.time_limit.data or "").strip()[:40])),
    )
    for name, check in checks:
        try:
            values[name] = check()
        except core.SetParamsError as exc:
            getattr(form, name).errors = [sentence(exc.message)]
    if "count" in values:
        try:
            values["puzzles"] = core.canonicalize_puzzles(
                (form.puzzles.data or "").strip()[:40], values["count"])
        except core.SetParamsError as exc:
            form.puzzles.errors = [sentence(exc.message)]
    drawn = False
    seed_text = (form.seed.data or "").strip()
    if not seed_text and draw_seed is not None:
        values["seed"], drawn = core.draw_seed(draw_seed), True
        form.seed.data = str(values["seed"])
    elif not seed_text:
        form.seed.errors = ["Give the seed this set was made with."]
    else:
        try:
            values["seed"] = core.canonicalize_seed(seed_text[:SEED_CHARS_MAX + 20])
        except core.SetParamsError as exc:
            form.seed.errors = [sentence(exc.message)]
    if any(getattr(form, name).errors for name in form._fields):
        return ReadParams(None, drawn)
    return ReadParams(core.SetParams(**values), drawn)


class RenameForm(PlainForm):
    title = StringField("Title", validators=[
        InputRequired(message="Type a title for the set."),
        Length(max=core.TITLE_MAX,
               message=f"A title is at most {core.TITLE_MAX} characters long.")])


class PicksField(Field):
    """Every value sent under the field's name: the options ticked on a puzzle."""

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = list(valuelist)

    def pre_validate(self, form: FlaskForm) -> None:
        if len(self.data or ()) > PICKS_MAX or any(len(value) > 10 for value in self.data):
            raise StopValidation("The options sent are damaged.")


class AnswerForm(PlainForm):
    """One item's answer: a puzzle's typed text or picks, or a card's self-grade."""

    position = NumberField(validators=[InputRequired(), NumberRange(0, core.MAX_COUNT - 1)])
    answer = StringField("Your answer", validators=[
        Length(max=ANSWER_MAX, message=f"An answer is at most {ANSWER_MAX} characters long.")])
    pick = PicksField(default=())
    grade = HiddenField(validators=[Optional(), Length(max=10)])
