"""The lead's dashboard on a phone (375 px) in dark and light: nothing but its tables and heat
map scroll sideways, and the heat map's figures read on their colours."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from dashboard_support import build_team, review_cards, take_set
from webtest_support import PASSWORD, FakeClock

pytestmark = pytest.mark.browser
ROLES = tuple((f"m{n:02d}", "member") for n in range(12))
CONTRAST = """(node) => {
    const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
    const lum = (c) => { const [r, g, b] = c.map(v => { v /= 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const fill = rgb(getComputedStyle(node.querySelector('rect')).fill);
    const text = rgb(getComputedStyle(node.querySelector('text')).fill);
    const [hi, lo] = [lum(fill), lum(text)].sort((a, b) => b - a);
    return {fill: getComputedStyle(node.querySelector('rect')).fill,
            ratio: (hi + 0.05) / (lo + 0.05)};
}"""


@pytest.fixture
def team(live_server):
    app = live_server["app"]
    clock = FakeClock(datetime.now(UTC) - timedelta(days=2))
    built = build_team(app, clock, (("olive", "owner"), *ROLES),
                       list_keys=("browser-one", "browser-two"))
    for n, (name, _) in enumerate(ROLES):
        grades = ["knew" if (n + i) % 3 else "didnt" for i in range(4)]
        take_set(app, clock, built, name, grades)
        if n % 2:
            review_cards(app, clock, built.clients[name], name, {"browser-one": 3, "browser-two": 1})
    return built


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_dashboard_fits_a_phone_and_its_colours_read(browser, live_server, team, scheme):
    context = browser.new_context(viewport={"width": 375, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    base = live_server["url"]
    page.goto(f"{base}/login")
    page.fill("#username", "olive")
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.click("button[type=submit]")
    page.goto(f"{base}/teams/{team.team_id}/dashboard")
    assert page.locator("h1").inner_text() == "Onboarding"
    # The page itself never scrolls sideways; the tables and the heat map scroll in their boxes.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    figure = page.locator("figure.heatmap-figure")
    assert figure.evaluate("f => f.scrollWidth > f.clientWidth")
    assert figure.evaluate("f => getComputedStyle(f).overflowX") == "auto"
    svg = page.locator("svg.heatmap")
    assert svg.get_attribute("role") == "img"
    assert "table" in page.locator("#hm-desc").text_content()
    fills = set()
    cells = page.locator("svg.heatmap g[class^='hm-b']:has(text)")
    assert cells.count() > 0
    for i in range(cells.count()):
        shown = cells.nth(i).evaluate(CONTRAST)
        assert shown["ratio"] >= 4.5, shown
        fills.add(shown["fill"])
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert len(fills) >= 2 and background not in fills
    dark_background = sum(map(int, background[4:-1].split(",")[:3])) < 200
    assert dark_background == (scheme == "dark")
    context.close()
