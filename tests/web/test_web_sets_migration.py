"""The practice-set migration: existing rows stay, the new tables take sets, attempts and
answers, an account's deletion takes its sets along, and the downgrade drops only them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from test_web_migrations import insert_sample_rows, schema_differences
from webtest_support import MIGRATIONS

from quizapp.extensions import db

BEFORE = "e7a1c4b9d302"  # the revision before practice sets (a4c8e2f6b913, c6e1a8d4f2b7)
NEW_TABLES = {"practice_set", "set_attempt", "set_answer", "queued_item"}


def count(conn, table: str) -> int:
    return conn.execute(sa.text(f'SELECT count(*) FROM "{table}"')).scalar_one()


def test_sets_arrive_beside_the_data_from_before_and_go_again(empty_app):
    upgrade(directory=MIGRATIONS, revision=BEFORE)
    with db.engine.begin() as conn:
        inserted, counter = {}, [0]
        for _ in range(2):  # two users, each with a review and a review state
            insert_sample_rows(conn, inserted, counter)
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []
    at = datetime(2025, 3, 3, 9, tzinfo=UTC)
    owner, other = (row["id"] for row in inserted["user"])
    metadata = sa.MetaData()
    with db.engine.begin() as conn:
        metadata.reflect(bind=conn)
        sets, attempts, answers, queued = (metadata.tables[name] for name in (
            "practice_set", "set_attempt", "set_answer", "queued_item"))
        conn.execute(queued.insert().values(user_id=owner, item_id=inserted["item"][0]["id"],
                                            queued_at=at, position=0))
        set_id = conn.execute(sets.insert().values(
            slug="s" * 22, owner_id=owner, title="Strides", seed=2**62,
            parameters={"count": 2, "levels": ["junior"]}, time_limit_minutes=10,
            item_keys=["card:a", "puzzle:fresh_strides/junior/7"], created_at=at,
        )).inserted_primary_key[0]
        for taker in (other, None):  # an account's attempt and a visitor's
            attempt = conn.execute(attempts.insert().values(
                set_id=set_id, user_id=taker, started_at=at, deadline=at, finished_at=None,
                score=None)).inserted_primary_key[0]
            conn.execute(answers.insert().values(attempt_id=attempt, position=0, answer="knew",
                                                 correct=True, answered_at=at))
        with pytest.raises(sa.exc.IntegrityError):  # one answer per item position
            with conn.begin_nested():
                conn.execute(answers.insert().values(attempt_id=attempt, position=0,
                                                     answer="x", correct=False, answered_at=at))
        with pytest.raises(sa.exc.IntegrityError):  # the slug is the address: unique
            with conn.begin_nested():
                conn.execute(sets.insert().values(
                    slug="s" * 22, owner_id=other, title="Copy", seed=1, parameters={},
                    item_keys=[], created_at=at))
    with db.engine.connect() as conn:
        stored = conn.execute(sa.select(sets.c.seed, sets.c.item_keys)).one()
        assert stored.seed == 2**62
        assert stored.item_keys == ["card:a", "puzzle:fresh_strides/junior/7"]
        assert count(conn, "review") == 2 and count(conn, "user") == 2
    with db.engine.begin() as conn:  # the owner leaves: the set, its attempts and answers go
        conn.execute(sa.text('DELETE FROM "user" WHERE id = :id'), {"id": owner})
        assert (count(conn, "practice_set"), count(conn, "set_attempt"),
                count(conn, "set_answer"), count(conn, "queued_item")) == (0, 0, 0, 0)
        assert count(conn, "review") == 1
    downgrade(directory=MIGRATIONS, revision=BEFORE)
    assert not NEW_TABLES & set(sa.inspect(db.engine).get_table_names())
    with db.engine.connect() as conn:
        assert count(conn, "user") == 1 and count(conn, "review") == 1
