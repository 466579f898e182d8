"""The team pages find their rows by index: a person's teams by the member index, each team's
members, codes and size by the team's keys, never by reading every team's rows."""

from __future__ import annotations

import re

import pytest
from webtest_support import csrf_token, register

pytestmark = pytest.mark.sqlite_only
FULL_SCAN = re.compile(r"\bSCAN (team|team_member|team_join_code|user)\b")


def make_team(client, name: str) -> str:
    token = csrf_token(client.get("/teams").text)
    made = client.post("/teams", data={"csrf_token": token, "name": name})
    assert made.status_code == 303
    client.post(f"{made.location}/code", data={"csrf_token": token, "days": "14"})
    return made.location


@pytest.mark.parametrize("page", ["list", "team"])
def test_team_pages_read_no_other_teams_rows(app, plans, page):  # noqa: F811
    others = app.test_client()
    register(others, "others")
    for number in range(3):  # teams the signed-in person is not in
        make_team(others, f"Elsewhere {number}")
    client = app.test_client()
    register(client, "planner")
    team = make_team(client, "Kernels")
    make_team(client, "Views")
    explained = plans(client, "/teams" if page == "list" else team)
    touched = [step for _, steps in explained for step in steps
               if re.search(r"\b(SCAN|SEARCH) team_member\b", step)]
    assert touched, explained
    for statement, steps in explained:
        assert not any(FULL_SCAN.search(step) for step in steps), (statement, steps)
