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
        page.get_by_role("button", name="Suspend", exact=True).click()
    assert shown_key(page) != first
    message = page.locator(".flash-suspended")
    assert message.is_visible() and message.inner_text().startswith("“")
    assert "suspended." in message.inner_text()
    with page.expect_navigation():
        message.get_by_role("button", name="Resume", exact=True).click()
    assert shown_key(page) == first
    assert "resumed" in page.locator(".flashes").inner_text()
