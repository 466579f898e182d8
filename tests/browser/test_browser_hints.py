"""A puzzle's hints count toward the suggested rating (right after a hint is Hard) with or
without JavaScript: the script counts the hints opened, and without it each hint is a button
that asks the server for the same puzzle with that hint open."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

from quizapp import puzzles
from quizapp.web.rendering.filters import format_answer

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"


def reach_puzzle(page) -> str:
    for _ in range(10):  # the bank's cards rated Good until a puzzle is shown
        article = page.locator("article[data-item-kind]")
        if article.get_attribute("data-item-kind") == "skill":
            return article.get_attribute("data-item-key")
        page.click("summary.reveal-button")
        with page.expect_navigation():
            page.click(".rate-3")
    raise AssertionError("no puzzle within ten items")


def answer_right_and_see_hard_suggested(page, puzzle: dict) -> None:
    page.fill("#answer", format_answer(puzzle["answer"], puzzle["answer_kind"]))
    with page.expect_navigation():
        page.click("button:has-text('Check')")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"
    assert page.locator(".rate-bar .suggested .rate-label").inner_text() == "Hard"


@pytest.mark.parametrize("javascript", [True, False])
def test_a_right_answer_after_a_hint_suggests_hard(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        register_in_browser(page, live_server["url"], f"hinted{int(javascript)}", PASSWORD)
        family, level = reach_puzzle(page).split("/")
        puzzle = puzzles.generate(family, level, live_server["seeds"].given[-1])
        first_hint = page.locator("details.hint").first
        assert not first_hint.locator(".prose").is_visible()
        if javascript:
            first_hint.locator("summary").click()
        else:  # a button that comes back with the same puzzle, that hint open
            with page.expect_navigation():
                page.click("button[name=hint]")
            assert "#hint-1" in page.url
        assert first_hint.locator(".prose").is_visible()
        assert page.locator(".hint .prose").nth(1).is_visible() is False
        answer_right_and_see_hard_suggested(page, puzzle)
    finally:
        context.close()


def test_a_reload_keeps_the_hints_opened_on_that_puzzle_and_only_on_it(browser, live_server):
    context = browser.new_context()
    context.set_default_timeout(15_000)
    try:
        given = []

        def same_on_reload(*shown: int) -> int:  # as in production: one page, one puzzle
            given.append(5000 + sum(shown))
            return given[-1]

        live_server["app"].config["PUZZLE_SEED_SOURCE"] = same_on_reload
        page = context.new_page()
        register_in_browser(page, live_server["url"], "reloader", PASSWORD)
        family, level = reach_puzzle(page).split("/")
        puzzle = puzzles.generate(family, level, given[-1])
        page.locator("details.hint").first.locator("summary").click()
        page.reload()  # the same puzzle again (its seed is kept), its first hint still open
        hints = page.locator("details.hint")
        assert hints.first.locator(".prose").is_visible()
        assert hints.nth(1).locator(".prose").is_visible() is False
        assert page.locator("[data-hints-used]").input_value() == "1"
        # What is remembered names the puzzle: another puzzle's count opens nothing here.
        page.evaluate("""() => {
            const saved = JSON.parse(sessionStorage.getItem("quizapp.hints-opened"));
            sessionStorage.setItem("quizapp.hints-opened",
                JSON.stringify({puzzle: saved.puzzle + " (another)", count: 2}));
        }""")
        page.reload()
        assert hints.first.locator(".prose").is_visible() is False
        assert page.locator("[data-hints-used]").input_value() == "0"
        hints.first.locator("summary").click()  # opened again: counted again, and kept
        page.reload()
        assert page.locator("[data-hints-used]").input_value() == "1"
        answer_right_and_see_hard_suggested(page, puzzle)
    finally:
        context.close()


def test_hints_opened_on_a_puzzle_do_not_open_on_a_fresh_dealing_with_the_same_text(
        browser, live_server):
    # A fresh puzzle (here after Undo) can read exactly like the one before: a family with few
    # variants deals the same text for another seed now and then (tolist junior: about 1 in 80).
    # Every seed is the same here, so the fresh puzzle always reads like the old one.
    context = browser.new_context()
    context.set_default_timeout(15_000)
    try:
        live_server["app"].config["PUZZLE_SEED_SOURCE"] = lambda *shown: 5000
        page = context.new_page()
        register_in_browser(page, live_server["url"], "redealt", PASSWORD)
        key = reach_puzzle(page)
        family, level = key.split("/")
        page.locator("details.hint").first.locator("summary").click()
        answer_right_and_see_hard_suggested(page, puzzles.generate(family, level, 5000))
        with page.expect_navigation():
            page.click(".rate-bar .suggested")
        with page.expect_navigation():
            page.click("[data-undo-form] button")
        assert page.locator("article[data-item-kind]").get_attribute("data-item-key") == key
        assert page.locator("details.hint").first.locator(".prose").is_visible() is False
        assert page.locator("[data-hints-used]").input_value() == "0"
    finally:
        context.close()


def test_without_javascript_a_hint_closed_by_its_summary_stays_to_be_opened_again(
        browser, live_server):
    # Without the script a closed hint is hidden (its button stands in), but a hint already
    # asked for has no button any more: closing it with Enter on its summary hid it, the focus
    # left on the hidden summary and the hint out of reach until the page was reloaded.
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        register_in_browser(page, live_server["url"], "closer", PASSWORD)
        reach_puzzle(page)
        page.focus("button[name=hint]")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        first_hint = page.locator("details.hint").first
        summary = first_hint.locator("summary")
        summary.focus()
        page.keyboard.press("Enter")  # closes it
        assert summary.is_visible()
        assert page.evaluate("document.activeElement.checkVisibility()")
        assert not first_hint.locator(".prose").is_visible()
        page.keyboard.press("Enter")  # and opens it again
        assert first_hint.locator(".prose").is_visible()
        # A hint not yet asked for stays hidden behind its button.
        assert page.locator("details.hint").nth(1).is_visible() is False
        assert page.locator("button[name=hint]").inner_text().strip() == "▸ Hint 2"
    finally:
        context.close()
