"""The teams migration: existing rows stay, the new tables take teams, members, codes, tracks
and assignments with the deletions they promise, and the downgrade drops only what it added."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from test_web_migrations import insert_sample_rows, schema_differences
from webtest_support import MIGRATIONS

from quizapp.extensions import db

BEFORE = "d2f7b9c1e4a6"  # the revision before teams (fc1dda5f1c76)
NEW_TABLES = {"team", "team_member", "team_join_code", "join_code_attempt", "track",
              "track_step", "assignment", "assignment_member"}
AT = datetime(2025, 3, 3, 9, tzinfo=UTC)


def count(conn, table: str, where: str = "") -> int:
    return conn.execute(sa.text(f'SELECT count(*) FROM "{table}" {where}')).scalar_one()


def insert(conn, table: sa.Table, **values) -> int:
    return conn.execute(table.insert().values(**values)).inserted_primary_key[0]


def test_teams_arrive_beside_the_data_from_before_and_go_again(empty_app):
    upgrade(directory=MIGRATIONS, revision=BEFORE)
    with db.engine.begin() as conn:
        inserted, counter = {}, [0]
        for _ in range(3):  # three users, each with a set, an attempt and an answer
            insert_sample_rows(conn, inserted, counter)
        attempts = sa.Table("set_attempt", sa.MetaData(), autoload_with=conn)
        deleted = insert(conn, attempts, set_id=inserted["practice_set"][0]["id"],
                         started_at=AT)  # the newest attempt, deleted: its id stays used
        conn.execute(attempts.delete().where(attempts.c.id == deleted))
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []
    owner, member, other = (row["id"] for row in inserted["user"])
    set_ids = [row["id"] for row in inserted["practice_set"]]
    metadata = sa.MetaData()
    with db.engine.begin() as conn:
        metadata.reflect(bind=conn)
        tables = metadata.tables
        assert count(conn, "set_attempt", "WHERE team_id IS NULL AND step_id IS NULL") == 3
        team = insert(conn, tables["team"], name="Kernels", description=None, created_at=AT)
        for user, role in ((owner, "owner"), (member, "member"), (other, "lead")):
            conn.execute(tables["team_member"].insert().values(
                team_id=team, user_id=user, role=role, joined_at=AT, last_active_at=None))
        with pytest.raises(sa.exc.IntegrityError):  # one membership per account and team
            with conn.begin_nested():
                conn.execute(tables["team_member"].insert().values(
                    team_id=team, user_id=member, role="lead", joined_at=AT))
        insert(conn, tables["team_join_code"], team_id=team, code="ABCD2345", created_at=AT,
               expires_at=AT + timedelta(days=14), max_uses=None, revoked_at=None)
        with pytest.raises(sa.exc.IntegrityError):  # a code names one team
            with conn.begin_nested():
                insert(conn, tables["team_join_code"], team_id=team, code="ABCD2345",
                       created_at=AT, expires_at=AT)
        assert conn.execute(sa.select(tables["team_join_code"].c.uses)).scalar_one() == 0
        insert(conn, tables["join_code_attempt"], address="203.0.113.9", attempted_at=AT,
               succeeded=False)
        track = insert(conn, tables["track"], team_id=team, title="Onboarding",
                       description="Strides first", created_at=AT, created_by=member)
        kept_step, gone_step = (insert(
            conn, tables["track_step"], track_id=track, position=position, kind="set",
            title=f"Set {position}", practice_set_id=set_ids[position], pass_mark=80,
            item_keys=["card:a", "puzzle:fresh_strides/junior/7"], filter_query=None,
            due_at=AT + timedelta(days=7)) for position in (0, 1))
        assignment = insert(conn, tables["assignment"], track_id=track, whole_team=False,
                            due_at=AT + timedelta(days=10), created_at=AT)
        conn.execute(tables["assignment_member"].insert().values(
            assignment_id=assignment, user_id=member, due_at=AT + timedelta(days=12)))
        team_attempt = insert(conn, tables["set_attempt"], set_id=set_ids[0], user_id=other,
                              started_at=AT, team_id=team, step_id=kept_step)
        assert team_attempt > deleted
        conn.execute(tables["set_answer"].insert().values(
            attempt_id=team_attempt, position=0, answer="knew", correct=True, answered_at=AT))
    with db.engine.begin() as conn:  # a deleted set leaves its step, without the set
        conn.execute(sa.text("DELETE FROM practice_set WHERE id = :id"), {"id": set_ids[1]})
        step = conn.execute(sa.text("SELECT practice_set_id, item_keys FROM track_step "
                                    "WHERE id = :id"), {"id": gone_step}).one()
        assert step.practice_set_id is None
    with db.engine.begin() as conn:  # the track's author leaves: memberships go, track stays
        conn.execute(sa.text('DELETE FROM "user" WHERE id = :id'), {"id": member})
        assert count(conn, "team_member") == 2 and count(conn, "assignment_member") == 0
        assert conn.execute(sa.text("SELECT created_by FROM track")).scalar_one() is None
        assert count(conn, "track_step") == 2
    with db.engine.begin() as conn:  # an attempt for the team outlives the team and its step
        conn.execute(sa.text("DELETE FROM team WHERE id = :id"), {"id": team})
        for table in NEW_TABLES - {"join_code_attempt"}:
            assert count(conn, table) == 0, table
        stored = conn.execute(sa.text("SELECT team_id, step_id FROM set_attempt WHERE id = :id"),
                              {"id": team_attempt}).one()
        assert tuple(stored) == (None, None)
        assert count(conn, "set_answer", f"WHERE attempt_id = {team_attempt}") == 1
        assert count(conn, "review") == 2 and count(conn, "user") == 2
    downgrade(directory=MIGRATIONS, revision=BEFORE)
    inspector = sa.inspect(db.engine)
    assert not NEW_TABLES & set(inspector.get_table_names())
    assert {"team_id", "step_id"}.isdisjoint(
        column["name"] for column in inspector.get_columns("set_attempt"))
    with db.engine.connect() as conn:  # the attempts and their answers are all still there
        assert count(conn, "set_attempt") == 3 and count(conn, "set_answer") == 3
        assert count(conn, "user") == 2 and count(conn, "review") == 2
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []
