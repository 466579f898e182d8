"""Suspend in chromium: a study page's Suspend goes on to the next item, and the message's
Resume button brings the suspended one straight back."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser


def shown_key(page) -> str:
    return page.locator("article[data-item-kind]").get_attribute("data-item-key")


def test_suspend_on_a_study_page_then_resume_from_the_message(page, live_server):
    base = live_server["url"]
    register_in_browser(page, base, "suspender", "a long browser password")
    first = shown_key(page)
    page.locator("summary.reveal-button").click()  # after the answer is shown, as before it
    page.locator(".rate-bar").wait_for(state="visible")
    with page.expect_navigation():
        # Named with the item: "Suspend “<title>”" (a list of them would all read alike).
        page.get_by_role("button", name="Suspend “").click()
    assert shown_key(page) != first
    message = page.locator(".flash-suspended")
    assert message.is_visible() and message.inner_text().startswith("“")
    assert "suspended." in message.inner_text()
    with page.expect_navigation():
        message.get_by_role("button", name="Resume", exact=True).click()
    assert shown_key(page) == first
    assert "resumed" in page.locator(".flashes").inner_text()


def test_on_a_phone_suspend_sits_beside_the_card_and_the_list_fits(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        base = live_server["url"]
        register_in_browser(page, base, "phone_suspender", "a long browser password")
        # The form is inside its box (a form in a <p> closed the p and lost its place).
        assert page.locator(".item-actions form.suspend-form").count() == 1
        with page.expect_navigation():
            page.locator(".item-actions button").click()
        page.goto(f"{base}/study/suspended")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        resume = page.locator("table.suspended-items button").bounding_box()
        assert resume is not None and resume["x"] + resume["width"] <= 390
    finally:
        context.close()
