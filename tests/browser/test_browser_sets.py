"""A person makes a practice set in chromium, takes it with a wrong and a right puzzle answer
and reads the result; its print view, printed to PDF by chromium, starts the answer key on a
page of its own."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from sets_support import right_answer, wrong_answer
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser


def make_set(page, base: str, time_limit: str = "", title: str = "Strides warm-up") -> str:
    """Fill /sets/new (junior, fresh strides, 4 items of which 2 puzzles), preview, save;
    the set's address."""
    page.goto(f"{base}/sets/new")
    page.check("input[name=levels][value=junior]")
    page.check("input[name=families][value=fresh_strides]")
    page.fill("#count", "4")
    page.fill("#puzzles", "2")
    page.fill("#title", title)
    page.fill("#time_limit", time_limit)
    with page.expect_navigation():
        page.click("button:text('Preview')")
    assert "4 items: 2 questions and 2 puzzles" in page.inner_text(".set-preview")
    assert re.fullmatch(r"[0-9]+", page.input_value("#seed"))  # drawn and shown
    with page.expect_navigation():
        page.click("button:text('Save this set')")
    assert page.locator("h1").inner_text() == title
    return page.url


def test_make_a_set_take_it_and_read_the_result(page, live_server):
    base = live_server["url"]
    register_in_browser(page, base, "setter")
    set_url = make_set(page, base, time_limit="10")
    with page.expect_navigation():
        page.click("a:text('Take this set')")
    with page.expect_navigation():
        page.click("button:text('Start the clock')")
    # The server wrote the minutes left and the deadline; the script counts down by seconds.
    assert "Answer by" in page.inner_text(".set-clock")
    page.wait_for_function(
        "/^(9|10):[0-5][0-9]$/.test(document.querySelector('[data-time-left]').textContent)")
    puzzles_seen = []
    for _ in range(4):
        article = page.locator("article[data-item-kind]")
        kind, key = article.get_attribute("data-item-kind"), article.get_attribute("data-item-key")
        position = article.get_attribute("data-position")
        if kind == "card":
            assert not page.locator("button:text('Knew it')").is_visible()
            page.click("summary:text('Show the answer')")
            with page.expect_navigation():
                page.click("button:text('Knew it')")
        else:
            typed = wrong_answer(key) if not puzzles_seen else right_answer(key)
            puzzles_seen.append((position, key, typed))
            page.fill("#answer", typed)
            with page.expect_navigation():
                page.press("#answer", "Enter")
    assert len(puzzles_seen) == 2
    assert page.locator("h1").inner_text() == "Your result: 3 of 4 right"
    results = page.locator("li[data-result]")
    assert [results.nth(i).get_attribute("data-result") for i in range(4)].count("wrong") == 1
    # Each puzzle's row: the answer given, then the right one.
    for number, (position, key, typed) in enumerate(puzzles_seen):
        row = page.locator(f"li[data-position='{position}']")
        assert row.get_attribute("data-result") == ("wrong" if number == 0 else "correct")
        assert row.locator(".verdict-answers code").all_inner_texts() == [typed,
                                                                          right_answer(key)]
    assert page.locator("a:text('Walk this chain in the explorer')").count() == 2
    with page.expect_navigation():
        page.locator("a:text('Walk this chain in the explorer')").first.click()
    assert "/explorer?expr=torch." in page.url
    page.goto(f"{base}/sets")
    assert "3 of 4 right" in page.inner_text("main")
    assert page.url.endswith("/sets") and set_url


def test_the_print_view_puts_the_answer_key_on_a_new_page(page, live_server):
    base = live_server["url"]
    register_in_browser(page, base, "printer")
    set_url = make_set(page, base)
    page.goto(f"{set_url}/print")
    assert page.locator("nav").count() == 0
    page.emulate_media(media="print")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    texts = [sheet.extract_text() for sheet in pdf.pages]
    key_pages = [number for number, text in enumerate(texts) if "Answer key" in text]
    assert len(key_pages) == 1, texts
    first_key_page = key_pages[0]
    assert first_key_page >= 1
    # The key's page starts with it: nothing of the questions shares that page.
    assert texts[first_key_page].lstrip().startswith("Answer key"), texts[first_key_page][:200]
    assert all("Answer:" not in text for text in texts[:first_key_page])
    assert "Strides warm-up" in texts[0]


def test_a_title_of_one_long_word_wraps_on_a_phone(page, live_server):
    # A title may be 200 characters with no space (a pasted path or identifier): every page
    # that names the set wraps it instead of scrolling the whole page sideways.
    base = live_server["url"]
    page.set_viewport_size({"width": 375, "height": 800})
    register_in_browser(page, base, "longtitle")
    title = "torch.nn.functional." + "x" * 180
    set_url = make_set(page, base, time_limit="10", title=title)
    page.goto(f"{set_url}/take")
    with page.expect_navigation():
        page.click("button:text('Start the clock')")
    attempt_url = page.url
    with page.expect_navigation():
        page.click("button:text('Finish now')")
    for url in (f"{base}/sets", set_url, f"{set_url}/take", attempt_url, f"{set_url}/print"):
        page.goto(url)
        assert title in page.inner_text("body").replace("\n", ""), url
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, url
