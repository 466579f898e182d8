"""/progress in chromium at 375 and 1280 px, light and dark: no sideways scrolling, text
contrast (HTML and SVG), charts named for assistive technology and drawn in the theme's colours."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlalchemy import select
from test_browser_layout import COLOURS_JS, low_contrast
from webtest_support import register_in_browser

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import Item, User
from quizapp.services import practice, reviews
from quizapp.web.rendering.filters import format_answer

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("QUIZAPP_SHOTS")  # keep the screenshots there to look at them
AA = 4.5
GRAPHICS = 3.0  # WCAG 1.4.11: parts of a chart needed to read it

# Each SVG text's fill, and each bar's and busiest day's fill, against what the chart sits on.
SVG_COLOURS_JS = """() => {""" + COLOURS_JS + """
  const found = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    const below = background(svg);
    for (const node of svg.querySelectorAll("text, .chart-fill, .heat-4, .heat-0")) {
      const style = getComputedStyle(node);
      const paint = node.matches(".heat-0") ? style.stroke : style.fill;
      if (paint === "none") continue;
      const colour = rgba(paint);
      colour[3] *= Number(style.fillOpacity || 1);
      found.push({node: [node.tagName, ...node.classList].join("."),
                  text: (node.textContent || "").slice(0, 30),
                  ratio: ratio(over(colour, [...below, 1]), below),
                  needs: node.tagName === "text" ? 4.5 : 3});
    }
  }
  return found;
}"""


def add_a_year_of_reviews(app, username: str) -> None:
    """Ratings spread over a year (through the rating use case, so the log is as the app
    writes it): busy and quiet days, a gap, and a run up to today."""
    now = datetime.now(UTC)
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        items = list(db.session.scalars(select(Item.id).order_by(Item.id)))
        versions: dict[int, int] = {}
        for back in list(range(360, 0, -9)) + [4, 3, 2, 1, 0]:
            when = now - timedelta(days=back, hours=1)
            for n in range(1 + back % 5):
                item = items[(back + n) % len(items)]
                reviews.record_review(db.session, user, item, 3 if n % 3 else 4, when,
                                      seen_version=versions.get(item, 0))
                versions[item] = versions.get(item, 0) + 1
                when += timedelta(minutes=2)
        for seed in range(6):  # practice answers, for the puzzle accuracy: 4 of 6 right
            family = "fresh_strides" if seed % 2 else "contiguous_bytes"
            puzzle = puzzles.deal(family, "principal" if seed % 2 == 0 else "junior", seed)
            answer = format_answer(puzzle.answer, puzzle.answer_kind) if seed < 4 else "12345"
            practice.record_practice_answer(db.session, user, puzzle.family, puzzle.level, seed,
                                            answer, (), now - timedelta(hours=seed))
        db.session.remove()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_progress_fits_reads_and_names_its_charts(browser, live_server, tmp_path, width, scheme):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    context.set_default_timeout(15_000)
    page = context.new_page()
    base = live_server["url"]
    register_in_browser(page, base, f"progress-{width}-{scheme}")
    add_a_year_of_reviews(live_server["app"], f"progress-{width}-{scheme}")
    page.goto(f"{base}/progress")
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert sizes[0] <= sizes[1], sizes
    for name in ("Mastery by concept", "Mastery by level", "Puzzle accuracy, last 30 days",
                 "Reviews per study day, last 12 months"):
        chart = page.get_by_role("img", name=name)
        assert chart.count() == 1, name
        box = chart.bounding_box()
        assert box["width"] > 250 and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    # No table scrolls sideways inside its box either (the concepts' is opened to measure it).
    page.locator("details.progress-days > summary").first.click()
    scrolling = page.evaluate("""() => [...document.querySelectorAll(".table-wrap")]
        .filter((box) => box.scrollWidth > box.clientWidth + 1)
        .map((box) => box.querySelector("th").textContent)""")
    assert scrolling == []
    # The same figures as tables (concepts, levels, months); the streak ends today.
    assert page.get_by_role("table").count() >= 4
    assert int(page.locator("[data-streak]").get_attribute("data-streak")) == 5
    # Every bar's label and figures fit inside the chart, at the phone's width too.
    overflow = page.evaluate("""() => [...document.querySelectorAll("svg.chart-bars")]
        .flatMap((svg) => { const edge = svg.getBoundingClientRect();
          return [...svg.querySelectorAll("text")].filter((t) => {
            const b = t.getBoundingClientRect();
            return b.left < edge.left - 1 || b.right > edge.right + 1; })
          .map((t) => t.textContent); })""")
    assert overflow == []
    faint = [f"{item['node']} {item['text']!r} {item['ratio']:.2f}"
             for item in page.evaluate(SVG_COLOURS_JS) if item["ratio"] < item["needs"]]
    assert faint == []
    assert low_contrast(page, "/progress", set()) == []
    shots = Path(SHOTS or tmp_path)
    page.screenshot(path=str(shots / f"progress-{width}-{scheme}.png"), full_page=True)
    for index, section in enumerate(page.locator("section.progress-section").all()):
        section.screenshot(path=str(shots / f"progress-{width}-{scheme}-{index}.png"))
    context.close()


# Each choice label of the practice form: its text's lines (distinct line boxes of its text),
# where its checkbox sits, and the middle of its first line.
CHOICE_LABELS_JS = """() => [...document.querySelectorAll(".practice-choice label.check")].map(label => {
  const box = label.querySelector("input").getBoundingClientRect();
  // the line boxes of its text nodes (an element's own box may span several lines)
  const rects = [];
  const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    rects.push(...[...range.getClientRects()].filter(r => r.width > 0 && r.height > 0));
  }
  // fragments of one line box start within a few pixels of each other
  const tops = rects.map(r => r.top).sort((a, b) => a - b);
  const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 6).length;
  const first = rects.reduce((a, r) => (r.top < a.top ? r : a), rects[0]);
  return {text: label.textContent.trim().replace(/\\s+/g, " "), lines,
          boxLeft: Math.round(box.left), boxMiddle: box.top + box.height / 2,
          lineMiddle: first.top + first.height / 2, textLeft: Math.round(first.left),
          group: label.closest("fieldset").querySelector("legend").textContent.trim()};
})"""


def check_choice_labels(page) -> None:
    """Every level and family label reads on at most two lines, its checkbox beside its first
    line, and within each group the boxes (and the text after them) line up in one column."""
    labels = page.evaluate(CHOICE_LABELS_JS)
    assert len(labels) > 5, labels
    assert [(lab["text"], lab["lines"]) for lab in labels if lab["lines"] > 2] == []
    assert [lab["text"] for lab in labels
            if abs(lab["boxMiddle"] - lab["lineMiddle"]) > 4] == []
    for group in {lab["group"] for lab in labels}:
        members = [lab for lab in labels if lab["group"] == group]
        assert len({lab["boxLeft"] for lab in members}) == 1, members
        assert max(lab["textLeft"] for lab in members) - min(
            lab["textLeft"] for lab in members) <= 1, members


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_practice_fits_a_phone_and_reads_in_both_themes(browser, live_server, scheme):
    """The choice, a puzzle with a hint open, and the result with its worked solution."""
    context = browser.new_context(viewport={"width": 375, "height": 800}, color_scheme=scheme)
    context.set_default_timeout(15_000)
    page = context.new_page()
    base = live_server["url"]
    register_in_browser(page, base, f"practice-{scheme}")
    widths, faint = {}, []
    page.goto(f"{base}/practice")
    widths["/practice"] = page.evaluate("document.documentElement.scrollWidth")
    faint += low_contrast(page, "/practice", set())
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"practice-choice-{scheme}.png"), full_page=True)
    check_choice_labels(page)
    page.get_by_role("checkbox", name="principal", exact=True).check()
    with page.expect_navigation():
        page.get_by_role("button", name="Start practising").click()
    assert "level=principal" in page.url
    page.locator("details.hint summary").first.click()
    # the toggle event that counts the hint is a task queued after the click: wait for it
    expect(page.locator("[data-hints-used]")).to_have_value("1")
    widths["puzzle"] = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"practice-puzzle-{scheme}.png"), full_page=True)
    faint += low_contrast(page, "puzzle", set())
    page.locator("#answer").fill("12345")
    with page.expect_navigation():
        page.get_by_role("button", name="Check").click()
    if page.locator("#answer-error").count():  # an answer of another kind: pick or type one
        page.locator("#answer").fill("A")
        with page.expect_navigation():
            page.get_by_role("button", name="Check").click()
    assert page.locator("[data-verdict]").count() == 1 and "/practice/answers/" in page.url
    assert "You opened 1 hint." in page.content()
    widths["result"] = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"practice-result-{scheme}.png"), full_page=True)
    faint += low_contrast(page, "result", set())
    context.close()
    assert [name for name, width in widths.items() if width > 375] == []
    assert faint == []
