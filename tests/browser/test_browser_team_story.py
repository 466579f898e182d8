"""The whole team story in chromium: a lead makes a team, a set and a track with a due date and
assigns it; a member joins by the code, takes the set from the track and reviews its cards;
the lead reads the result on the dashboard and downloads its CSV."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta

import pytest
from webtest_support import register_in_browser

pytestmark = pytest.mark.browser
TRACK_RE = re.compile(r"/teams/([0-9]+)/tracks/([0-9]+)$")


def submit(page, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)


def lead_builds_the_team(page, base: str) -> tuple[str, str, str]:
    """(the team's address, its join code, the track's address)."""
    register_in_browser(page, base, "lena")
    page.goto(f"{base}/teams")
    page.fill("#name", "Platform onboarding")
    submit(page, "button:text('Make the team')")
    team_url = page.url
    assert page.locator("h1").inner_text() == "Platform onboarding"
    submit(page, "button:text('Make a code')")
    code = page.locator("strong.join-code").inner_text().strip()
    assert len(code.replace("-", "").replace(" ", "")) == 8, code

    page.goto(f"{base}/sets/new")
    page.check("input[name=levels][value=junior]")
    page.fill("#count", "3")
    page.fill("#puzzles", "0")
    page.fill("input[name=title]", "Strides warm-up")
    submit(page, "button:text('Preview')")
    submit(page, "button:text('Save this set')")
    set_url = page.url

    page.goto(f"{team_url}/tracks/new")
    page.fill("input[name=title]", "First week")
    submit(page, "button:text('Create the track')")
    track_url = page.url
    assert TRACK_RE.search(track_url), track_url
    due = (date.today() + timedelta(days=7)).isoformat()
    step_form = page.locator("form:has(input[name=kind][value=set])")
    step_form.locator("input[name=set_link]").fill(set_url)
    step_form.locator("input[name=pass_mark]").fill("60")
    step_form.locator("input[name=due]").fill(due)
    with page.expect_navigation():
        step_form.locator("button[type=submit]").click()
    page.click("summary:text('A question list')")
    list_form = page.locator("form:has(input[name=kind][value=questions])")
    list_form.locator("select[name=level]").select_option("junior")
    list_form.locator("input[name=title]").fill("Junior questions")
    with page.expect_navigation():
        list_form.locator("button[type=submit]").click()
    assert page.locator("text=Junior questions").count() >= 1
    assign = page.locator("form.track-assign")
    assign.locator("input[name=due]").fill(due)
    with page.expect_navigation():
        assign.locator("button:text('Assign')").click()
    assert "Not assigned yet" not in page.inner_text("main")
    return team_url, code, track_url


def member_does_the_work(page, base: str, code: str, track_url: str) -> list[bool]:
    """Join by the code, take the set (knew, knew, didn't), add the question list's five cards
    to the reviews and rate each Good; what the set was answered, in order."""
    register_in_browser(page, base, "milo")
    page.goto(f"{base}/join")
    page.fill("#code", code)
    submit(page, "button:text('Join')")
    assert "Platform onboarding" in page.inner_text("main")
    page.goto(track_url)
    submit(page, "a:text('Take the set')")
    submit(page, "button:text('Start')")
    grades = [True, True, False]
    for knew in grades:
        page.click("summary:text('Show the answer')")
        submit(page, f"button[name=grade][value={'knew' if knew else 'didnt'}]")
    assert "2 of 3" in page.inner_text("main")

    page.goto(track_url)
    submit(page, "button:text('Add to my reviews')")
    for _ in range(5):  # the list's five cards (the set's three among them)
        page.goto(f"{base}/study")
        page.click("summary.reveal-button")
        submit(page, "button.rate-3")
    return grades


def test_a_lead_sees_a_members_work_on_the_dashboard_and_downloads_it(browser, live_server):
    base = live_server["url"]
    lead_context, member_context = browser.new_context(), browser.new_context()
    lead, member = lead_context.new_page(), member_context.new_page()
    for tab in (lead, member):
        tab.set_default_timeout(15_000)
    team_url, code, track_url = lead_builds_the_team(lead, base)
    member_does_the_work(member, base, code, track_url)

    lead.goto(f"{team_url}/dashboard")
    assert lead.locator("h1").inner_text() == "First week"
    row = lead.locator("table.dash-table tbody tr", has_text="milo")
    cells = row.locator("td")
    assert cells.nth(0).inner_text().startswith("2 of 2")  # steps done
    assert cells.nth(2).inner_text().startswith("66%")  # set score: 2 of 3
    assert "5 of 5 studied" in cells.nth(3).inner_text()  # every card was reviewed
    assert cells.nth(5).inner_text().startswith("Done")
    assert cells.nth(6).inner_text().startswith("Done") and "5 of 5" in cells.nth(6).inner_text()
    accuracy = lead.locator("#accuracy-table tbody tr", has_text="milo").inner_text()
    assert "87% (7/8)" in accuracy  # the set's 2 of 3 and the five reviews, all one concept
    assert lead.locator("svg.heatmap g:has(text)").count() >= 1

    with lead.expect_download() as download:
        lead.click("a:text('Download CSV')")
    text = open(download.value.path(), encoding="utf-8").read()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["member"], r["step_title"], r["status"], r["best_score"], r["items"])
            for r in rows] == [("milo", "Strides warm-up", "done", "2", "3"),
                               ("milo", "Junior questions", "done", "", "5")]
    assert [(r["right_answers"], r["answers"]) for r in rows] == [("2", "3"), ("5", "5")]
    assert rows[0]["due_utc"] and rows[0]["studied_items"] == "3"
    assert rows[1]["reviewed"] == "5" and rows[1]["studied_items"] == "5"
    lead_context.close()
    member_context.close()
