"""Studying on a phone held sideways (touch, a short screen): the puzzle's verdict is not under
the sticky rating bar, no key hints, fields that keep their look."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from webtest_support import register_in_browser

from quizapp import puzzles
from quizapp.web.rendering.filters import format_answer

pytestmark = pytest.mark.browser


def reach_puzzle_by_tapping(page) -> None:
    for _ in range(10):
        if page.locator("article[data-item-kind]").get_attribute("data-item-kind") == "skill":
            return
        page.tap("summary.reveal-button")
        with page.expect_navigation():
            page.tap("button.rate-3")
    raise AssertionError("no puzzle within ten items")


def test_a_sideways_phone_sees_the_verdict_and_no_key_hints(browser, live_server):
    context = browser.new_context(viewport={"width": 802, "height": 293}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    base, seeds = live_server["url"], live_server["seeds"]
    register_in_browser(page, base, "sideways")
    reach_puzzle_by_tapping(page)
    answer = page.locator("#answer")
    assert "monospace" in answer.evaluate("field => getComputedStyle(field).fontFamily")
    assert answer.get_attribute("autocapitalize") == "off"
    family, level = page.locator("article").get_attribute("data-item-key").split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    answer.fill(format_answer(puzzle["answer"], puzzle["answer_kind"]))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state("load")
    shown = """() => {
        const verdict = document.querySelector('[data-verdict]').getBoundingClientRect();
        const bar = document.querySelector('.rate-bar').getBoundingClientRect();
        return verdict.top >= -1 && verdict.top + 30 <= bar.top;  // at least its title shows
    }"""
    try:
        page.wait_for_function(shown, timeout=5000)
    except PlaywrightTimeout:
        verdict, bar = (page.locator(selector).bounding_box()
                        for selector in ("[data-verdict]", ".rate-bar"))
        raise AssertionError(f"the verdict stayed hidden: {verdict} under {bar}") from None
    assert page.evaluate("document.activeElement.classList.contains('suggested')")
    hints = page.locator(".rate kbd")
    assert hints.count() == 4 and all(
        hints.nth(i).evaluate("key => getComputedStyle(key).display") == "none" for i in range(4))
    context.close()


def test_sign_in_fields_tell_a_phone_what_they_hold(browser, live_server):
    page = browser.new_context(has_touch=True, is_mobile=True).new_page()
    page.goto(f"{live_server['url']}/register")
    assert page.get_attribute("#username", "autocomplete") == "username"
    assert page.get_attribute("#username", "autocapitalize") == "none"
    assert page.get_attribute("#password", "autocomplete") == "new-password"
    page.goto(f"{live_server['url']}/login")
    assert page.get_attribute("#password", "autocomplete") == "current-password"
    page.goto(f"{live_server['url']}/questions")
    sizes = page.locator(".filters select, .filters input").evaluate_all(
        "fields => fields.map(field => parseFloat(getComputedStyle(field).fontSize))")
    assert sizes and min(sizes) >= 16  # a phone's browser zooms into a smaller focused field
    page.context.close()


@pytest.mark.parametrize(("width", "height"), [(844, 390), (667, 375)])
def test_without_javascript_a_sideways_phone_sees_the_verdict_too(browser, live_server, width,
                                                                   height):
    """With the suggested button autofocused, the browser scrolled it into view and the verdict
    went under the sticky bar where no script brought it back."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                  is_mobile=True, java_script_enabled=False)
    page = context.new_page()
    base = live_server["url"]
    register_in_browser(page, base, f"nojs{width}")
    reach_puzzle_by_tapping(page)
    family, level = page.locator("article").get_attribute("data-item-key").split("/")
    puzzle = puzzles.generate(family, level, live_server["seeds"].given[-1])
    page.fill("#answer", format_answer(puzzle["answer"], puzzle["answer_kind"]))
    with page.expect_navigation():
        page.tap("button[type=submit].primary")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"
    verdict, bar = (page.locator(selector).bounding_box() for selector in ("#verdict", ".rate-bar"))
    assert verdict["y"] >= 0 and verdict["y"] + verdict["height"] <= bar["y"] + 1, (verdict, bar)
    context.close()
