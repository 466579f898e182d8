"""Settings in chromium: the browser fills in its own UTC offset; without script the field stays."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("zone", "minutes", "label"), [
    ("Asia/Kolkata", "330", "UTC+05:30"),  # no daylight saving: the same all year
    ("America/Argentina/Buenos_Aires", "-180", "UTC-03:00"),
    ("Etc/UTC", "0", "UTC"),
])
def test_the_offset_button_fills_the_browsers_zone_and_it_is_saved(browser, live_server, zone,
                                                                    minutes, label):
    context = browser.new_context(timezone_id=zone)
    context.set_default_timeout(15_000)
    page = context.new_page()
    base = live_server["url"]
    register_in_browser(page, base, "zoned")
    page.keyboard.press("Space")  # rate one card, so the history has a table
    with page.expect_navigation():
        page.keyboard.press("3")
    page.goto(f"{base}/settings")
    page.fill("#utc_offset_minutes", "45")
    page.click("[data-browser-offset]")
    assert page.input_value("#utc_offset_minutes") == minutes
    with page.expect_navigation():
        page.click("form[action$='/settings'] button[type=submit]")
    assert page.input_value("#utc_offset_minutes") == minutes
    page.goto(f"{base}/study/history")
    assert f"When ({label})" in page.content()
    context.close()


def test_without_script_the_offset_button_is_hidden(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    register_in_browser(page, live_server["url"], "plain")
    page.goto(f"{live_server['url']}/settings")
    assert page.locator("[data-browser-offset]").count() == 1  # in the page, but not shown
    assert not page.locator("[data-browser-offset]").is_visible()
    assert page.input_value("#utc_offset_minutes") == "0"
    context.close()
