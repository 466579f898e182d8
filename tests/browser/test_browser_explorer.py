"""Explorer in chromium: explanations wrap to a phone's width, values print one row per line."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser
LONG = "torch.arange(24.).view(2, 3, 4).transpose(0, 2).reshape(4, 6)"
REFUSED = "torch.arange(24.).view(2, 3, 4).transpose(0, 2).view(24)"
PHONES = [320, 375, 768]
DESKTOP = 1280

# Every piece of running text in the result (a step's why, the refused view's message and its
# why): the right edge of its box and of its text, and the right edge of the box it scrolls in.
PROSE_JS = """() => {
  const box = document.querySelector('.table-wrap').getBoundingClientRect();
  const prose = document.querySelectorAll(
    '.explain .why-row td:not(:empty), .explain .error-row td:not(.num), .explain .error-row code,'
    + ' .explain .error-row .why');
  return [...prose].map((element) => {
    const text = document.createRange();
    text.selectNodeContents(element);
    return {element: [element.tagName.toLowerCase(), ...element.classList].join('.'),
            text: element.textContent.trim().slice(0, 40),
            left: Math.min(element.getBoundingClientRect().left, text.getBoundingClientRect().left),
            right: Math.max(element.getBoundingClientRect().right, text.getBoundingClientRect().right),
            boxLeft: box.left, boxRight: box.right};
  });
}"""


def open_explorer(browser, width: int, base: str, expr: str):
    context = browser.new_context(viewport={"width": width, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{base}/explorer?expr={quote(expr)}")
    return page


@pytest.mark.parametrize("expr", [LONG, REFUSED], ids=["long", "refused"])
@pytest.mark.parametrize("width", PHONES)
def test_explanations_wrap_to_the_screen(browser, live_server, width, expr):
    page = open_explorer(browser, width, live_server["url"], expr)
    prose = page.evaluate(PROSE_JS)
    kinds = {item["element"] for item in prose}
    assert "td" in kinds  # the why of each step
    if expr == REFUSED:
        assert {"code", "p.why"} <= kinds  # torch's message and why the view was refused
    cut = [f"{item['element']} {item['text']!r}: {item['left']:.0f}..{item['right']:.0f} px, "
           f"box {item['boxLeft']:.0f}..{item['boxRight']:.0f}, screen {width}"
           for item in prose
           if item["right"] > min(width, item["boxRight"]) + 0.5 or item["left"] < item["boxLeft"] - 0.5]
    assert cut == [], "\n".join(cut)
    # Every step's layout is still shown, each value beside its label, and the page itself fits.
    cells = page.locator(".explain .step-row td[data-label]")
    assert cells.count() == 6 * page.locator(".explain .step-row").count()
    labels = cells.evaluate_all("cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert set(labels) == {'"Shape"', '"Stride"', '"Offset"', '"Contiguous"', '"Storage"', '"dtype"'}
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.context.close()


def test_a_desktop_keeps_the_table(browser, live_server):
    page = open_explorer(browser, DESKTOP, live_server["url"], REFUSED)
    assert page.locator("table.explain").evaluate("t => getComputedStyle(t).display") == "table"
    assert page.locator(".explain thead th").first.is_visible()
    labels = page.locator(".explain .step-row td[data-label]").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert set(labels) == {"none"}  # the column headings name them
    assert page.evaluate(PROSE_JS) != []
    page.context.close()


@pytest.mark.parametrize("width", [*PHONES, DESKTOP])
def test_values_print_one_row_per_line(browser, live_server, width):
    page = open_explorer(browser, width, live_server["url"], LONG)
    values = page.locator("pre.output")
    lines = values.inner_text().splitlines()
    assert len(lines) == 4 and lines[0].startswith("[[") and lines[-1].endswith("]]")
    if width == DESKTOP:
        assert values.evaluate("pre => pre.scrollWidth <= pre.clientWidth")
    else:
        assert values.evaluate("pre => pre.getBoundingClientRect().right") <= width
    # The heading of the values does not touch the table above it.
    gap = page.evaluate("""() => document.querySelector('#values-heading').getBoundingClientRect().top
                           - document.querySelector('.table-wrap').getBoundingClientRect().bottom""")
    assert gap >= 16
    page.context.close()


PROGRAM = ("x = torch.arange(24).view(2, 3, 4)\ny = x.permute(2, 0, 1)[:, [0, 1]]\n"
           "z = y.flip(0)\nz[z > 10]")


@pytest.mark.parametrize("width", [375, DESKTOP])
def test_a_program_of_lines_fits_and_keeps_its_lines(browser, live_server, width, tmp_path):
    """Each line heads its steps, the field keeps the line breaks, every step has its picture,
    and the page does not scroll sideways (a screenshot to look at goes to
    QUIZAPP_SCREENSHOTS, else to the test's tmp_path)."""
    page = open_explorer(browser, width, live_server["url"], PROGRAM)
    shots = Path(os.environ.get("QUIZAPP_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(shots / f"explorer-program-{width}.png"), full_page=False)
    heads = page.locator(".explain .line-row code").all_inner_texts()
    assert heads == PROGRAM.split("\n")
    assert page.locator("#expr").input_value() == PROGRAM
    steps = page.locator(".explain .step-row").count()
    assert steps == 6 and page.locator("svg.pic").count() == steps
    assert page.locator(".explain .line-row").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # the field's lines can be edited and sent again with the button
    page.locator("#expr").fill("x = torch.arange(6)\nx.flip(0)")
    with page.expect_navigation():
        page.locator(".explorer-form button[type=submit]").click()
    assert page.locator("pre.output").inner_text() == "[5, 4, 3, 2, 1, 0]"
    page.context.close()


def test_a_program_example_shows_one_line_per_line(page, live_server):
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(f"{live_server['url']}/explorer")
    example = page.locator(".examples code", has_text="y = x.t()")
    lines = example.inner_text().splitlines()
    assert len(lines) >= 2 and lines[0].startswith("x = "), lines
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
