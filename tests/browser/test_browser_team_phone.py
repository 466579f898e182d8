"""Team pages on a phone: a long title wraps instead of widening the page, and the member
table's buttons keep their words whole."""

from __future__ import annotations

import pytest
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser
TITLE = "torch.nn.functional." + "x" * 150


def submit(page, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def test_team_and_track_pages_fit_a_phone_with_a_long_title(browser, live_server):
    base = live_server["url"]
    lead_context, member_context = browser.new_context(), browser.new_context()
    lead, member = lead_context.new_page(), member_context.new_page()
    register_in_browser(lead, base, "lena")
    lead.goto(f"{base}/teams")
    lead.fill("#name", "Platform onboarding")
    submit(lead, "button:text('Make the team')")
    team_url = lead.url
    submit(lead, "button:text('Make a code')")
    code = lead.locator("strong.join-code").inner_text().strip()
    lead.goto(f"{base}/sets/new")
    lead.check("input[name=levels][value=junior]")
    lead.fill("#count", "2")
    lead.fill("#puzzles", "0")
    lead.fill("input[name=title]", TITLE)
    submit(lead, "button:text('Preview')")
    submit(lead, "button:text('Save this set')")
    set_url = lead.url
    lead.goto(f"{team_url}/tracks/new")
    lead.fill("input[name=title]", TITLE)
    submit(lead, "button:text('Create the track')")
    track_url = lead.url
    step_form = lead.locator("form:has(input[name=kind][value=set])")
    step_form.locator("input[name=set_link]").fill(set_url)
    with lead.expect_navigation():
        step_form.locator("button[type=submit]").click()
    register_in_browser(member, base, "milo")
    member.goto(f"{base}/join")
    member.fill("#code", code)
    submit(member, "button:text('Join')")

    lead.set_viewport_size({"width": 375, "height": 800})
    for url in (team_url, track_url, f"{team_url}/dashboard"):
        lead.goto(url)
        wide = lead.evaluate("() => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 376).map(e => e.tagName + '.' + e.className).slice(0, 12)")
        assert lead.evaluate("document.documentElement.scrollWidth") <= 375, (url, wide)
    lead.goto(team_url)
    for label in ("Remove milo from the team", "Make milo a lead"):
        button = lead.get_by_role("button", name=label)
        # One line: a button as tall as two lines of its text has broken a word.
        height, line = button.evaluate(
            "b => [b.getBoundingClientRect().height,"
            " parseFloat(getComputedStyle(b).lineHeight)]")
        assert height < 2 * line, (label, height, line)
    # The dashboard link stands apart from the panel above it.
    gap = lead.evaluate(
        "() => { const link = [...document.querySelectorAll('a.button')]"
        ".find(a => a.textContent.includes(\"Lead's dashboard\"));"
        " const before = link.closest('p').previousElementSibling;"
        " return link.getBoundingClientRect().top - before.getBoundingClientRect().bottom; }")
    assert gap >= 8, gap
    lead_context.close()
    member_context.close()
