"""Settings saved from a page left open in another tab change only what was changed on that
page: what another tab or device saved meanwhile stays, and the confirmation says what it was."""

from __future__ import annotations

import re

from sqlalchemy import select
from webtest_support import SETTINGS, login, register
from webtest_support import csrf_token as page_csrf

from quizapp.extensions import db
from quizapp.models import User

SHOWN_RE = re.compile(r'<input type="hidden" name="shown_settings" value="([^"]+)">')


def open_settings(client) -> str:
    page = client.get("/settings").text
    assert SHOWN_RE.search(page), "the form carries the settings it shows"
    return page


def save(client, page: str, **changed: str):
    """Post the form as the browser would: every field as the page showed it, some changed."""
    shown = {"desired_retention": re.search(r'id="desired_retention"[^>]*value="([^"]+)"',
                                            page).group(1),
             "new_per_day": re.search(r'id="new_per_day"[^>]*value="([^"]+)"', page).group(1),
             "reviews_per_day": re.search(r'id="reviews_per_day"[^>]*value="([^"]+)"',
                                          page).group(1),
             "maximum_interval_days": re.search(
                 r'id="maximum_interval_days"[^>]*value="([^"]+)"', page).group(1),
             "new_from_level": re.search(r'id="new_from_level".*?<option selected value="([^"]+)"',
                                         page, re.S).group(1),
             "time_zone": re.search(r'id="time_zone".*?<option selected value="([^"]+)"', page,
                                    re.S).group(1),
             "keyboard_shortcuts_shown": "1", "keyboard_shortcuts": "y"}
    return client.post("/settings", data={
        "csrf_token": page_csrf(page), "shown_settings": SHOWN_RE.search(page).group(1),
        **shown, **changed})


def stored(app) -> tuple:
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == "sam"))
        return (user.desired_retention, user.new_per_day, user.reviews_per_day, user.time_zone,
                user.keyboard_shortcuts, user.maximum_interval_days)


def test_an_older_tab_keeps_what_another_tab_saved(app, client, bank):
    """Tab A open, tab B saves a zone and a new-item limit, tab A
    saves a new retention only: the zone and the limit went back, with "Settings saved."."""
    register(client, "sam")
    tab_b = app.test_client()
    login(tab_b, "sam")
    tab_a_page = open_settings(client)
    assert save(tab_b, open_settings(tab_b), time_zone="Asia/Tokyo",
                new_per_day="5").status_code == 303
    saved = save(client, tab_a_page, desired_retention="0.85")
    assert saved.status_code == 303
    assert stored(app)[:4] == (0.85, 5, 200, "Asia/Tokyo")
    page = client.get("/settings").text
    assert ("Kept what another tab or device saved after this page was opened: "
            "New items per day 5, Time zone Asia/Tokyo.") in page
    assert "Yours replaced" not in page


def test_an_older_tab_keeps_the_maximum_interval_another_tab_saved(app, client, bank):
    register(client, "sam")
    tab_b = app.test_client()
    login(tab_b, "sam")
    tab_a_page = open_settings(client)
    assert save(tab_b, open_settings(tab_b), maximum_interval_days="30").status_code == 303
    assert save(client, tab_a_page, reviews_per_day="150").status_code == 303
    assert stored(app)[2] == 150 and stored(app)[5] == 30
    page = client.get("/settings").text
    assert ("Kept what another tab or device saved after this page was opened: "
            "Maximum interval 30 days.") in page


def test_a_setting_changed_on_both_takes_this_pages_value_and_says_so(app, client, bank):
    register(client, "sam")
    tab_b = app.test_client()
    login(tab_b, "sam")
    tab_a_page = open_settings(client)
    save(tab_b, open_settings(tab_b), new_per_day="5", reviews_per_day="150")
    assert save(client, tab_a_page, new_per_day="7").status_code == 303
    assert stored(app)[1:3] == (7, 150)
    page = client.get("/settings").text
    assert "Reviews per day 150" in page
    assert "Yours replaced what was saved there meanwhile for: New items per day." in page


def test_a_save_with_nothing_changed_elsewhere_just_says_saved(app, client, bank):
    register(client, "sam")
    assert save(client, open_settings(client), new_per_day="12").status_code == 303
    page = client.get("/settings").text
    assert "Settings saved." in page and "Kept what" not in page
    assert stored(app)[1] == 12


def test_a_refused_save_keeps_the_settings_it_was_shown_with(app, client, bank):
    """Fixed after a 400, the form still merges against the page it was first shown as."""
    register(client, "sam")
    tab_b = app.test_client()
    login(tab_b, "sam")
    tab_a_page = open_settings(client)
    first_shown = SHOWN_RE.search(tab_a_page).group(1)
    save(tab_b, open_settings(tab_b), time_zone="Asia/Tokyo")
    refused = save(client, tab_a_page, new_per_day="5.5")
    assert refused.status_code == 400
    assert SHOWN_RE.search(refused.text).group(1) == first_shown
    assert save(client, refused.text, new_per_day="6").status_code == 303
    assert stored(app)[1] == 6 and stored(app)[3] == "Asia/Tokyo"


def test_a_form_without_its_shown_settings_saves_every_field_as_posted(app, client, bank):
    """A page from before this change, a script, or a tampered value: as before, the post is
    the settings (no merge), and nothing breaks."""
    register(client, "sam")
    tab_b = app.test_client()
    login(tab_b, "sam")
    tab_a_page = open_settings(client)
    save(tab_b, open_settings(tab_b), time_zone="Asia/Tokyo")
    for shown in ("", "tampered", SHOWN_RE.search(open_settings(tab_b)).group(1) + "x"):
        posted = client.post("/settings", data={"csrf_token": page_csrf(tab_a_page),
                                                **SETTINGS, "shown_settings": shown})
        assert posted.status_code == 303
        assert stored(app)[3] == SETTINGS["time_zone"]


def test_another_accounts_shown_settings_are_not_taken(app, client, bank):
    register(client, "sam")
    other = app.test_client()
    register(other, "tess")
    tess_shown = SHOWN_RE.search(open_settings(other)).group(1)
    save(client, open_settings(client), time_zone="Asia/Tokyo")
    page = open_settings(client)
    posted = client.post("/settings", data={"csrf_token": page_csrf(page), **SETTINGS,
                                            "shown_settings": tess_shown})
    assert posted.status_code == 303
    assert stored(app)[3] == SETTINGS["time_zone"]  # read as a page without them: as posted
