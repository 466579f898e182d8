"""The theme setting: light, dark or the system's, stored per account, set by the server on
every page's <html>; a value that is not one of the three is refused and changes nothing."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from webtest_support import SETTINGS, csrf_token, login, post_settings, register

from quizapp.extensions import db
from quizapp.models import User
from quizapp.services.errors import ServiceError
from quizapp.services.settings import StudySettings, validate_settings

HTML_RE = re.compile(r'<html lang="en" data-theme="([^"]*)">')
SCHEME_RE = re.compile(r'<meta name="color-scheme" content="([^"]*)">')
REFUSED = "Pick a theme: light, dark or follow the system."
PAGES = ["/", "/study", "/questions", "/skills", "/explorer", "/sets", "/history", "/stats",
         "/settings", "/no-such-page"]


def page_theme(html: str) -> tuple[str, str]:
    return HTML_RE.search(html).group(1), SCHEME_RE.search(html).group(1)


def stored(app, name: str = "sam") -> tuple:
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == name))
        result = (user.theme, user.new_per_day, user.desired_retention)
        db.session.remove()
        return result


def checked_theme(html: str) -> list[str]:
    return re.findall(r'<input checked id="theme-\d" name="theme" type="radio" value="([^"]+)"',
                      html)


def test_a_new_account_follows_the_system(app, client, bank):
    register(client, "sam")
    assert stored(app)[0] == "system"
    page = client.get("/settings").text
    assert page_theme(page) == ("system", "light dark")
    assert checked_theme(page) == ["system"]


@pytest.mark.parametrize(("theme", "scheme"), [("dark", "dark"), ("light", "light"),
                                               ("system", "light dark")])
def test_the_saved_theme_is_set_on_every_page(app, client, bank, theme, scheme):
    register(client, "sam")
    if theme == "system":  # from another theme back to the system's
        assert post_settings(client, theme="dark").status_code == 303
    saved = post_settings(client, theme=theme)
    assert saved.status_code == 303
    assert stored(app)[0] == theme
    for path in PAGES:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert page_theme(response.text) == (theme, scheme), path
    assert checked_theme(client.get("/settings").text) == [theme]
    # A visitor's pages, and another account's, follow the system.
    other = app.test_client()
    assert page_theme(other.get("/").text) == ("system", "light dark")
    register(other, "kim")
    assert page_theme(other.get("/study").text) == ("system", "light dark")


@pytest.mark.parametrize("bad", ["purple", "", "Dark", " dark", "system;x",
                                 "<script>", "d" * 5000])
def test_a_bad_theme_is_refused_with_a_message_and_changes_nothing(app, client, bank, bad):
    register(client, "sam")
    assert post_settings(client, theme="dark").status_code == 303
    before = stored(app)
    refused = post_settings(client, theme=bad, new_per_day="7")
    assert refused.status_code == 400
    assert REFUSED in refused.text
    assert 'id="theme-error-1"' in refused.text
    assert stored(app) == before  # neither the theme nor the limit posted with it was saved
    # Shown again with the stored theme ticked, in that theme: a second save keeps it.
    assert checked_theme(refused.text) == ["dark"]
    assert page_theme(refused.text) == ("dark", "dark")


def test_a_form_without_the_theme_keeps_the_stored_one(app, client, bank):
    """A Settings page opened before the setting existed posts no theme."""
    register(client, "sam")
    assert post_settings(client, theme="light").status_code == 303
    page = client.get("/settings").text
    assert client.post("/settings", data={"csrf_token": csrf_token(page), **SETTINGS,
                                          "new_per_day": "9"}).status_code == 303
    assert stored(app)[:2] == ("light", 9)


def test_an_older_tab_keeps_the_theme_another_tab_saved(app, client, bank):
    register(client, "sam")
    older = client.get("/settings").text
    shown = re.search(r'name="shown_settings" value="([^"]+)"', older).group(1)
    other = app.test_client()
    login(other, "sam")
    assert post_settings(other, theme="dark").status_code == 303
    # The older tab saves a new limit, its theme radios still on "system", as it showed them.
    saved = client.post("/settings", data={
        "csrf_token": csrf_token(older), "shown_settings": shown, **SETTINGS,
        "theme": "system", "new_per_day": "5"}, follow_redirects=True)
    assert stored(app)[:2] == ("dark", 5)
    assert "Theme Dark" in saved.text


@pytest.mark.parametrize("bad", ["", "blue", "LIGHT"])
def test_the_use_case_refuses_a_theme_it_does_not_know(bad):
    settings = StudySettings(0.9, 20, 200, 36500, "junior", "UTC", True, bad)
    with pytest.raises(ServiceError, match="Pick a theme"):
        validate_settings(settings, kept_zone="UTC")
    validate_settings(StudySettings(0.9, 20, 200, 36500, "junior", "UTC", True, "dark"),
                      kept_zone="UTC")
