"""Check boxes read "0", "n", "no", "off" and "false" as unticked: WTForms' BooleanField took
any value but "false" and "" as ticked, so a script or an older page posting bring_forward=0
moved every schedule past the cap. A browser posts a ticked box's value ("y") and nothing for
one left unticked."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from webtest_support import login, logout, post_settings, rate_current, register

from quizapp.extensions import db
from quizapp.models import ReviewState, User

UNTICKED = ["0", "n", "no", "off", "false", "F", "NO", "Off", " no ", "False"]
TICKED = ["y", "on", "1", "yes", "true"]


def stored_dues(app) -> list:
    with app.app_context():
        return sorted(db.session.scalars(select(ReviewState.due)))


def rate_two_cards_easy(client) -> None:
    for _ in range(2):
        assert rate_current(client, 4).status_code == 303  # 8 days out


@pytest.mark.parametrize("sent", UNTICKED)
def test_bring_forward_sent_as_no_moves_nothing(app, client, bank, clock, sent):
    register(client, "sam")
    rate_two_cards_easy(client)
    before = stored_dues(app)
    assert post_settings(client, maximum_interval_days="3", bring_forward=sent).status_code == 303
    assert stored_dues(app) == before
    page = client.get("/settings").text
    assert "2 items stay due later than 3 days after their last review" in page
    assert "now come back" not in page


@pytest.mark.parametrize("sent", TICKED)
def test_bring_forward_ticked_moves_the_dues(app, client, bank, clock, sent):
    register(client, "sam")
    rate_two_cards_easy(client)
    before = stored_dues(app)
    assert post_settings(client, maximum_interval_days="3", bring_forward=sent).status_code == 303
    assert stored_dues(app) != before
    assert ("2 items scheduled later than 3 days after their last review now come back"
            in client.get("/settings").text)


def stored_shortcuts(app) -> bool:
    with app.app_context():
        return db.session.scalar(select(User.keyboard_shortcuts))


def test_keyboard_shortcuts_sent_as_no_turn_them_off(app, client, bank):
    register(client, "sam")
    for sent in UNTICKED:
        assert post_settings(client, keyboard_shortcuts="y").status_code == 303
        assert stored_shortcuts(app) is True
        assert post_settings(client, keyboard_shortcuts=sent).status_code == 303
        assert stored_shortcuts(app) is False, sent


@pytest.mark.parametrize("sent, kept", [("0", False), ("off", False), ("no", False),
                                        ("y", True), ("on", True)])
def test_keep_me_logged_in_sent_as_no_sets_no_remember_cookie(app, client, sent, kept):
    register(client, "sam")
    logout(client)
    assert login(client, "sam", remember=sent).status_code == 302
    assert (client.get_cookie("remember_token") is not None) is kept


def box(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*\bid="{name}"[^>]*>', page).group(0)


def test_a_refused_page_shows_the_boxes_as_read_and_posts_y_when_ticked(app, client, bank):
    """The page shown again after a refusal wrote back the value posted: a box sent as "0"
    showed unticked with value "0", so ticking it then posted "0" again."""
    register(client, "sam")
    refused = post_settings(client, new_per_day="ten", bring_forward="0", keyboard_shortcuts="off")
    assert refused.status_code == 400
    for name in ("bring_forward", "keyboard_shortcuts"):
        assert "checked" not in box(refused.text, name), name
        assert 'value="y"' in box(refused.text, name), name
    refused = post_settings(client, new_per_day="ten", bring_forward="on")
    assert "checked" in box(refused.text, "bring_forward")
    assert 'value="y"' in box(refused.text, "bring_forward")
