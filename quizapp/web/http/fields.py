"""Form fields and bounds every area's forms share: numbers typed in ASCII digits, check boxes,
the options ticked on a puzzle page, the largest id and token a form takes."""

from __future__ import annotations

import re

from flask_wtf import FlaskForm
from wtforms import BooleanField, DecimalField, Field, IntegerField
from wtforms.validators import StopValidation

from quizapp.puzzles import MAX_PICKS

TOKEN_MAX = 1000
ID_MAX = 2**31 - 1  # Integer primary keys: PostgreSQL refuses a larger value (a 500, not a 404)


NUMBER_CHARS_MAX = 20
# What a person types in a number box: the digits 0-9, a minus for a negative number (which
# the range then refuses in its own words) and, in a decimal, one point (".5" and "5." too).
# int() and Decimal() read far more: "1_000", "+30", "٣" (Arabic-Indic 3), and Decimal also
# "1e2", "inf" and "nan"; a browser's number box posts some of these as typed.
WHOLE_NUMBER = re.compile(r"-?[0-9]+")
DECIMAL_NUMBER = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
NUMBER_MISSING = "Type a number, in digits."


class AsciiDigitsMixin:
    """Numbers typed as a person writes them (``written``): any other text int() or Decimal()
    would read gets the field's ``not_a_number`` message, as words do."""

    not_a_number: str  # the message of the field class it is mixed into
    written: re.Pattern[str]

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:  # not posted: InputRequired or keep_if_not_posted decides
            return
        text = valuelist[0].strip()  # spaces around the number are no reason to refuse it
        self.data = None
        # A browser posts a number field it cannot read ("ten", "0,85" in some) as empty, so
        # an empty field is not called empty: the person may have typed something.
        if not text:
            raise ValueError(self.gettext(NUMBER_MISSING))
        # No field takes more than a few digits; NumberRange turns a 400-digit int into a float
        # (math.isnan) and raised OverflowError, a 500.
        if len(text) > NUMBER_CHARS_MAX:
            raise ValueError(self.gettext(f"Numbers here are at most {NUMBER_CHARS_MAX} "
                                          "characters long."))
        if not self.written.fullmatch(text):
            raise ValueError(self.gettext(self.not_a_number))
        super().process_formdata([text])


class NumberField(AsciiDigitsMixin, IntegerField):
    """A whole number typed with the digits 0-9."""

    not_a_number = "Use a whole number, in digits, e.g. 20."
    written = WHOLE_NUMBER


class DecimalNumberField(AsciiDigitsMixin, DecimalField):
    """A decimal number typed with the digits 0-9 and a point."""

    not_a_number = "Use a number in digits, with a point for decimals, e.g. 0.9."
    written = DECIMAL_NUMBER


# What a script or an older page may post for a box left unticked; WTForms' BooleanField
# counted any value but "false" and "" as ticked, so "0" or "off" brought schedules forward.
UNTICKED_VALUES = frozenset({"", "0", "false", "f", "n", "no", "off"})


class CheckBox(BooleanField):
    """A check box: ticked when posted with any value but those saying no (UNTICKED_VALUES,
    in any case, spaces around ignored); a browser posts "y" for a ticked box, nothing else."""

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = bool(valuelist) and valuelist[0].strip().lower() not in UNTICKED_VALUES

    def _value(self) -> str:
        # A page shown again posts "y" when ticked, not the value that was posted ("0").
        return "y"


PICK_MAX = 10


class PicksField(Field):
    """Every value sent under the field's name: the options ticked on a puzzle page."""

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = list(valuelist)

    def pre_validate(self, form: FlaskForm) -> None:
        # The page writes these values (letters, yes, no, none): anything longer is damage.
        if len(self.data or ()) > MAX_PICKS or any(len(value) > PICK_MAX for value in self.data):
            raise StopValidation("The options sent are damaged.")
