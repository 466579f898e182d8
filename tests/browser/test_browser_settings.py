"""Settings in chromium: the browser picks its own time zone; without script the button stays hidden."""

from __future__ import annotations

import re

import pytest
from webtest_support import PASSWORD, register_in_browser

from quizapp import srs

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("zone", [
    "Asia/Kolkata",  # no daylight saving: the same all year (ICU may call it Asia/Calcutta)
    "America/New_York",  # daylight saving
    "America/Argentina/Buenos_Aires",
    "Etc/UTC",  # not in the list (the Etc aliases are not offered): the button adds it
])
def test_the_zone_button_picks_the_browsers_zone_and_it_is_saved(browser, live_server, zone):
    context = browser.new_context(timezone_id=zone)
    context.set_default_timeout(15_000)
    page = context.new_page()
    base = live_server["url"]
    register_in_browser(page, base, "zoned")
    page.keyboard.press("Space")  # rate one card, so the history has a table
    with page.expect_navigation():
        page.keyboard.press("3")
    page.goto(f"{base}/settings")
    reported = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    page.select_option("#time_zone", "Pacific/Auckland")
    page.click("[data-browser-zone]")
    assert page.input_value("#time_zone") == reported
    status = page.locator("[data-zone-status]")
    assert status.get_attribute("role") == "status"  # read out: the change is not saved yet
    assert status.inner_text().startswith(f"Set to {reported}")
    assert status.inner_text().endswith("Save settings to keep it.")
    with page.expect_navigation():
        page.click("form[action$='/settings'] button[type=submit]")
    assert "Settings saved." in page.content()
    saved = srs.canonicalize_zone_name(reported)  # a link is saved as the zone it names
    assert page.input_value("#time_zone") == saved
    page.goto(f"{base}/study/history")
    assert f"When ({saved})" in page.content()
    context.close()


def test_without_script_the_zone_button_is_hidden_and_the_list_still_works(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    base = live_server["url"]
    register_in_browser(page, base, "plain")
    page.goto(f"{base}/settings")
    assert page.locator("[data-browser-zone]").count() == 1  # in the page, but not shown
    assert not page.locator("[data-browser-zone]").is_visible()
    assert page.input_value("#time_zone") == "UTC"  # no script at registration: UTC
    page.select_option("#time_zone", "Europe/Lisbon")
    page.click("form[action$='/settings'] button[type=submit]")
    assert page.input_value("#time_zone") == "Europe/Lisbon"
    context.close()


def test_the_review_log_downloads_and_the_account_can_be_deleted(page, live_server):
    """Chromium saves the link's CSV as a file (not a page), then the delete form ends it all."""
    base = live_server["url"]
    register_in_browser(page, base, "leaver")
    page.keyboard.press("Space")
    with page.expect_navigation():
        page.keyboard.press("3")
    page.goto(f"{base}/settings")
    with page.expect_download() as download:
        page.click("text=Download your reviews (CSV, 1 row)")
    assert download.value.suggested_filename.startswith("quizapp-reviews-leaver-")
    with open(download.value.path(), encoding="utf-8", newline="") as saved:
        lines = saved.read().split("\r\n")
    # Every cell quoted (a spreadsheet splitting on ";" keeps each answer one cell).
    assert lines[0].startswith('"reviewed_at_utc","item_key","item_kind","item_title","rating"')
    assert re.fullmatch(r'"[0-9-]{10}T[0-9:]{8}Z","browser-\w+","card","[^"]+","Good","\d+",'
                        r'"","","yes"', lines[1]), lines[1]
    assert lines[2:] == [""]
    page.fill("#delete_password", PASSWORD)
    page.fill("#confirm_username", "leaver")
    with page.expect_navigation():
        page.click("text=Delete my account")
    assert "Your account and its 1 review were deleted." in page.inner_text(".flashes")
    page.goto(f"{base}/settings")
    assert "/login" in page.url
