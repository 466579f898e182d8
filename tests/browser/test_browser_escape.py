"""Escape in chromium: a puzzle's answer box has the focus, so a key typed there is text; Escape
leaves the box and the keys then work, as the Undo button's key mark promises."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from webtest_support import register_in_browser, stored_ratings

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"


def reach_puzzle(page) -> None:
    """Rate the bank's cards Good until a puzzle is dealt (each rating leaves an Undo)."""
    for _ in range(10):
        if page.locator("article[data-item-kind=skill]").count():
            return
        page.click("summary.reveal-button")
        with page.expect_navigation():
            page.click(".rate-3")
    raise AssertionError("no puzzle was dealt")


def test_escape_leaves_the_answer_box_and_u_then_undoes(page, live_server):
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, "escaper", PASSWORD)
    reach_puzzle(page)
    rated = stored_ratings(app)
    assert rated and page.locator("[data-undo-form] kbd").is_visible()  # the key is promised
    expect(page.locator("#answer")).to_be_focused()
    expect(page.locator(".key-help")).to_be_visible()
    page.keyboard.press("u")
    page.wait_for_timeout(300)
    assert page.input_value("#answer") == "u"  # typed into the box, nothing undone
    assert stored_ratings(app) == rated
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement === document.body")
    assert page.input_value("#answer") == "u"  # leaving the box keeps what was typed
    with page.expect_navigation():
        page.keyboard.press("u")
    assert "Undone:" in page.locator("main").inner_text()
    assert stored_ratings(app) == rated[:-1]


def test_with_the_keys_off_neither_escape_nor_u_undoes(page, live_server):
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, "escaperoff", PASSWORD)
    page.goto(f"{base}/settings")
    page.uncheck("#keyboard_shortcuts")
    with page.expect_navigation():
        page.click("text=Save settings")
    page.goto(f"{base}/study")
    reach_puzzle(page)
    rated = stored_ratings(app)
    assert page.locator(".key-help").count() == 0  # no key is promised
    page.focus("#answer")
    page.keyboard.press("Escape")
    page.keyboard.press("u")
    page.wait_for_timeout(300)
    assert stored_ratings(app) == rated
