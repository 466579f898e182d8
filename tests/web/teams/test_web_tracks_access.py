"""Who may do what with tracks, route by route and role by role, on both databases: the owner
and leads manage; a member doing a lead's action gets 403; an outsider 404 (as for a track
that does not exist); signed out, the login page. A refused request changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select
from tracks_support import make_crew, post, save_set

from quizapp.extensions import db
from quizapp.models import (
    Assignment,
    AssignmentMember,
    QueuedItem,
    Team,
    TeamMember,
    Track,
    TrackStep,
    User,
)
from quizapp.services import tracks as service

LEADS = ("owner", "lead")


@pytest.fixture
def crew(app, skill_bank, clock):
    return make_crew(app, clock)


def build(app, crew, clock, slug: str) -> dict[str, int]:
    """A track with a set step and a skills step, assigned to member and member2; its ids."""
    with app.app_context():
        lead = db.session.get(User, crew.ids["lead"])
        team = crew.team_id
        track = service.create_track(db.session, lead, team, "Onboarding", None, clock())
        set_step = service.add_set_step(db.session, lead, team, track, slug, pass_mark=50,
                                        due_at=None)
        skills = service.add_skills_step(db.session, lead, team, track,
                                         ["fresh_strides/junior"], title="Strides",
                                         due_at=None)
        assignment = service.assign_track(
            db.session, lead, team, track, whole_team=False,
            user_ids=[crew.ids["member"], crew.ids["member2"]],
            due_at=clock() + timedelta(days=9), now=clock())
    return {"team": team, "track": track, "set_step": set_step, "skills": skills,
            "assignment": assignment, "member": crew.ids["member"],
            "member2": crew.ids["member2"], "owner": crew.ids["owner"]}


def snapshot(app) -> tuple:
    """Everything a track route may change."""
    with app.app_context():
        s = db.session
        return (
            s.execute(select(Track.id, Track.title, Track.description).order_by(Track.id)).all(),
            s.execute(select(TrackStep.id, TrackStep.position, TrackStep.title,
                             TrackStep.pass_mark, TrackStep.due_at).order_by(TrackStep.id)).all(),
            s.execute(select(Assignment.id, Assignment.due_at).order_by(Assignment.id)).all(),
            s.execute(select(AssignmentMember.assignment_id, AssignmentMember.user_id,
                             AssignmentMember.due_at)
                      .order_by(AssignmentMember.assignment_id, AssignmentMember.user_id)).all(),
            s.scalar(select(func.count()).select_from(QueuedItem)))


TRACK = "/teams/{team}/tracks/{track}"
# (name, method, path, form data): routes only the owner and leads may use.
LEAD_ROUTES = [
    ("new", "GET", "/teams/{team}/tracks/new", {}),
    ("create", "POST", "/teams/{team}/tracks", {"title": "Another", "description": ""}),
    ("edit", "POST", TRACK + "/edit", {"title": "Renamed", "description": "x"}),
    ("delete", "POST", TRACK + "/delete", {}),
    ("add_step", "POST", TRACK + "/steps", {"kind": "skills", "skills": "tolist/junior"}),
    ("edit_step", "POST", TRACK + "/steps/{set_step}/edit",
     {"title": "Renamed", "pass_mark": "90", "due": ""}),
    ("move_step", "POST", TRACK + "/steps/{skills}/move", {"direction": "up"}),
    ("remove_step", "POST", TRACK + "/steps/{skills}/delete", {}),
    ("assign", "POST", TRACK + "/assignments", {"to": "chosen", "people": "{owner}"}),
    ("edit_assignment", "POST", TRACK + "/assignments/{assignment}/edit",
     {"due": "2025-03-20"}),
    ("remove_assignment", "POST", TRACK + "/assignments/{assignment}/delete", {}),
    ("person_due", "POST", TRACK + "/assignments/{assignment}/people/{member}/due",
     {"due": "2025-03-20"}),
    ("unassign", "POST", TRACK + "/assignments/{assignment}/people/{member2}/delete", {}),
]


def call(client, method: str, path: str, data: dict, ids: dict):
    path = path.format(**ids)
    if method == "GET":
        return client.get(path)
    return post(client, path, **{k: v.format(**ids) for k, v in data.items()})


@pytest.mark.parametrize(("name", "method", "path", "data"), LEAD_ROUTES,
                         ids=[route[0] for route in LEAD_ROUTES])
def test_a_lead_route_by_role(app, crew, clock, name, method, path, data):
    slug = save_set(crew["owner"])
    for role in ("member", "outsider", "signed_out", *LEADS):
        ids = build(app, crew, clock, slug)
        before = snapshot(app)
        response = call(crew[role], method, path, data, ids)
        if role in LEADS:
            assert response.status_code == (200 if method == "GET" else 303), (role, response.text)
            if method == "POST":
                assert snapshot(app) != before, role
            continue
        expected = {"member": 403, "outsider": 404, "signed_out": 302}[role]
        assert response.status_code == expected, (role, response.status_code)
        if role == "signed_out":
            assert "/login" in response.location
        elif role == "member":
            assert "Only the team&#39;s owner and leads can do that." in response.text
        assert snapshot(app) == before, role


def test_the_track_page_by_role(app, crew, clock):
    slug = save_set(crew["owner"])
    ids = build(app, crew, clock, slug)
    path = TRACK.format(**ids)
    for role in LEADS:
        page = crew[role].get(path)
        assert page.status_code == 200 and "Add a step" in page.text, role
    mine = crew["member"].get(path)
    assert mine.status_code == 200 and "Your track" in mine.text and "Add a step" not in mine.text
    # A member without the track, as an outsider, is told there is no such track.
    with app.app_context():
        db.session.query(AssignmentMember).filter_by(user_id=crew.ids["member2"]).delete()
        db.session.commit()
    assert crew["member2"].get(path).status_code == 404
    assert crew["outsider"].get(path).status_code == 404
    assert "/login" in crew["signed_out"].get(path).location
    # The team section of the team page: a member sees only their own assignments.
    section = crew["member2"].get(f"/teams/{ids['team']}").text
    assert "Nothing is assigned to you in this team yet." in section


def test_adding_a_steps_items_to_reviews_by_role(app, crew, clock):
    slug = save_set(crew["owner"])
    ids = build(app, crew, clock, slug)
    path = (TRACK + "/steps/{skills}/reviews").format(**ids)
    for role, expected in (("lead", 404), ("owner", 404), ("outsider", 404),
                           ("signed_out", 302)):
        before = snapshot(app)
        assert post(crew[role], path).status_code == expected, role
        assert snapshot(app) == before, role
    assert post(crew["member"], path).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(QueuedItem).where(
            QueuedItem.user_id == crew.ids["member"])) == 1


def test_another_teams_track_is_not_found_through_this_team(app, crew, clock):
    slug = save_set(crew["owner"])
    ids = build(app, crew, clock, slug)
    with app.app_context():
        other = Team(name="Other", description=None, created_at=clock())
        db.session.add(other)
        db.session.flush()
        db.session.add(TeamMember(team_id=other.id, user_id=crew.ids["outsider"], role="owner",
                                  joined_at=clock()))
        db.session.commit()
        other_id = other.id
    lead = crew["lead"]
    # The lead's team id with the other team's... and this team's track under the other's.
    assert lead.get(f"/teams/{other_id}/tracks/{ids['track']}").status_code == 404
    assert crew["outsider"].get(f"/teams/{other_id}/tracks/{ids['track']}").status_code == 404
    assert post(crew["outsider"], f"/teams/{other_id}/tracks/{ids['track']}/delete"
                ).status_code == 404
    for path in ("/teams/{team}/tracks/999999", "/teams/{team}/tracks/{track}/steps/999999/edit",
                 "/teams/{team}/tracks/99999999999999999999",
                 "/teams/{team}/tracks/{track}/assignments/999999/edit"):
        method = "GET" if path.endswith(("999999", "99999999999999999999")) else "POST"
        response = call(lead, method, path, {"title": "x", "due": ""}, ids)
        assert response.status_code == 404, path
    assert snapshot(app)[0][0][1] == "Onboarding"
