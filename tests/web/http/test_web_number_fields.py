"""Number fields read what a person types in a number box (digits 0-9, a minus, a point in a
decimal), not every spelling Python's int() and Decimal() accept: "1_000" was saved as 1000,
"+30" as 30 and "9e-1" as 0.9. The rest gets the same message words get, and the page keeps
what was typed in the other fields."""

from __future__ import annotations

import html

import pytest
from sqlalchemy import func, select
from webtest_support import csrf_token, post_settings, rate_current, register

from quizapp.extensions import db
from quizapp.models import Item, ItemSuspension, Review, User

WHOLE_MESSAGE = "Use a whole number, in digits, e.g. 20."
DECIMAL_MESSAGE = "Use a number in digits, with a point for decimals, e.g. 0.9."
# Each is read by int() or by Decimal() (or, like "٣", by both), or looks as if it might be.
NOT_WHOLE = ["1_000", "1_0", "+30", "+5", "٣", "٣٠", "0x10", "0b11", "1e2", "inf", "nan",
             "30.", ".5", "30.0", "3 0", "--3", "- 3", "3-", "1,000"]
NOT_DECIMAL = ["0.8_5", "0_.9", "+0.9", "+.9", "9e-1", "9E-1", "inf", "Infinity", "-inf", "nan",
               "sNaN", "0x1", "٠.٩", "0.9.", "..9", "0,9", ".", "-.", "0. 9"]
WHOLE_FIELDS = ("new_per_day", "reviews_per_day", "maximum_interval_days")
# What the person typed in the other fields, to be found in the page that refuses one of them.
OTHERS_TYPED = {"desired_retention": "0.85", "new_per_day": "7", "reviews_per_day": "77",
                "maximum_interval_days": "45", "time_zone": "Europe/Paris"}


def stored_settings(app) -> tuple:
    with app.app_context():
        user = db.session.scalar(select(User))
        return (user.desired_retention, user.new_per_day, user.reviews_per_day,
                user.maximum_interval_days, user.time_zone)


def shown_value(page: str, name: str) -> str:
    tag = page.split(f'id="{name}"', 1)[1].split(">", 1)[0]
    return html.unescape(tag.split('value="', 1)[1].split('"', 1)[0])


def assert_refused(app, client, page: str, name: str, typed: str, message: str) -> None:
    before = stored_settings(app)
    others = {field: value for field, value in OTHERS_TYPED.items() if field != name}
    refused = post_settings(client, page, **others, **{name: typed})
    assert refused.status_code == 400, (name, typed)
    assert refused.text.count(message) == 1, (name, typed)
    assert "Not a valid" not in refused.text
    assert shown_value(refused.text, name) == typed.strip()
    for field in ("desired_retention", "new_per_day", "reviews_per_day",
                  "maximum_interval_days"):
        if field != name:
            assert shown_value(refused.text, field) == others[field], (name, typed, field)
    assert '<option selected value="Europe/Paris">' in refused.text
    assert stored_settings(app) == before


@pytest.mark.parametrize("typed", NOT_WHOLE)
def test_whole_number_fields_refuse_what_only_python_reads(app, client, bank, typed):
    register(client, "sam")
    page = client.get("/settings").text
    for name in WHOLE_FIELDS:
        assert_refused(app, client, page, name, typed, WHOLE_MESSAGE)


@pytest.mark.parametrize("typed", NOT_DECIMAL)
def test_the_retention_field_refuses_what_only_python_reads(app, client, bank, typed):
    register(client, "sam")
    assert_refused(app, client, client.get("/settings").text, "desired_retention", typed,
                   DECIMAL_MESSAGE)


@pytest.mark.parametrize("fields, stored", [
    ({"new_per_day": " 30 ", "reviews_per_day": "\t0300\n", "maximum_interval_days": "007"},
     (0.9, 30, 300, 7, "UTC")),
    ({"desired_retention": ".95", "new_per_day": "-0"}, (0.95, 0, 200, 36500, "UTC")),
    ({"desired_retention": " 0.80 "}, (0.8, 20, 200, 36500, "UTC")),
])
def test_digits_with_spaces_around_or_leading_zeros_are_read(app, client, bank, fields, stored):
    register(client, "sam")
    assert post_settings(client, **fields).status_code == 303
    assert stored_settings(app) == stored


@pytest.mark.parametrize("name, typed, message", [
    ("maximum_interval_days", "-0", "Number must be between 1 and 36500."),
    ("new_per_day", "-1", "Number must be between 0 and 999."),
    ("desired_retention", "-0.9", "Number must be between 0.7 and 0.99."),
    ("desired_retention", "1.", "Number must be between 0.7 and 0.99."),
])
def test_a_negative_or_out_of_range_number_is_told_its_range(app, client, bank, name, typed,
                                                              message):
    register(client, "sam")
    assert_refused(app, client, client.get("/settings").text, name, typed, message)


def count_rows(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def respell(number: int, typed: str) -> str:
    """``number`` written as ``typed`` writes 3."""
    if typed == "٣":
        return str(number).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    return typed.replace("3", str(number))


# int() reads the first three as 3; the others it refuses, as before.
@pytest.mark.parametrize("typed", ["+3", "0_3", "٣", "3.", "3e0", "0x3"])
def test_the_study_forms_read_their_numbers_the_same_way(app, client, bank, typed):
    """The rating, the hints used, the review to undo and the item to suspend are numbers the
    pages write; a script sending "+3" had its rating applied."""
    register(client, "sam")
    page = client.get("/study").text
    assert rate_current(client, 3, page, hints_used=respell(0, typed)).status_code == 400
    assert rate_current(client, typed, page).status_code == 400  # type: ignore[arg-type]
    assert count_rows(app, Review) == 0
    assert rate_current(client, " 3 ", page).status_code == 303  # type: ignore[arg-type]
    assert count_rows(app, Review) == 1
    token = csrf_token(client.get("/study").text)
    with app.app_context():
        review_id = db.session.scalar(select(Review.id))
        item_id = db.session.scalar(select(Item.id).where(Item.key == "beta-view"))
    undo = client.post("/study/undo", data={"csrf_token": token,
                                            "review_id": respell(review_id, typed)})
    assert undo.status_code == 400 and count_rows(app, Review) == 1
    suspend = client.post("/study/suspend", data={"csrf_token": token,
                                                  "item_id": respell(item_id, typed)})
    assert suspend.status_code == 400 and count_rows(app, ItemSuspension) == 0
    # Written plainly, the same numbers go through.
    assert client.post("/study/suspend", data={"csrf_token": token,
                                               "item_id": str(item_id)}).status_code == 303
    assert count_rows(app, ItemSuspension) == 1
