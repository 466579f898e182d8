"""The lead's dashboard and its CSV: who may see them, and the figures they show."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from dashboard_support import LIST_KEYS, build_team, read_tables, review_cards, take_set
from sqlalchemy import update

from quizapp.extensions import db
from quizapp.models import TeamMember

ROLES = (("olive", "owner"), ("leah", "lead"), ("mia", "member"), ("max", "member"),
         ("otto", None))
# The sample bank's concepts (tests/web/conftest.py sample_cards).
CONCEPTS = {"alpha-stride": ("stride", "shape"), "beta-view": ("view",),
            "gamma-offset": ("storage-offset",), "delta-reshape": ("reshape", "view"),
            "epsilon-expand": ("expand",), "zeta-channels": ("channels-last",)}
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def built(app, bank, clock):
    return build_team(app, clock, ROLES)


@pytest.mark.parametrize("path", ["/teams/{team}/dashboard", "/teams/{team}/dashboard.csv"])
@pytest.mark.parametrize(("who", "status"), [("olive", 200), ("leah", 200), ("mia", 403),
                                             ("otto", 404), (None, 302)])
def test_only_the_owner_and_leads_see_the_dashboard(app, built, path, who, status):
    client = built.clients[who] if who else app.test_client()
    response = client.get(path.format(team=built.team_id))
    assert response.status_code == status, response.text[:300]
    if status == 302:
        assert "/login" in response.headers["Location"]
    if status in (403, 404):
        assert "Onboarding" not in response.text and "max" not in response.text
    if who == "olive" and path.endswith(".csv"):
        assert response.mimetype == "text/csv"
        assert "attachment" in response.headers["Content-Disposition"]


def test_a_team_that_does_not_exist_is_not_found_even_for_huge_ids(built):
    client = built.clients["olive"]
    for team in (built.team_id + 1, 2**31, 2**40):
        assert client.get(f"/teams/{team}/dashboard").status_code == 404
    base = f"/teams/{built.team_id}/dashboard"
    for track in ("abc", "0", str(built.track_id + 1), "9" * 30, "-1"):
        response = client.get(f"{base}?track={track}")
        assert response.status_code == 404, track
        assert "no such track" in response.text
    assert client.get(f"{base}?sort=%3Cscript%3E").status_code == 200


def do_the_work(app, clock, built):
    """mia: the set for the step (3 of 4 known), the list reviewed (beta "Again"), a card
    outside the track and the set again outside the team; max joins late after reviewing."""
    mia = built.clients["mia"]
    take_set(app, clock, built, "mia", ["knew", "knew", "didnt", "knew"])
    take_set(app, clock, built, "mia", ["didnt"] * 4, for_step=False)
    review_cards(app, clock, mia, "mia", {"alpha-stride": 3, "beta-view": 1, "gamma-offset": 3})
    review_cards(app, clock, mia, "mia", {"zeta-channels": 1})
    review_cards(app, clock, built.clients["max"], "max", {"alpha-stride": 4})
    clock.advance(hours=1)
    with app.app_context():  # max's membership starts after his review
        db.session.execute(update(TeamMember).where(TeamMember.user_id == built.users["max"])
                           .values(joined_at=clock()))
        db.session.commit()
    clock.advance(hours=1)


def expected_accuracy(built) -> dict[str, Counter]:
    """mia's right answers and answers per concept, counted from the bank's tags."""
    right, total = Counter(), Counter()
    grades = [True, True, False, True]
    answers = [(ref.key, grades[i]) for i, ref in enumerate(built.set_refs)]
    answers += [("alpha-stride", True), ("beta-view", False), ("gamma-offset", True)]
    for key, correct in answers:
        for concept in CONCEPTS[key]:
            total[concept] += 1
            right[concept] += correct
    return {"right": right, "total": total}


def test_the_dashboard_shows_assigned_work_only(app, clock, built):
    do_the_work(app, clock, built)
    page = built.clients["leah"].get(f"/teams/{built.team_id}/dashboard")
    assert page.status_code == 200
    tables = dict(read_tables(page.text))
    members = [t for key, t in read_tables(page.text) if key is None][0]
    names = [row[0].split()[0] for row in members[1:]]
    assert names == ["max", "mia"]  # whole-team: members only, names A to Z
    mia = members[2]
    assert mia[1].startswith("2 of 2") and mia[2] == "0" and mia[3].startswith("75%")
    assert mia[6].startswith("Done 3 of 4 (75%), pass 75%")
    assert mia[7].startswith("Done 3 of 3 reviewed")
    max_ = members[1]
    assert max_[1].startswith("0 of 2") and max_[7].startswith("To do 0 of 3 reviewed")
    assert max_[5] == "never" and max_[3] == "–"

    expected = expected_accuracy(built)
    grid = tables["accuracy-table"]
    header = grid[0][1:]
    track_concepts = sorted({c for key in [r.key for r in built.set_refs] + list(LIST_KEYS)
                             for c in CONCEPTS[key]})
    assert header == track_concepts  # channels-last (studied outside the track) is not here
    mia_cells = dict(zip(header, grid[2][1:], strict=True))
    for concept in header:
        total, right = expected["total"][concept], expected["right"][concept]
        shown = f"{right * 100 // total}% ({right}/{total})" if total else "–"
        assert mia_cells[concept] == shown, concept
    assert all(cell == "–" for cell in grid[1][1:])  # max's review predates his joining

    svg = ET.fromstring(re.search(r"<svg .*?</svg>", page.text, re.S).group(0))
    cells = [g.find(f"{SVG}text").text for g in svg.iter(f"{SVG}g")
             if g.find(f"{SVG}text") is not None]
    assert cells[len(header):] == [c.split("%")[0] for c in grid[2][1:]]  # mia's row


def test_the_csv_has_a_row_per_member_and_step(app, clock, built):
    do_the_work(app, clock, built)
    response = built.clients["olive"].get(f"/teams/{built.team_id}/dashboard.csv?sort=-done")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [(r["member"], r["step"]) for r in rows] == [("mia", "1"), ("mia", "2"),
                                                         ("max", "1"), ("max", "2")]
    set_row, list_row = rows[0], rows[1]
    assert set_row["status"] == "done" and set_row["best_score"] == "3"
    assert set_row["attempts"] == "1"  # the attempt outside the team is not the team's
    assert (set_row["right_answers"], set_row["answers"]) == ("3", "4")
    assert list_row["step_title"] == "'=Views"  # neutralised
    assert (list_row["right_answers"], list_row["answers"]) == ("2", "3")
    assert list_row["reviewed"] == "3" and list_row["studied_items"] == "3"
    assert rows[3]["studied_items"] == "1"  # max did review alpha-stride, before joining
    assert rows[3]["answers"] == "0" and rows[3]["reviewed"] == "0"


def test_sorting_by_a_column_through_the_query(app, clock, built):
    do_the_work(app, clock, built)
    client = built.clients["olive"]
    base = f"/teams/{built.team_id}/dashboard"

    def order(query):
        tables = read_tables(client.get(base + query).text)
        return [row[0].split()[0] for row in tables[0][1][1:]]

    assert order("") == ["max", "mia"]
    assert order("?sort=-done") == ["mia", "max"]
    assert order("?sort=done") == ["max", "mia"]
    assert order(f"?sort=-step-{built.list_step}") == ["mia", "max"]
    assert order("?sort=-active") == ["mia", "max"]  # max never active: last either way
    assert order("?sort=active") == ["mia", "max"]
    page = client.get(base + "?sort=-done").text
    assert 'aria-sort="descending"' in page
    assert "sort=done" in page  # its header now sorts the other way


def test_members_come_a_page_at_a_time_and_the_csv_has_them_all(app, clock, built,
                                                                 monkeypatch):
    import quizapp.teams

    do_the_work(app, clock, built)
    monkeypatch.setattr(quizapp.teams, "PAGE_SIZE", 1)
    client = built.clients["olive"]
    base = f"/teams/{built.team_id}/dashboard"
    first, second = client.get(base).text, client.get(base + "?page=2").text
    for page, name in ((first, "max"), (second, "mia")):
        tables = read_tables(page)
        assert [row[0].split()[0] for row in tables[0][1][1:]] == [name]
        assert [row[0] for row in dict(tables)["accuracy-table"][1:]] == [name]
        svg = ET.fromstring(re.search(r"<svg .*?</svg>", page, re.S).group(0))
        labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "hm-member"]
        assert labels == [name]
    assert 'rel="next"' in first and 'rel="prev"' not in first and "Page 1 of 2" in first
    assert 'rel="prev"' in second and 'rel="next"' not in second
    assert client.get(base + "?page=99").text.count("Page 2 of 2") == 2  # past the end: last
    rows = list(csv.DictReader(io.StringIO(client.get(base + ".csv").text)))
    assert {row["member"] for row in rows} == {"max", "mia"}
    # Sorted by predicted recall, every member's is computed to order them: mia studied more.
    ordered = read_tables(client.get(base + "?sort=-recall").text)[0][1][1:]
    assert [row[0].split()[0] for row in ordered] == ["mia"]


def test_the_team_page_links_leads_to_the_dashboard(built):
    link = f'href="/teams/{built.team_id}/dashboard"'
    for who, shown in (("olive", True), ("leah", True), ("mia", False)):
        page = built.clients[who].get(f"/teams/{built.team_id}")
        assert page.status_code == 200 and (link in page.text) == shown, who
