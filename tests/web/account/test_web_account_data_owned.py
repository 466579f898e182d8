"""Your data covers practice and teams: the practice answers and the team memberships of the
account as CSV (its own rows only, formulas neutralised, every cell quoted), linked from
Settings with their row counts."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from sqlalchemy import select
from webtest_support import register

from quizapp.extensions import db
from quizapp.models import PracticeAttempt, Team, TeamMember, User

PRACTICE_URL = "/settings/practice.csv"
TEAMS_URL = "/settings/teams.csv"
PRACTICE_HEADER = ["answered_at_utc", "family", "level", "seed", "answer", "correct",
                   "hints_used", "duration_ms"]
TEAM_HEADER = ["team", "role", "joined_utc", "last_active_utc"]


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True), newline="")))


def user_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username == name))


def add_practice(app, owner: int, at, seed: int, answer: str, correct: bool, **extra) -> None:
    with app.app_context():
        db.session.add(PracticeAttempt(user_id=owner, family="fresh_strides", level="junior",
                                       seed=seed, answer=answer, correct=correct,
                                       answered_at=at, **extra))
        db.session.commit()


def add_membership(app, owner: int, name: str, role: str, joined, active=None) -> None:
    with app.app_context():
        team = Team(name=name, created_at=joined)
        db.session.add(team)
        db.session.flush()
        db.session.add(TeamMember(team_id=team.id, user_id=owner, role=role, joined_at=joined,
                                  last_active_at=active))
        db.session.commit()


def test_practice_answers_download_oldest_first_and_only_the_users(app, client, clock):
    register(client, "pia")
    other = app.test_client()
    register(other, "tess")
    pia, tess = user_id(app, "pia"), user_id(app, "tess")
    now = clock()
    add_practice(app, pia, now + timedelta(seconds=5), 7, "(2, 1)", True, hints_used=1,
                 duration_ms=4200)
    add_practice(app, pia, now + timedelta(seconds=9), 2**40, "=cmd|' /C calc'!A0", False)
    add_practice(app, tess, now, 11, "(9,)", True)
    response = client.get(PRACTICE_URL)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="quizapp-practice-pia-2025-03-03.csv"')
    assert response.headers.getlist("Cache-Control") == ["no-store"]
    assert read_csv(response) == [
        PRACTICE_HEADER,
        ["2025-03-03T09:00:05Z", "fresh_strides", "junior", "7", "(2, 1)", "yes", "1", "4200"],
        ["2025-03-03T09:00:09Z", "fresh_strides", "junior", str(2**40),
         "'=cmd|' /C calc'!A0", "no", "0", ""],
    ]
    assert response.get_data(as_text=True).startswith('"answered_at_utc","family",')
    assert [row[3] for row in read_csv(other.get(PRACTICE_URL))[1:]] == ["11"]


def test_team_memberships_download_with_role_and_times_neutralised(app, client, clock):
    register(client, "pia")
    other = app.test_client()
    register(other, "tess")
    pia, tess = user_id(app, "pia"), user_id(app, "tess")
    now = clock()
    add_membership(app, pia, "@SUM(A1:A9)", "owner", now - timedelta(days=2))
    add_membership(app, pia, "Kernels", "member", now - timedelta(days=3),
                   active=now - timedelta(hours=1))
    add_membership(app, tess, "Not pia's", "lead", now)
    response = client.get(TEAMS_URL)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="quizapp-teams-pia-2025-03-03.csv"')
    assert read_csv(response) == [
        TEAM_HEADER,
        ["Kernels", "member", "2025-02-28T09:00:00Z", "2025-03-03T08:00:00Z"],
        ["'@SUM(A1:A9)", "owner", "2025-03-01T09:00:00Z", ""],
    ]
    assert read_csv(other.get(TEAMS_URL))[1:] == [["Not pia's", "lead",
                                                   "2025-03-03T09:00:00Z", ""]]


def test_settings_links_both_files_with_their_row_counts(app, client, clock):
    register(client, "pia")
    page = client.get("/settings").text
    assert f'href="{PRACTICE_URL}" download>Download your practice answers (CSV, 0 rows)' in page
    assert f'href="{TEAMS_URL}" download>Download your teams (CSV, 0 rows)' in page
    pia = user_id(app, "pia")
    add_practice(app, pia, clock(), 3, "(1,)", False)
    add_membership(app, pia, "Kernels", "member", clock())
    page = client.get("/settings").text
    assert "Download your practice answers (CSV, 1 row)" in page
    assert "Download your teams (CSV, 1 row)" in page
    assert "your practice answers, your team memberships, what you suspended" in page


def test_both_files_need_a_signed_in_account(client):
    for url in (PRACTICE_URL, TEAMS_URL):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.location
