"""The review history on a phone: each review a block of labelled values, no sideways scrolling,
still a table to a screen reader; on a desktop the table it always was."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert, select, update
from webtest_support import register_in_browser

from quizapp.extensions import db
from quizapp.models import Card, Review, Skill, User

pytestmark = pytest.mark.browser
# The longest zone name there is, so the When column's name is as long as it gets.
LONG_ZONE = "America/Argentina/ComodRivadavia"
COLUMNS = [f"When ({LONG_ZONE})", "Item", "Rating", "Time", "Answer", "Result", "Due after it"]
# (item kind, family or None, answer, correct): a question card rated by hand, and puzzles
# answered as people type them, a 40-character answer without a space among them.
ROWS = [("card", None, None, None),
        ("skill", "fresh_strides", "(30, 6, 1)", True),
        ("skill", "strides_after", "(120,60,30,15,5,1,120,60,30,15,5,1,99,9)", False),
        ("skill", "storage_index", "B", False),
        ("skill", "tolist", "[[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14]]", True),
        ("card", None, None, None)]

# Every body cell: its column's heading, the label drawn before it, whether it shows and fits.
CELLS_JS = """() => {
  const table = document.querySelector('table.history');
  const wrap = table.closest('.table-wrap').getBoundingClientRect();
  const heads = [...table.tHead.rows[0].cells].map((th) => th.textContent.trim());
  return [...table.tBodies[0].rows].flatMap((row) => [...row.cells].map((cell, i) => {
    const box = cell.getBoundingClientRect();
    return {column: heads[i], label: getComputedStyle(cell, '::before').content,
            text: cell.textContent.trim(), display: getComputedStyle(cell).display,
            shown: cell.checkVisibility() && box.width > 1 && box.height > 1,
            inside: box.left >= wrap.left - 0.5 && box.right <= wrap.right + 0.5,
            overflows: cell.scrollWidth > cell.clientWidth + 1, top: Math.round(box.top),
            row: row.dataset.reviewId};
  }));
}"""
SCROLL_JS = """() => {
  const root = document.documentElement, wrap = document.querySelector('.table-wrap');
  return {page: [root.scrollWidth, root.clientWidth], table: [wrap.scrollWidth, wrap.clientWidth]};
}"""


@pytest.fixture
def history_url(browser, live_server):
    """A signed-in browser context whose user has the ROWS reviews (newest last), in LONG_ZONE."""
    base, app = live_server["url"], live_server["app"]
    context = browser.new_context()
    register_in_browser(context.new_page(), base, "historian")
    now = datetime(2025, 3, 10, 9, 0, tzinfo=UTC)
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.username == "historian"))
        db.session.execute(update(User).where(User.id == user_id).values(time_zone=LONG_ZONE))
        cards = list(db.session.scalars(select(Card.item_id).order_by(Card.item_id)))
        skills = {skill.family: skill.item_id for skill in db.session.scalars(select(Skill))}
        for number, (kind, family, answer, correct) in enumerate(ROWS):
            db.session.execute(insert(Review).values(
                user_id=user_id, item_id=cards[number % len(cards)] if kind == "card" else skills[family],
                reviewed_at=now + timedelta(minutes=number), rating=number % 4 + 1,
                duration_ms=15_000 + number * 1000, answer=answer, correct=correct,
                puzzle_seed=None if kind == "card" else 4242 + number, was_new=False,
                state_after={}, due_after=now + timedelta(days=number), version_after=1,
                fsrs_log={}))
        db.session.commit()
        db.session.remove()
    yield context, f"{base}/study/history"
    context.close()


def open_history(history_url, width: int):
    context, url = history_url
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(url)
    assert page.locator("tr[data-review-id]").count() == len(ROWS)
    return page


def table_roles(page) -> Counter:
    """Table roles in chromium's own accessibility tree, not as the DOM suggests them."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    return Counter(node["role"]["value"] for node in nodes if not node.get("ignored"))


@pytest.mark.parametrize("width", [390, 320])
def test_on_a_phone_each_review_reads_without_sideways_scrolling(history_url, width):
    """At 390 px the table was 800 px wide and scrolled sideways in its box; now it fits."""
    page = open_history(history_url, width)
    scroll = page.evaluate(SCROLL_JS)
    assert scroll["page"][0] <= scroll["page"][1] and scroll["table"][0] <= scroll["table"][1], scroll
    cells = page.evaluate(CELLS_JS)
    assert len(cells) == len(ROWS) * len(COLUMNS)
    filled = [cell for cell in cells if cell["text"]]
    # Every value shows, whole and inside the box, after its column's name.
    assert [cell for cell in filled if not (cell["shown"] and cell["inside"])] == []
    assert [cell for cell in filled if cell["overflows"]] == []
    assert [(cell["column"], cell["label"]) for cell in filled] == [
        (cell["column"], f'"{cell["column"]}"') for cell in filled]
    assert {cell["column"] for cell in filled} == set(COLUMNS)
    # An empty cell (a question card has no answer) takes no room.
    assert all(not cell["shown"] for cell in cells if not cell["text"])
    # A screen reader still finds a table: its name, a header row and a cell per column each.
    assert page.get_by_role("table", name="Review history").count() == 1
    roles = table_roles(page)
    assert (roles["table"], roles["row"], roles["columnheader"], roles["cell"]) == (
        1, len(ROWS) + 1, len(COLUMNS), len(ROWS) * len(COLUMNS)), roles


def test_on_a_desktop_the_history_is_still_a_table(history_url):
    page = open_history(history_url, 1280)
    heads = page.locator("table.history thead th")
    assert heads.count() == len(COLUMNS)
    assert [heads.nth(i).inner_text() for i in range(len(COLUMNS))] == [
        column.upper() for column in COLUMNS]
    assert all(heads.nth(i).bounding_box()["height"] > 10 for i in range(len(COLUMNS)))
    cells = page.evaluate(CELLS_JS)
    assert {cell["display"] for cell in cells} == {"table-cell"}
    assert {cell["label"] for cell in cells} == {"none"}  # no labels: the headings say it
    for row in {cell["row"] for cell in cells}:  # a row's cells side by side on one line
        assert len({cell["top"] for cell in cells if cell["row"] == row}) == 1, row


@pytest.mark.parametrize("width", [880, 1024, 1280])
def test_from_the_breakpoint_up_the_table_fits_without_sideways_scrolling(history_url, width):
    """A tablet held sideways (1024 px) got the table, 1191 px wide with this zone's name and the
    40-character answer typed without spaces (1007 px in UTC), so it scrolled in its box even
    at 1280 px. Those two may now wrap anywhere; the other headings stay on one line."""
    page = open_history(history_url, width)
    scroll = page.evaluate(SCROLL_JS)
    assert scroll["page"][0] <= scroll["page"][1] and scroll["table"][0] <= scroll["table"][1], scroll
    cells = page.evaluate(CELLS_JS)
    assert {cell["display"] for cell in cells} == {"table-cell"}
    assert [cell for cell in cells if cell["overflows"] or not cell["inside"]] == []
    # Item ... Due after it: one line each (a range over a heading's text has a box per line).
    lines = page.evaluate("""() => [...document.querySelectorAll('table.history thead th')]
      .slice(1).map((th) => { const range = document.createRange();
        range.selectNodeContents(th); return range.getClientRects().length; })""")
    assert lines == [1] * (len(COLUMNS) - 1), lines
