"""A puzzle's options are controls: a click or a tap picks one and fills the answer box, typing a
letter ticks it, Enter checks, and without JavaScript a pick alone is still an answer."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

from quizapp import puzzles
from quizapp.web.rendering.filters import format_answer

pytestmark = pytest.mark.browser


def current_puzzle(page, seeds) -> dict | None:
    article = page.locator("article[data-item-kind]")
    if article.get_attribute("data-item-kind") != "skill":
        return None
    family, level = article.get_attribute("data-item-key").split("/")
    return puzzles.generate(family, level, seeds.given[-1])


def reach_puzzle_of_kind(page, seeds, kinds: set[str], tap: bool = False) -> dict:
    """Study (cards rated Good, other puzzles answered right) until a puzzle of ``kinds``."""
    press = page.tap if tap else page.click
    for _ in range(25):
        puzzle = current_puzzle(page, seeds)
        if puzzle is not None and puzzle["answer_kind"] in kinds:
            return puzzle
        if puzzle is None:
            press("summary.reveal-button")
        else:
            page.fill("#answer", format_answer(puzzle["answer"], puzzle["answer_kind"]))
            with page.expect_navigation():
                press("button[type=submit].primary")
        with page.expect_navigation():
            press("button.rate-3")
    raise AssertionError(f"no {kinds} puzzle within 25 items")


def right_label(page, puzzle: dict):
    """The option row that gives the right answer (a choice or yes/no puzzle)."""
    if puzzle["answer_kind"] == "bool":
        value = "yes" if puzzle["answer"] else "no"
    else:
        value = puzzle["answer"].upper()
    return page.locator(f'label.pick:has(input[value="{value}"])'), value


def test_clicking_an_option_fills_the_box_and_typing_ticks_it(page, live_server):
    base, seeds = live_server["url"], live_server["seeds"]
    register_in_browser(page, base, "clicker")
    puzzle = reach_puzzle_of_kind(page, seeds, {"choice"})
    assert page.locator("ol.choices").count() == 0
    label, value = right_label(page, puzzle)
    label.click()
    assert page.input_value("#answer") == value
    assert label.locator("input").is_checked()
    other = next(letter for letter in "ABCD" if letter != value)
    page.fill("#answer", other.lower())  # typed in the box: the tick follows the letter
    assert page.locator(f'input[name="pick"][value="{other}"]').is_checked()
    assert not label.locator("input").is_checked()
    page.fill("#answer", "not an option")
    assert page.locator('input[name="pick"]:checked').count() == 0
    label.click()
    label.locator("input").focus()  # Enter on the ticked option checks the answer
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"
    assert page.locator(".verdict-answers dd code").first.inner_text() == value


def test_a_phone_answers_a_yes_or_no_puzzle_with_two_taps(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    base, seeds = live_server["url"], live_server["seeds"]
    register_in_browser(page, base, "tapper")
    puzzle = reach_puzzle_of_kind(page, seeds, {"bool"}, tap=True)
    label, value = right_label(page, puzzle)
    box = label.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 300  # a whole row is the target
    # The answer box does not take the focus on a touch screen: it would bring up the keyboard
    # over the two options to be tapped.
    assert page.evaluate("document.activeElement === document.body")
    label.tap()
    with page.expect_navigation():
        page.tap("button[type=submit].primary")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"
    context.close()


def test_with_a_mouse_an_option_puzzle_is_answered_by_typing_its_letter(page, live_server):
    """No pointer is coarse here: the answer box has the focus, as on a puzzle without options."""
    base, seeds = live_server["url"], live_server["seeds"]
    register_in_browser(page, base, "typist")
    puzzle = reach_puzzle_of_kind(page, seeds, {"choice", "bool"})
    assert page.locator("#answer").get_attribute("autofocus") is None  # the script focuses it
    page.wait_for_function("document.activeElement.id === 'answer'")
    _, value = right_label(page, puzzle)
    page.keyboard.type(value.lower())
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"


def test_without_javascript_a_pick_alone_is_an_answer(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    base, seeds = live_server["url"], live_server["seeds"]
    register_in_browser(page, base, "nojs-picker")
    puzzle = reach_puzzle_of_kind(page, seeds, {"choice", "bool"})
    label, value = right_label(page, puzzle)
    label.click()
    assert page.input_value("#answer") == ""  # no script to copy it: the server reads the pick
    with page.expect_navigation():
        page.click("button[type=submit].primary")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "correct"
    with page.expect_navigation():
        page.click("button.rate-3")
    assert "comes back in" in page.locator(".last-rating").inner_text()
    context.close()
