"""The Suspend and Resume forms (web.suspend): an item id, and where to go afterwards."""

from __future__ import annotations

from wtforms import HiddenField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange

from quizapp.web.forms import ID_MAX, NumberField
from quizapp.web.study_forms import LIST_QUERY_MAX, StudyForm

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
