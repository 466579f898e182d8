"""The one-owner migration: a team holding several owners keeps the earliest, the others
become leads, and from then on the database refuses a second owner; the downgrade only drops
the index."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from test_web_migrations import insert_sample_rows, schema_differences
from webtest_support import MIGRATIONS

from quizapp.extensions import db

BEFORE = "f3a9c7e1b5d2"  # the revision before the index (a7d3e9b2c4f1)
AT = datetime(2025, 3, 3, 9, tzinfo=UTC)


def roles(conn, *teams: int) -> dict[tuple[int, int], str]:
    rows = conn.execute(sa.text("SELECT team_id, user_id, role FROM team_member"))
    return {(team, user): role for team, user, role in rows if team in teams}


def add_team(conn, name: str, members: list[tuple[int, str, datetime]]) -> int:
    team = conn.execute(sa.text("INSERT INTO team (name, created_at) VALUES (:name, :at) "
                                "RETURNING id"), {"name": name, "at": AT}).scalar_one()
    for user, role, joined in members:
        conn.execute(sa.text("INSERT INTO team_member (team_id, user_id, role, joined_at) "
                             "VALUES (:team, :user, :role, :joined)"),
                     {"team": team, "user": user, "role": role, "joined": joined})
    return team


def add_owner(conn, team: int, user: int) -> None:
    conn.execute(sa.text("INSERT INTO team_member (team_id, user_id, role, joined_at) "
                         "VALUES (:team, :user, 'owner', :at)"),
                 {"team": team, "user": user, "at": AT})


def test_teams_with_several_owners_keep_the_earliest_and_then_only_one(empty_app):
    upgrade(directory=MIGRATIONS, revision=BEFORE)
    with db.engine.begin() as conn:
        inserted, counter = {}, [0]
        for _ in range(4):
            insert_sample_rows(conn, inserted, counter)
        first, second, third, fourth = (row["id"] for row in inserted["user"])
        later = AT + timedelta(days=1)
        # Wrongly two owners: the later joiner (first by id) is demoted.
        two = add_team(conn, "Two", [(first, "owner", later), (second, "owner", AT),
                                     (third, "member", AT)])
        # Three owners, two of them joined at the same moment: the lower id keeps it.
        tie = add_team(conn, "Tie", [(fourth, "owner", AT), (third, "owner", AT),
                                     (first, "owner", later), (second, "lead", AT)])
        fine = add_team(conn, "Fine", [(first, "owner", later), (second, "member", AT)])
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []
    with db.engine.begin() as conn:
        assert roles(conn, two, tie, fine) == {
            (two, first): "lead", (two, second): "owner", (two, third): "member",
            (tie, fourth): "lead", (tie, third): "owner", (tie, first): "lead",
            (tie, second): "lead",
            (fine, first): "owner", (fine, second): "member"}
        assert conn.execute(sa.text("SELECT count(*) FROM review")).scalar_one() == 4
        # The sample rows' own teams (one member each, in no role of ours) are untouched.
        assert len(roles(conn, *(row["id"] for row in inserted["team"]))) == 4
        for team, user in ((two, first), (fine, second)):  # a second owner, by any path
            with pytest.raises(sa.exc.IntegrityError):
                with conn.begin_nested():
                    conn.execute(sa.text("UPDATE team_member SET role = 'owner' WHERE "
                                         "team_id = :team AND user_id = :user"),
                                 {"team": team, "user": user})
        with pytest.raises(sa.exc.IntegrityError):
            with conn.begin_nested():
                add_owner(conn, fine, fourth)
        empty = add_team(conn, "Empty", [])  # a team's first owner is fine; leads are many
        add_owner(conn, empty, fourth)
        conn.execute(sa.text("INSERT INTO team_member (team_id, user_id, role, joined_at) "
                             "SELECT :team, id, 'lead', :at FROM \"user\" WHERE id != :owner"),
                     {"team": empty, "at": AT, "owner": fourth})
    downgrade(directory=MIGRATIONS, revision=BEFORE)
    with db.engine.begin() as conn:  # the demoted stay leads; a second owner is no longer refused
        assert roles(conn, two)[(two, first)] == "lead"
        conn.execute(sa.text("UPDATE team_member SET role = 'owner' WHERE team_id = :team "
                             "AND user_id = :user"), {"team": fine, "user": second})
        conn.execute(sa.text("UPDATE team_member SET role = 'lead' WHERE team_id = :team "
                             "AND user_id = :user"), {"team": fine, "user": second})
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []
