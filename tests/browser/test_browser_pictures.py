"""Explorer pictures in chromium: phone and desktop, light and dark; hover and focus link cells."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser
CHAIN = "torch.arange(12).view(3, 4)[:, 1::2]"
WIDE = "torch.arange(24.).view(2, 3, 4).expand(2, 2, 3, 4)"
# Screenshots go here to be looked at (QUIZAPP_SCREENSHOTS), else to the test's tmp_path.
SHOTS = os.environ.get("QUIZAPP_SCREENSHOTS")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_pictures_fit_the_page_and_light_their_partners(browser, live_server, tmp_path, width,
                                                         scheme):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    context.set_default_timeout(15_000)
    page = context.new_page()
    for expr in (CHAIN, WIDE):
        page.goto(f"{live_server['url']}/explorer?expr={quote(expr)}")
        assert page.locator("svg.pic").count() == 3
        # The page never scrolls sideways; a wide picture scrolls inside its own figure.
        sizes = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert sizes[0] <= sizes[1], sizes
        # The SVG takes the page's colours: its text is the body's text colour in both schemes.
        colours = page.evaluate("""() => [getComputedStyle(document.body).color,
            getComputedStyle(document.querySelector('svg.pic .pic-value')).fill]""")
        assert colours[0] == colours[1], colours
        shot = Path(SHOTS or tmp_path) / f"pictures-{width}-{scheme}-{expr == WIDE}.png"
        page.locator("#picture-step-2").screenshot(path=str(shot))
    page.goto(f"{live_server['url']}/explorer?expr={quote(CHAIN)}")
    last = page.locator("#picture-step-2 svg.pic")
    # Hover a grid cell: its storage cell lights; hover a storage cell: its grid cell lights.
    last.locator(".pic-el[data-pos='7']").hover()
    assert last.locator(".pic-slot.hot").evaluate_all("s => s.map(e => e.dataset.pos)") == ["7"]
    last.locator(".pic-slot[data-pos='9']").hover()
    assert last.locator(".pic-el.hot").evaluate_all("s => s.map(e => e.dataset.pos)") == ["9"]
    page.mouse.move(0, 0)
    assert last.locator(".hot").count() == 0
    # Keyboard: one tab stop per picture, arrows move, focus lights the partner too.
    last.locator(".pic-el").first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.pos")
    assert focused == "3"
    assert last.locator(".pic-slot.hot").evaluate_all("s => s.map(e => e.dataset.pos)") == ["3"]
    context.close()
