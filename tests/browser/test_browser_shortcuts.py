"""Shortcuts in chromium: a person who turns them off in Settings is not rated or undone by a
stray key, and on a small screen Space shows the answer and the button a second Space presses."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from webtest_support import register_in_browser, stored_ratings

from quizapp import puzzles
from quizapp.web.rendering.filters import format_answer

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"


def test_turned_off_the_keys_do_nothing_and_the_buttons_still_work(page, live_server):
    base, app = live_server["url"], live_server["app"]
    register_in_browser(page, base, "quiet", PASSWORD)
    page.goto(f"{base}/settings")
    page.uncheck("#keyboard_shortcuts")
    with page.expect_navigation():
        page.click("text=Save settings")
    assert "Settings saved." in page.locator("main").inner_text()
    page.goto(f"{base}/study")
    assert page.locator("kbd").count() == 0  # no key is offered
    page.locator("main").focus()
    for key in ("Space", "3", "u"):
        page.keyboard.press(key)
    assert page.evaluate("document.querySelector('[data-reveal]').open") is False
    page.click("summary.reveal-button")
    page.locator(".rate-bar").wait_for(state="visible")
    # The focus is on the answer, not on Good: a stray Space or Enter presses nothing.
    expect(page.locator(".answer")).to_be_focused()
    for key in ("Space", "Enter", "1", "2", "3", "4"):
        page.keyboard.press(key)
    assert stored_ratings(app) == []  # the keys were sent; nothing was rated
    with page.expect_navigation():
        page.click(".rate-2")
    assert stored_ratings(app) == [2]
    page.locator("main").focus()
    page.keyboard.press("u")
    assert stored_ratings(app) == [2]  # and nothing undone
    with page.expect_navigation():
        page.click("[data-undo-form] button")
    assert stored_ratings(app) == []


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 256}, {"width": 320, "height": 400}])
def test_on_a_small_screen_space_brings_the_answer_and_good_into_view(browser, live_server,
                                                                      viewport):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        register_in_browser(page, live_server["url"], f"small{viewport['height']}", PASSWORD)
        page.locator("main").focus()
        page.keyboard.press("Space")
        page.wait_for_function("document.activeElement.matches('.rate-3')")
        boxes = page.evaluate("""() => {
            const box = (s) => document.querySelector(s).getBoundingClientRect();
            return {answer: box('.answer').top, goodTop: box('.rate-3').top,
                    goodBottom: box('.rate-3').bottom, height: window.innerHeight};
        }""")
        assert 0 <= boxes["answer"] < boxes["height"], boxes  # the answer starts on screen
        assert boxes["goodTop"] >= 0 and boxes["goodBottom"] <= boxes["height"], boxes
        with page.expect_navigation():
            page.keyboard.press("Space")
        assert stored_ratings(live_server["app"]) == [3]
    finally:
        context.close()


def announced_keys(page) -> list[str]:
    return page.eval_on_selector_all(
        "[aria-keyshortcuts]", "els => els.map(e => e.getAttribute('aria-keyshortcuts'))")


@pytest.mark.parametrize("javascript", [True, False])
def test_keys_are_announced_only_where_the_script_makes_them_work(browser, live_server,
                                                                  javascript):
    context = browser.new_context(java_script_enabled=javascript)
    try:
        page = context.new_page()
        register_in_browser(page, live_server["url"], f"keys{int(javascript)}", PASSWORD)
        page.click("summary.reveal-button")
        with page.expect_navigation():
            page.click("button.rate-3")  # so the status bar's Undo is there too
        page.click("summary.reveal-button")
        keys = announced_keys(page)
    finally:
        context.close()
    # Space on Show answer, 1-4 on the ratings, u on Undo; with the script off, no key works
    # and none is announced to a screen reader.
    assert sorted(keys) == (sorted(["Space Enter", "1", "2", "3", "4", "u"]) if javascript else [])


def test_turned_off_a_puzzles_result_leaves_the_focus_on_the_verdict(page, live_server):
    """With the keys off, the suggested rating is not focused either: a stray Space or Enter
    after Check (speech input's "press enter", a double press) rates nothing, as on a card."""
    base, app, seeds = live_server["url"], live_server["app"], live_server["seeds"]
    register_in_browser(page, base, "quietpuzzle", PASSWORD)
    page.goto(f"{base}/settings")
    page.uncheck("#keyboard_shortcuts")
    with page.expect_navigation():
        page.click("text=Save settings")
    page.goto(f"{base}/study")
    for _ in range(10):  # the bank's cards rated Good until a puzzle is shown
        if page.locator("article[data-item-kind=skill]").count():
            break
        page.click("summary.reveal-button")
        with page.expect_navigation():
            page.click(".rate-3")
    key = page.locator("article[data-item-kind=skill]").get_attribute("data-item-key")
    family, level = key.split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    page.fill("#answer", format_answer(puzzle["answer"], puzzle["answer_kind"]))
    with page.expect_navigation():
        page.click("button:has-text('Check')")
    expect(page.locator("[data-verdict]")).to_be_focused()
    rated = len(stored_ratings(app))
    for key in ("Space", "Enter", "3"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert len(stored_ratings(app)) == rated  # the keys were sent; nothing was rated
    with page.expect_navigation():
        page.click(".rate-bar .suggested")
    assert len(stored_ratings(app)) == rated + 1
