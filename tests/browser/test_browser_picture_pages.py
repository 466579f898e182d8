"""Pictures beyond the explorer's steps, in chromium at 375 and 1280 px, light and dark: a refused
view and its reruns, a puzzle's worked solution, a card's code sample. No page scrolls sideways,
text meets WCAG AA (the page's and the SVG's own), and the reruns work without JavaScript."""

from __future__ import annotations

import dataclasses
import os
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import pytest
from test_browser_layout import COLOURS_JS, low_contrast
from webtest_support import make_card, register_in_browser

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.services.bank_import import import_cards

pytestmark = pytest.mark.browser
REFUSED = "torch.arange(24).view(2, 3, 4).transpose(0, 1).view(24)"
SAMPLE = "import torch\n\nx = torch.arange(12).view(3, 4)\ny = x.t().reshape(12)\nprint(y)\n"
SHOTS = os.environ.get("QUIZAPP_SCREENSHOTS")
AA = 4.5

# Every SVG text: its fill against the fill of the shape it sits on (the topmost rect under its
# middle, else the page behind the SVG). colour is never alone, but where it is there, it reads.
SVG_CONTRAST_JS = """(root) => {""" + COLOURS_JS + """
  const found = [];
  for (const text of root.querySelectorAll("svg.pic text")) {
    const box = text.getBoundingClientRect();
    if (!box.width || !text.checkVisibility()) continue;
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const under = document.elementsFromPoint(x, y).find(
      (el) => el.tagName === "rect" && getComputedStyle(el).fill.startsWith("rgb"));
    const back = under ? rgba(getComputedStyle(under).fill).slice(0, 3)
                       : background(text.closest("svg").parentElement);
    const fill = rgba(getComputedStyle(text).fill).slice(0, 3);
    found.push({text: text.textContent, ratio: ratio(fill, back)});
  }
  return found;
}"""


def shoot(element, name: str, tmp_path) -> None:
    element.screenshot(path=str(Path(SHOTS or tmp_path) / name))


def check_page(page, label: str, width: int, scheme: str, failures: list[str]) -> None:
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    if sizes[0] > sizes[1]:
        failures.append(f"{label} {width} {scheme}: scrolls sideways {sizes}")
    failures += low_contrast(page, f"{label} {width} {scheme}", set())
    svg_texts = page.locator("main").evaluate(SVG_CONTRAST_JS)
    assert len(svg_texts) > 10, (label, svg_texts)  # the pictures' own words were measured
    for item in svg_texts:
        if item["ratio"] < AA:
            failures.append(f"{label} {width} {scheme} svg {item['text']!r}: {item['ratio']:.2f}")


@pytest.fixture
def sample_card(live_server):
    card = dataclasses.replace(make_card("sample-drawn", title="Views and copies drawn"),
                               code=SAMPLE)
    with live_server["app"].app_context():
        import_cards(db.session, [card], datetime.now(UTC))
        db.session.remove()
    return card


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_refused_solution_and_sample_pictures_fit_and_read(browser, live_server, sample_card,
                                                           tmp_path, width, scheme):
    base = live_server["url"]
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    context.set_default_timeout(15_000)
    page = context.new_page()
    failures: list[str] = []
    # The refused view: its chunks, break and equation; both reruns are plain links.
    page.goto(f"{base}/explorer?expr={quote(REFUSED)}")
    refused = page.locator("#picture-refused")
    assert refused.locator("svg.pic-refused .pic-chunk").count() == 3
    assert "12 ≠ 4" in refused.locator("svg.pic-refused").text_content()
    shoot(refused, f"refused-{width}-{scheme}.png", tmp_path)
    check_page(page, "refused", width, scheme, failures)
    with page.expect_navigation():
        refused.get_by_role("link", name=".reshape(24)").click()
    copy = page.locator("#picture-step-3")
    assert "copied from storage #0 (step 2)" in copy.text_content()
    assert page.evaluate("() => location.hash") == "#picture-step-3"
    shoot(copy, f"rerun-reshape-{width}-{scheme}.png", tmp_path)
    check_page(page, "rerun", width, scheme, failures)
    # A card's code sample: its chain drawn, with a link to the explorer.
    page.goto(f"{base}/questions/{sample_card.id}")
    chain = page.locator(".picture-chain").first
    assert chain.get_by_role("link", name="Open in the explorer").count() == 1
    chain.locator(".picture-chain-body > summary").click()
    assert chain.locator("svg.pic:not(.pic-refused)").count() == 4  # one per step
    assert chain.locator("svg.pic-refused").count() == 1  # why the reshape copied
    shoot(chain, f"sample-{width}-{scheme}.png", tmp_path)
    check_page(page, "card sample", width, scheme, failures)
    # A puzzle's worked solution, after a wrong answer.
    register_in_browser(page, base, f"drawn{width}{scheme}")
    page.goto(f"{base}/study?skill=view_possible/middle")
    page.locator("article[data-item-kind='skill']").wait_for()
    puzzle = puzzles.deal("view_possible", "middle", live_server["seeds"].given[-1])
    page.locator("#answer").fill("no" if puzzle.answer else "yes")
    with page.expect_navigation():
        page.locator("#answer").press("Enter")
    assert page.locator("[data-verdict='wrong']").count() == 1
    pictures = page.locator(".puzzle-pictures")
    assert pictures.locator("svg.pic").count() >= 2  # one chain, open: its steps
    shoot(pictures, f"solution-{width}-{scheme}.png", tmp_path)
    check_page(page, "solution", width, scheme, failures)
    context.close()
    assert failures == [], "\n".join(failures)
