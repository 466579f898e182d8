"""Helpers for the track tests: a team of five roles (each with its own client), a saved set,
a track built through the lead's pages."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlalchemy import select
from webtest_support import csrf_token, register

from quizapp.extensions import db
from quizapp.models import Team, TeamMember, Track, TrackStep, User

SLUG_RE = re.compile(r"/sets/([A-Za-z0-9_-]{22,})$")
TRACK_RE = re.compile(r"/teams/([0-9]+)/tracks/([0-9]+)")
ROLES = ("owner", "lead", "member", "member2")
# Four junior cards of the sample bank... two of them: a set without puzzles, no time limit.
SET_PARAMS = {"levels": "junior", "families": "", "count": "2", "puzzles": "0", "seed": "5",
              "time_limit": "", "title": "Junior warm-up"}


@dataclass
class Crew:
    """A team with an owner, a lead and two members, and an outsider; a client each, signed
    in (``signed_out`` is a client nobody signed in with)."""

    app: object
    team_id: int
    clients: dict = field(default_factory=dict)
    ids: dict = field(default_factory=dict)

    def __getitem__(self, name: str):
        return self.clients[name]


def make_crew(app, clock) -> Crew:
    crew = Crew(app, 0)
    for name in (*ROLES, "outsider"):
        client = app.test_client()
        assert register(client, name).status_code in (302, 303)
        crew.clients[name] = client
    crew.clients["signed_out"] = app.test_client()
    with app.app_context():
        team = Team(name="Platform", description=None, created_at=clock())
        db.session.add(team)
        db.session.flush()
        crew.team_id = team.id
        for name in (*ROLES, "outsider"):
            crew.ids[name] = db.session.scalar(select(User.id).where(User.username == name))
        for name in ROLES:
            db.session.add(TeamMember(team_id=team.id, user_id=crew.ids[name],
                                      role=name.rstrip("2"), joined_at=clock()))
        db.session.commit()
    return crew


def join(app, team_id: int, user_id: int, at, role: str = "member") -> None:
    with app.app_context():
        db.session.add(TeamMember(team_id=team_id, user_id=user_id, role=role, joined_at=at))
        db.session.commit()


def save_set(client, **changes) -> str:
    params = {**SET_PARAMS, **changes}
    page = client.get("/sets/new", query_string=params)
    assert page.status_code == 200, page.text
    response = client.post("/sets/new", data={"csrf_token": csrf_token(page.text), **params})
    assert response.status_code == 303, response.text
    match = SLUG_RE.search(response.location)
    assert match, response.location
    return match.group(1)


def post(client, path: str, page_path: str | None = None, **data):
    """POST ``data`` with a CSRF token read from ``page_path`` (the home page by default, the
    login page for a client signed out)."""
    page = client.get(page_path or "/")
    if 'name="csrf_token"' not in page.text:
        page = client.get("/login")
    return client.post(path, data={"csrf_token": csrf_token(page.text), **data})


def create_track(client, team_id: int, title: str = "Onboarding") -> int:
    response = post(client, f"/teams/{team_id}/tracks", title=title, description="")
    assert response.status_code == 303, response.text
    return int(TRACK_RE.search(response.location).group(2))


def add_step(client, team_id: int, track_id: int, kind: str, **data):
    return post(client, f"/teams/{team_id}/tracks/{track_id}/steps", kind=kind, **data)


def step_ids(app, track_id: int) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(select(TrackStep.id).where(TrackStep.track_id == track_id)
                                       .order_by(TrackStep.position)))


def steps(app, track_id: int) -> list[tuple[str, str, list]]:
    """(kind, title, item keys) of the track's steps in order."""
    with app.app_context():
        return [(row.kind, row.title, row.item_keys) for row in db.session.scalars(
            select(TrackStep).where(TrackStep.track_id == track_id)
            .order_by(TrackStep.position))]


def track_count(app) -> int:
    with app.app_context():
        return len(db.session.scalars(select(Track)).all())


def assign(client, team_id: int, track_id: int, *, to: str = "team", people=(), due: str = ""):
    return post(client, f"/teams/{team_id}/tracks/{track_id}/assignments", to=to,
                people=[str(p) for p in people], due=due)
