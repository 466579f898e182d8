"""A lead builds a track: steps of three kinds (a set with a pass mark, a frozen question list,
puzzle skills) with due dates, reordered and removed; limits and bad input get their message
and change nothing. Both databases."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime

import pytest
from sqlalchemy import select
from tracks_support import (
    add_step,
    create_track,
    make_crew,
    post,
    save_set,
    step_ids,
    steps,
    track_count,
)
from webtest_support import make_card

from quizapp.extensions import db
from quizapp.models import TrackStep
from quizapp.services import tracks as service
from quizapp.services.bank_import import import_cards

SKILLS = ("fresh_strides/junior", "shape_after/junior")


@pytest.fixture
def crew(app, skill_bank, clock):
    return make_crew(app, clock)


def test_a_lead_builds_a_track_of_three_kinds_and_orders_it(app, crew, clock):
    lead, team = crew["lead"], crew.team_id
    slug = save_set(lead)
    track = create_track(lead, team)
    assert add_step(lead, team, track, "set", set_link=f"http://localhost/sets/{slug}",
                    pass_mark="70", due="2025-03-05").status_code == 303
    assert add_step(lead, team, track, "questions",
                    list_link="/questions?level=junior&concept=stride&page=2",
                    due="").status_code == 303
    assert add_step(lead, team, track, "skills", skills=list(SKILLS),
                    title="Strides by hand").status_code == 303
    built = steps(app, track)
    assert [(kind, title) for kind, title, _ in built] == [
        ("set", "Junior warm-up"), ("questions", "Questions: junior, stride"),
        ("skills", "Strides by hand")]
    assert built[1][2] == [["card", "alpha-stride"]]
    assert built[2][2] == [["skill", key] for key in SKILLS]
    with app.app_context():
        first = db.session.scalar(select(TrackStep).where(TrackStep.track_id == track,
                                                          TrackStep.position == 0))
        assert first.pass_mark == 70 and len(first.item_keys) == 2
        # The end of 5 March on the lead's clock (UTC by default).
        assert first.due_at.replace(tzinfo=UTC) == datetime(2025, 3, 5, 23, 59, tzinfo=UTC)
        second = db.session.scalar(select(TrackStep).where(TrackStep.position == 1))
        assert second.filter_query == "level=junior&concept=stride"
    page = lead.get(f"/teams/{team}/tracks/{track}")
    assert page.status_code == 200
    assert "Junior warm-up" in page.text and "pass mark 70 %" in page.text
    ids = step_ids(app, track)
    # The last step up one place, then the first down past the end: it stays last.
    base = f"/teams/{team}/tracks/{track}/steps"
    assert post(lead, f"{base}/{ids[2]}/move", direction="up").status_code == 303
    assert step_ids(app, track) == [ids[0], ids[2], ids[1]]
    post(lead, f"{base}/{ids[0]}/move", direction="down")
    post(lead, f"{base}/{ids[0]}/move", direction="down")
    post(lead, f"{base}/{ids[0]}/move", direction="down")
    assert step_ids(app, track) == [ids[2], ids[1], ids[0]]
    assert post(lead, f"{base}/{ids[1]}/delete").status_code == 303
    assert step_ids(app, track) == [ids[2], ids[0]]
    with app.app_context():
        positions = db.session.scalars(select(TrackStep.position).where(
            TrackStep.track_id == track).order_by(TrackStep.position)).all()
    assert positions == [0, 1]


def test_a_question_list_step_keeps_its_items_when_the_bank_grows(app, crew, clock):
    lead, team = crew["lead"], crew.team_id
    track = create_track(lead, team)
    add_step(lead, team, track, "questions", level="junior", concept="", importance="", q="")
    before = steps(app, track)[0][2]
    assert len(before) == 3
    with app.app_context():
        import_cards(db.session, [make_card("omega-new", concepts=("stride",))], clock())
    assert steps(app, track)[0][2] == before


def test_a_step_can_be_edited_its_due_date_and_pass_mark(app, crew, clock):
    lead, team = crew["lead"], crew.team_id
    slug = save_set(lead)
    track = create_track(lead, team)
    add_step(lead, team, track, "set", set_link=slug, pass_mark="70")
    (step,) = step_ids(app, track)
    path = f"/teams/{team}/tracks/{track}/steps/{step}/edit"
    assert post(lead, path, title="Warm up", pass_mark="90", due="2025-03-10").status_code == 303
    with app.app_context():
        row = db.session.get(TrackStep, step)
        assert (row.title, row.pass_mark) == ("Warm up", 90)
        assert row.due_at.replace(tzinfo=UTC) == datetime(2025, 3, 10, 23, 59, tzinfo=UTC)
    refused = post(lead, path, title="Warm up", pass_mark="150", due="")
    assert refused.status_code == 400
    assert "A pass mark is a percentage from 0 to 100." in refused.text
    assert f'id="pass-{step}" name="pass_mark" inputmode="numeric" size="4" value="150"' in (
        refused.text)  # shown again as typed
    with app.app_context():
        assert db.session.get(TrackStep, step).pass_mark == 90


@pytest.mark.parametrize(("kind", "data", "message"), [
    ("set", {"set_link": "https://example.com/nothing-here!"},
     "That is not a practice set&#39;s address"),
    ("set", {"set_link": "/sets/AAAAAAAAAAAAAAAAAAAAAA"}, "There is no practice set at that"),
    ("set", {"set_link": "SLUG", "pass_mark": "101"}, "A pass mark is a percentage from 0"),
    ("set", {"set_link": "SLUG", "pass_mark": "ten"}, "Use a whole number, in digits"),
    ("set", {"set_link": "SLUG", "due": "2025-03-02"}, "2025-03-02 has passed"),
    ("set", {"set_link": "SLUG", "due": "next week"}, "is not a date"),
    ("questions", {"level": "wizard"}, "Unknown level"),
    ("questions", {"q": "zzzzqqqq"}, "That filter lists no questions"),
    ("questions", {"list_link": "/sets/new?level=junior"}, "not a question list&#39;s address"),
    ("skills", {"skills": ["no_such/junior"]}, "There is no puzzle skill"),
    ("skills", {}, "Pick at least one puzzle skill"),
    ("nonsense", {}, "arrived damaged"),
])
def test_a_step_with_bad_input_is_refused_with_its_message(app, crew, kind, data, message):
    lead, team = crew["lead"], crew.team_id
    slug = save_set(lead)
    track = create_track(lead, team)
    data = {name: value.replace("SLUG", slug) if isinstance(value, str) else value
            for name, value in data.items()}
    response = add_step(lead, team, track, kind, **data)
    assert response.status_code == 400
    assert message in response.text
    assert steps(app, track) == []


def test_limits_on_tracks_steps_and_items_say_the_limit(app, crew, monkeypatch):
    lead, team = crew["lead"], crew.team_id
    monkeypatch.setattr(service, "TRACKS_PER_TEAM", 1)
    monkeypatch.setattr(service, "STEPS_PER_TRACK", 1)
    monkeypatch.setattr(service, "ITEMS_PER_STEP", 2)
    track = create_track(lead, team)
    refused = post(lead, f"/teams/{team}/tracks", title="Second", description="")
    assert refused.status_code == 400 and "A team has at most 1 tracks" in refused.text
    assert track_count(app) == 1
    many = add_step(lead, team, track, "questions", level="junior")
    assert many.status_code == 400
    assert "That filter lists 3 questions; a step holds at most 2" in many.text
    assert add_step(lead, team, track, "skills", skills=[SKILLS[0]]).status_code == 303
    full = add_step(lead, team, track, "skills", skills=[SKILLS[1]])
    assert full.status_code == 400 and "A track has at most 1 steps" in full.text
    assert len(steps(app, track)) == 1


def test_a_track_is_renamed_and_deleted_with_its_steps(app, crew):
    lead, team = crew["lead"], crew.team_id
    track = create_track(lead, team)
    add_step(lead, team, track, "skills", skills=[SKILLS[0]])
    blank = post(lead, f"/teams/{team}/tracks/{track}/edit", title="  ", description="")
    assert blank.status_code == 400 and "Give the track a title." in blank.text
    assert post(lead, f"/teams/{team}/tracks/{track}/edit", title="Week one",
                description="Strides first.").status_code == 303
    assert "Week one" in lead.get(f"/teams/{team}/tracks/{track}").text
    assert post(lead, f"/teams/{team}/tracks/{track}/delete").status_code == 303
    assert track_count(app) == 0
    assert steps(app, track) == []
    assert lead.get(f"/teams/{team}/tracks/{track}").status_code == 404


def test_no_id_is_used_twice_on_the_track_pages(app, crew):
    lead, team = crew["lead"], crew.team_id
    slug = save_set(lead)
    track = create_track(lead, team)
    add_step(lead, team, track, "set", set_link=slug, pass_mark="70")
    add_step(lead, team, track, "skills", skills=[SKILLS[0]])
    post(lead, f"/teams/{team}/tracks/{track}/assignments", to="team", due="")
    pages = [lead.get(f"/teams/{team}/tracks/{track}").text,
             lead.get(f"/teams/{team}/tracks/new").text,
             crew["member"].get(f"/teams/{team}/tracks/{track}").text,
             crew["member"].get("/").text, lead.get(f"/teams/{team}").text]
    for page in pages:
        ids = Counter(re.findall(r'\bid="([^"]+)"', page))
        assert [name for name, n in ids.items() if n > 1] == []
        # Each label names a box that is on the page.
        for target in re.findall(r'<label for="([^"]+)"', page):
            assert ids[target] == 1, target
