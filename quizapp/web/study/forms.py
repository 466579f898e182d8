"""The study area's POST forms: rate, answer a puzzle, undo (read on every rating, so lean),
suspend and resume."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import (
    AnyOf,
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    StopValidation,
)

from quizapp.services.reviews import ANSWER_MAX
from quizapp.web.http.fields import ID_MAX, TOKEN_MAX, NumberField, PicksField
from quizapp.web.navigation.lists import LIST_QUERY_MAX


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
    rating = NumberField(validators=[InputRequired(), NumberRange(1, 4)])
    answer = HiddenField(validators=[Length(0, ANSWER_MAX)])
    hints_used = NumberField(default=0, validators=[NumberRange(0, 2)])
    # Studying a question list ("Study these"): the list's parameters, to show its next card.
    then_list = HiddenField(validators=[Length(0, LIST_QUERY_MAX)])


EMPTY_ANSWER = "Type an answer first."
PICK_FIRST = "Pick an option, or type the answer, first."


class AnswerForm(StudyForm):
    """A puzzle's answer, typed or picked; checking it reveals the solution and suggests a
    rating. The typed text may be empty where options were picked (puzzles.picking)."""

    token = HiddenField(validators=[DataRequired(), Length(1, TOKEN_MAX)])
    answer = StringField("Your answer", validators=[
        Length(max=ANSWER_MAX, message=f"An answer is at most {ANSWER_MAX} characters long.")])
    pick = PicksField(default=())
    hints_used = NumberField(default=0, validators=[NumberRange(0, 2)])
    # Without JavaScript a hint is a button of this form: the same puzzle, that hint open.
    hint = NumberField(validators=[Optional(), NumberRange(1, 2)])

    def validate_answer(self, field: StringField) -> None:
        if not (field.data or "").strip() and not self.pick.data and not self.hint.data:
            raise StopValidation(EMPTY_ANSWER)


class UndoForm(StudyForm):
    review_id = NumberField(validators=[InputRequired(), NumberRange(1, ID_MAX)])
    review_token = HiddenField(validators=[Length(0, TOKEN_MAX)])  # web.study.tokens
    then_list = HiddenField(validators=[Length(0, LIST_QUERY_MAX)])  # as RateForm's


# Where the person goes once the item is suspended or resumed: the study page it was shown on
# (the queue, or the list being studied), the card's question page, or the suspended items.
BACK_TO = ("study", "card", "skill", "suspended")
MALFORMED = ("That suspend or resume request is incomplete or damaged (an item id that is not a "
             "number in range, or a page to go back to that this site does not have). Nothing "
             "was changed.")


class SuspendForm(StudyForm):
    """Suspend or resume the item ``item_id`` (an untrusted number: the service checks it).

    The CSRF token is checked by the app-wide CSRFProtect, as for the other study forms."""

    item_id = NumberField(validators=[InputRequired(), NumberRange(1, ID_MAX)])
    back = HiddenField(default="study", validators=[AnyOf(("", *BACK_TO))])
    # Studying a question list ("Study these"): the list's parameters, to show its next card;
    # from a card's page, the list that page was opened from (its ``from``).
    then_list = HiddenField(validators=[Length(0, LIST_QUERY_MAX)])
