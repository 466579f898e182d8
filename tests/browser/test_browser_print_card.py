"""A card page printed to PDF by chromium: its closed parts (go deeper, follow-ups, red flags)
are printed open, with or without JavaScript; navigation, buttons and forms are left out; a
dark theme prints dark text on white."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser
PASSWORD = "a long browser password"
# Only inside the card's closed parts (webtest_support.make_card).
CLOSED_PARTS = ["Because.", "Then this.", "Saying views copy.", "Saying strides are bytes.",
                "And then?"]
# The site's navigation, footer and the page's controls.
LEFT_OUT = ["Skip to content", "Explorer", "Settings", "Log out", "Study it now", "Suspend",
            "Back to the list", "All questions", "a reference view engine checked"]


def printed_text(page) -> str:
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    return re.sub(r"\s+", " ", " ".join(sheet.extract_text() for sheet in pdf.pages))


@pytest.mark.parametrize("javascript", [True, False])
def test_a_printed_card_has_its_closed_parts_and_no_navigation(browser, live_server,
                                                               javascript):
    base = live_server["url"]
    context = browser.new_context(java_script_enabled=javascript)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        register_in_browser(page, base, f"printer{int(javascript)}", PASSWORD)
        page.goto(f"{base}/settings")  # a dark page must not print light grey on white
        page.get_by_label("Dark", exact=True).check()
        with page.expect_navigation():
            page.click("text=Save settings")
        page.goto(f"{base}/questions/browser-one")
        assert page.evaluate("[...document.querySelectorAll('details.more')].every(d => !d.open)")
        assert not page.get_by_text("Saying views copy.").is_visible()  # closed on screen
        text = printed_text(page)
        assert "Strides of a matrix" in text and "Basics of browser-one." in text
        for part in CLOSED_PARTS:
            assert part in text, (part, text)
        for left_out in LEFT_OUT:
            assert left_out not in text, (left_out, text)
        # Still closed on screen afterwards: printing changed nothing the person sees.
        assert page.evaluate("[...document.querySelectorAll('details.more')].every(d => !d.open)")
        page.emulate_media(media="print")
        colours = page.evaluate("""() => ({text: getComputedStyle(document.body).color,
            nav: getComputedStyle(document.querySelector('.topbar')).display})""")
        assert colours == {"text": "rgb(0, 0, 0)", "nav": "none"}
    finally:
        context.close()


def test_printing_opens_the_closed_parts_and_closes_them_again(page, live_server):
    """The script's part, for browsers whose print CSS cannot show a closed <details>: the
    parts it opened for printing close again after; one the person opened stays open."""
    base = live_server["url"]
    page.goto(f"{base}/questions/browser-one")
    page.click("text=Red flags (2)")
    opened = "[...document.querySelectorAll('details.more')].map(d => d.open)"
    assert page.evaluate(opened) == [False, False, True]
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.evaluate(opened) == [True, True, True]
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    assert page.evaluate(opened) == [False, False, True]
