"""The practice area's answer form and its signed page token."""

from __future__ import annotations

from dataclasses import dataclass

from flask_wtf import FlaskForm
from itsdangerous import BadSignature
from wtforms import HiddenField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional, StopValidation

from quizapp.puzzles import MAX_SEED
from quizapp.services.errors import ServiceError
from quizapp.services.reviews import ANSWER_MAX
from quizapp.web.http.fields import TOKEN_MAX, NumberField, PicksField
from quizapp.web.http.signing import current_serializer

SALT = "quizapp.practice-page"
DAMAGED = ("This practice page is damaged or from an old session. Nothing was kept: open "
           "Practice to carry on.")
EMPTY_ANSWER = "Type an answer first."
PICK_FIRST = "Pick an option, or type the answer, first."


class PracticeAnswerForm(FlaskForm):
    """An answer to the practice puzzle the signed ``token`` names. CSRF is checked app-wide
    (CSRFProtect) before the view runs; the template writes the token field itself."""

    class Meta:
        csrf = False

    token = HiddenField(validators=[DataRequired(), Length(1, TOKEN_MAX)])
    answer = StringField("Your answer", validators=[
        Length(max=ANSWER_MAX, message=f"An answer is at most {ANSWER_MAX} characters long.")])
    pick = PicksField(default=())
    hints_used = NumberField(default=0, validators=[NumberRange(0, 2)])
    hint = NumberField(validators=[Optional(), NumberRange(1, 2)])

    def validate_answer(self, field: StringField) -> None:
        if not (field.data or "").strip() and not self.pick.data and not self.hint.data:
            raise StopValidation(EMPTY_ANSWER)


@dataclass(frozen=True)
class DealtPuzzle:
    """A practice puzzle as its page dealt it: to whom, which skill, which seed, and when."""

    user_id: int
    family: str
    level: str
    seed: int
    dealt_at_ms: int


def sign_dealt_puzzle(dealt: DealtPuzzle) -> str:
    return current_serializer(SALT).dumps(
        [dealt.user_id, dealt.family, dealt.level, dealt.seed, dealt.dealt_at_ms])


def verify_dealt_puzzle(token: str, user_id: int) -> DealtPuzzle:
    """The puzzle a practice page of ``user_id`` dealt; ServiceError (a 400) otherwise."""
    try:
        user, family, level, seed, dealt_at = current_serializer(SALT).loads(token)
    except (BadSignature, ValueError, TypeError):
        raise ServiceError(DAMAGED) from None
    numbers = (user, seed, dealt_at)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in numbers):
        raise ServiceError(DAMAGED)
    if user != user_id or not 0 <= seed <= MAX_SEED:
        raise ServiceError(DAMAGED)
    if not isinstance(family, str) or not isinstance(level, str):
        raise ServiceError(DAMAGED)
    return DealtPuzzle(user, family, level, seed, dealt_at)
