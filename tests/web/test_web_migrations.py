"""Migrations: head matches the models, upgrades keep data, concurrent upgrades wait their turn."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from webtest_support import MIGRATIONS

from quizapp import create_app, srs
from quizapp.extensions import db

APP_TABLES = {"user", "login_attempt", "login_session", "registration_attempt", "item", "card",
              "skill", "item_concept", "concept", "review_state", "review", "item_suspension",
              "practice_set", "set_attempt", "set_answer", "queued_item", "team", "team_member",
              "team_join_code", "join_code_attempt", "track", "track_step", "assignment",
              "assignment_member", "practice_attempt"}


def schema_differences() -> list:
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def revisions_in_order() -> list[str]:
    script = ScriptDirectory(MIGRATIONS)
    return [rev.revision for rev in reversed(list(script.walk_revisions("base", "heads")))]


def test_migrations_form_one_line_of_history():
    script = ScriptDirectory(MIGRATIONS)
    assert len(script.get_heads()) == 1
    assert revisions_in_order()


def test_upgrading_an_empty_database_gives_exactly_the_models(empty_app):
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []
    tables = set(sa.inspect(db.engine).get_table_names())
    assert APP_TABLES <= tables


def test_models_differing_from_the_migrations_would_be_noticed(empty_app):
    """The comparison is not vacuous: a schema missing a column shows up as a difference."""
    upgrade(directory=MIGRATIONS)
    with db.engine.begin() as conn:
        conn.execute(sa.text("DROP INDEX ix_review_user_id_reviewed_at_figures"))
    assert schema_differences() != []


def compute_value(column: sa.Column, counter: int):
    """A value that any column of this type accepts; distinct per row for unique columns."""
    kind = column.type
    if isinstance(kind, sa.Boolean):
        return False
    if isinstance(kind, sa.Integer):
        return 1
    if isinstance(kind, sa.Float | sa.Numeric):
        return 0.5
    if isinstance(kind, sa.DateTime):  # aware where the column keeps a zone (PostgreSQL)
        moment = datetime(2025, 1, 1, 12, counter % 60)
        return moment.replace(tzinfo=UTC) if kind.timezone else moment
    if isinstance(kind, sa.JSON):
        return {"row": counter}
    length = getattr(kind, "length", None) or 40
    return f"{column.name[:8]}-{counter}"[:length]


def insert_sample_rows(conn, inserted: dict[str, list[dict]], counter: list[int]) -> None:
    """One new row in every table, foreign keys pointing at rows inserted earlier."""
    metadata = sa.MetaData()
    metadata.reflect(bind=conn)
    for table in metadata.sorted_tables:
        if table.name == "alembic_version":
            continue
        counter[0] += 1
        row = {}
        for column in table.columns:
            foreign = next(iter(column.foreign_keys), None)
            if foreign is not None:
                target = inserted[foreign.column.table.name][-1]
                row[column.name] = target[foreign.column.name]
            elif column.primary_key and isinstance(column.type, sa.Integer) and len(
                    table.primary_key.columns) == 1:
                continue  # assigned by the database
            else:
                row[column.name] = compute_value(column, counter[0])
        result = conn.execute(table.insert().values(**row))
        for column, value in zip(table.primary_key.columns, result.inserted_primary_key,
                                 strict=True):
            row[column.name] = value
        inserted.setdefault(table.name, []).append(row)


def test_upgrading_a_database_that_holds_data_keeps_every_row(empty_app):
    inserted: dict[str, list[dict]] = {}
    counter = [0]
    for revision in revisions_in_order():
        upgrade(directory=MIGRATIONS, revision=revision)
        with db.engine.begin() as conn:
            insert_sample_rows(conn, inserted, counter)
    assert APP_TABLES <= set(inserted)
    metadata = sa.MetaData()
    with db.engine.connect() as conn:
        metadata.reflect(bind=conn)
        for name, rows in inserted.items():
            table = metadata.tables[name]
            assert conn.execute(sa.select(sa.func.count()).select_from(table)).scalar() == len(rows)
            for row in rows:
                keys = [table.c[column.name] == row[column.name]
                        for column in table.primary_key.columns]
                stored = conn.execute(sa.select(table).where(*keys)).mappings().one()
                for column, value in row.items():
                    if column in stored:
                        assert stored[column] == value, (name, column)


def test_downgrade_to_base_and_upgrade_again(empty_app):
    upgrade(directory=MIGRATIONS)
    downgrade(directory=MIGRATIONS, revision="base")
    assert not APP_TABLES & set(sa.inspect(db.engine).get_table_names())
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []


def test_models_round_trip_aware_utc_datetimes(empty_app):
    from quizapp.models import User

    upgrade(directory=MIGRATIONS)
    moment = datetime(2025, 5, 6, 7, 8, 9, tzinfo=UTC)
    db.session.add(User(username="tz", password_hash="x", created_at=moment))
    db.session.commit()
    db.session.expire_all()
    stored = db.session.scalar(sa.select(User.created_at))
    assert stored == moment and stored.tzinfo is not None


@pytest.mark.parametrize("state_now, state_before, learning, was_review", [
    (3, 2, True, True),  # relearning after a lapse of an item that was in Review
    (1, 1, True, False),  # a learning step of a learning item
    (2, 1, False, False),  # graduated from learning: its rating was a learning step
    (2, 2, False, True),  # an ordinary review
])
def test_the_learning_flags_are_filled_from_the_stored_fsrs_states(
        empty_app, state_now, state_before, learning, was_review):
    upgrade(directory=MIGRATIONS, revision="9f2c6a4e1b83")
    with db.engine.begin() as conn:
        insert_sample_rows(conn, {}, [0])
        conn.execute(sa.text("UPDATE review_state SET state = :state").bindparams(
            sa.bindparam("state", {"state": state_now, "step": 0}, type_=sa.JSON)))
        conn.execute(sa.text("UPDATE review SET was_new = :no, state_before = :state").bindparams(
            sa.bindparam("no", False, type_=sa.Boolean),
            sa.bindparam("state", {"state": state_before, "step": 0}, type_=sa.JSON)))
    upgrade(directory=MIGRATIONS)
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT learning FROM review_state")).scalar_one() == learning
        assert conn.execute(sa.text("SELECT was_review FROM review")).scalar_one() == was_review


def test_the_stability_is_filled_from_the_stored_fsrs_states(empty_app):
    """Each stored state's stability becomes its column (NULL for one without a stability), and
    the index the dashboard's forgetting curves read comes with it; downgrading drops both."""
    upgrade(directory=MIGRATIONS, revision="b8e4f2a6d1c3")
    moment = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
    first = srs.review(srs.new_state(moment), 3, moment).state
    later = srs.review(first, 4, srs.state_due(first)).state
    states = [first, later, srs.new_state(moment), {**later, "stability": 12}]
    inserted: dict[str, list[dict]] = {}
    counter = [0]
    with db.engine.begin() as conn:
        for state in states:  # each with a user and an item of its own
            insert_sample_rows(conn, inserted, counter)
            conn.execute(sa.text("UPDATE review_state SET state = :state WHERE id = :id")
                         .bindparams(sa.bindparam("state", state, type_=sa.JSON),
                                     id=inserted["review_state"][-1]["id"]))
    upgrade(directory=MIGRATIONS, revision="d9a4c1e7f3b5")
    with db.engine.connect() as conn:
        filled = dict(conn.execute(sa.text("SELECT id, stability FROM review_state")).all())
    expected = [state.get("stability") for state in states]
    assert [filled[row["id"]] for row in inserted["review_state"]] == [
        None if value is None else pytest.approx(value, rel=1e-15) for value in expected]
    assert expected[0] is not None and expected[0] != expected[1] and expected[2] is None
    indexes = {index["name"]: index["column_names"]
               for index in sa.inspect(db.engine).get_indexes("review_state")}
    assert indexes["ix_review_state_user_id_item_id_curve"] == [
        "user_id", "item_id", "last_reviewed_at", "stability"]
    downgrade(directory=MIGRATIONS, revision="b8e4f2a6d1c3")
    inspector = sa.inspect(db.engine)
    assert "stability" not in {column["name"] for column in inspector.get_columns("review_state")}
    assert "ix_review_state_user_id_item_id_curve" not in {
        index["name"] for index in inspector.get_indexes("review_state")}
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM review_state")).scalar_one() == 4


def test_the_time_zone_replaces_the_offset_and_keeps_each_accounts_day_boundary(empty_app):
    """Fixed offsets become "UTC±HH:MM" names on the way up, and come back on the way down; the
    columns change in place, so no user row is rebuilt and no review cascades away."""
    upgrade(directory=MIGRATIONS, revision="d5e2a9c4f7b1")
    with db.engine.begin() as conn:
        insert_sample_rows(conn, {}, [0])  # one user, with a review and a review state
        for n, minutes in enumerate((-300, 330, 0, 840)):
            conn.execute(sa.text(
                "INSERT INTO \"user\" (username, password_hash, session_version, created_at, "
                "desired_retention, new_per_day, reviews_per_day, utc_offset_minutes) VALUES "
                "(:name, 'x', 1, :at, 0.9, 20, 200, :minutes)"),
                {"name": f"zone{n}", "at": datetime(2025, 1, 1, tzinfo=UTC), "minutes": minutes})
    upgrade(directory=MIGRATIONS, revision="a7e3c9d1f5b2")
    names_query = sa.text("SELECT username, time_zone FROM \"user\" WHERE username LIKE 'zone%'")
    with db.engine.begin() as conn:
        assert dict(conn.execute(names_query).all()) == {
            "zone0": "UTC-05:00", "zone1": "UTC+05:30", "zone2": "UTC", "zone3": "UTC+14:00"}
        assert conn.execute(sa.text("SELECT count(*) FROM review")).scalar_one() == 1
        assert conn.execute(sa.text("SELECT count(*) FROM review_state")).scalar_one() == 1
        conn.execute(sa.text("UPDATE \"user\" SET time_zone = 'Asia/Kolkata' "
                             "WHERE username = 'zone2'"))
    downgrade(directory=MIGRATIONS, revision="d5e2a9c4f7b1")
    offsets_query = sa.text(
        "SELECT username, utc_offset_minutes FROM \"user\" WHERE username LIKE 'zone%'")
    with db.engine.connect() as conn:
        assert dict(conn.execute(offsets_query).all()) == {
            "zone0": -300, "zone1": 330, "zone2": 330, "zone3": 840}
        assert conn.execute(sa.text("SELECT count(*) FROM review")).scalar_one() == 1


def test_review_ids_are_not_handed_out_again_after_the_upgrade(empty_app):
    """Reviews 1-5 stored, 4 and 5 undone, then the upgrade: a new rating gets an id above 5,
    and the copied table keeps its rows, indexes and rating CHECK."""
    upgrade(directory=MIGRATIONS, revision="a7e3c9d1f5b2")
    with db.engine.begin() as conn:
        inserted: dict[str, list[dict]] = {}
        insert_sample_rows(conn, inserted, [0])
        table = sa.Table("review", sa.MetaData(), autoload_with=conn)
        review = {k: v for k, v in inserted["review"][0].items() if k != "id"}
        for _ in range(4):
            conn.execute(table.insert().values(**review))
        ids = conn.execute(sa.select(table.c.id).order_by(table.c.id)).scalars().all()
        assert len(ids) == 5
        conn.execute(table.delete().where(table.c.id >= ids[3]))
    upgrade(directory=MIGRATIONS, revision="b8f4d2e6a1c3")
    with db.engine.begin() as conn:
        table = sa.Table("review", sa.MetaData(), autoload_with=conn)
        assert conn.execute(sa.select(table.c.id).order_by(table.c.id)).scalars().all() == ids[:3]
        new_id = conn.execute(table.insert().values(**review)).inserted_primary_key[0]
        assert new_id > ids[-1]
        with pytest.raises(sa.exc.IntegrityError):  # the CHECK on rating survived the copy
            with conn.begin_nested():
                conn.execute(table.insert().values(**{**review, "rating": 5}))
    indexes = {index["name"] for index in sa.inspect(db.engine).get_indexes("review")}
    assert {"ix_review_user_id_reviewed_at", "ix_review_user_id_id"} <= indexes
    upgrade(directory=MIGRATIONS)
    assert schema_differences() == []


# A column added to "user" with a server default, in place (plain ALTER TABLE): (revision
# before, its own revision, the column, what every account from before gets, a column the
# downgrade keeps). Batch mode would rebuild "user", and its reviews would cascade away.
USER_COLUMNS_ADDED = [
    # Every account follows the system, as every page did before the setting.
    ("fc1dda5f1c76", "b3e7d1a9c5f2", "theme", "system", "keyboard_shortcuts"),
    # Shortcuts arrive on for every account, as they were before the setting.
    ("b8f4d2e6a1c3", "f6b1d3a8c2e7", "keyboard_shortcuts", True, "time_zone"),
    # 36500 days, the cap the scheduler had fixed, so no schedule changes.
    ("1f7b3d9e5a20", "3a6d8f1c2b94", "maximum_interval_days", 36500, "keyboard_shortcuts"),
    # Every level, junior first, as the queue introduced new items before the setting.
    ("3a6d8f1c2b94", "5c2e7a9d4f16", "new_from_level", "junior", "maximum_interval_days"),
]


@pytest.mark.parametrize(("before", "revision", "column", "value", "kept"), USER_COLUMNS_ADDED,
                         ids=[added[2] for added in USER_COLUMNS_ADDED])
def test_a_user_column_arrives_set_for_accounts_from_before_and_goes_again(
        empty_app, before, revision, column, value, kept):
    """Every account gets the value, no review cascades away; a downgrade drops the column
    and keeps the rest."""
    upgrade(directory=MIGRATIONS, revision=before)
    with db.engine.begin() as conn:
        inserted, counter = {}, [0]
        for _ in range(2):  # two users, each with a review and a review state
            insert_sample_rows(conn, inserted, counter)
    upgrade(directory=MIGRATIONS, revision=revision)
    with db.engine.begin() as conn:
        assert conn.execute(sa.text(
            f'SELECT {column} FROM "user"')).scalars().all() == [value, value]
        assert conn.execute(sa.text("SELECT count(*) FROM review")).scalar_one() == 2
    downgrade(directory=MIGRATIONS, revision=before)
    names = {entry["name"] for entry in sa.inspect(db.engine).get_columns("user")}
    assert column not in names and kept in names
    with db.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM review")).scalar_one() == 2


def start_upgrade(instance: Path, database_url: str) -> subprocess.Popen:
    """`quizapp db upgrade` in a fresh process, as the Dockerfile's start script runs it."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("QUIZAPP_")}
    return subprocess.Popen(
        [sys.executable, "-c", "from quizapp.cli import main; main()",
         "db", "upgrade", "--directory", MIGRATIONS],
        env={**clean, "QUIZAPP_INSTANCE_PATH": str(instance),
             "QUIZAPP_DATABASE_URL": database_url},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.postgresql_only
def test_instances_upgrading_a_new_database_at_once_all_succeed(tmp_path, empty_database_url):
    """Replicas starting together: the losers used to die on a duplicate alembic_version."""
    runs = [start_upgrade(tmp_path, empty_database_url) for _ in range(3)]
    errors = [run.communicate(timeout=120)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], errors
    engine = sa.create_engine(empty_database_url)
    with engine.connect() as conn:
        versions = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars()
        assert list(versions) == [ScriptDirectory(MIGRATIONS).get_current_head()]
    engine.dispose()


@pytest.mark.postgresql_only
def test_an_upgrade_waits_for_the_migration_lock_beyond_the_statement_timeout(
        tmp_path, empty_database_url, monkeypatch):
    """The app's statement timeout (here 300 ms) does not apply to migrations: a long one,
    or waiting for another instance's, must not be cancelled half-way."""
    monkeypatch.setenv("QUIZAPP_DB_STATEMENT_TIMEOUT_MS", "300")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "SQLALCHEMY_DATABASE_URI": empty_database_url})
    lock_key = int(re.search(r"MIGRATION_LOCK_KEY = ([\d_]+)",
                             Path(MIGRATIONS, "env.py").read_text()).group(1))
    conninfo = sa.make_url(empty_database_url).set(drivername="postgresql").render_as_string(
        hide_password=False)
    failures: list[Exception] = []

    def migrate() -> None:
        try:
            with app.app_context():
                upgrade(directory=MIGRATIONS)
                db.engine.dispose()
        except Exception as exc:  # handed to the test
            failures.append(exc)

    with psycopg.connect(conninfo, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (lock_key,))  # another upgrade runs
        thread = threading.Thread(target=migrate)
        thread.start()
        time.sleep(1)
        assert thread.is_alive() and not failures
        assert other.execute("SELECT to_regclass('alembic_version')").fetchone()[0] is None
        other.execute("SELECT pg_advisory_unlock(%s)", (lock_key,))
        thread.join(60)
        assert not failures
        version = other.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    assert version == ScriptDirectory(MIGRATIONS).get_current_head()


def test_user_ids_are_not_handed_out_again_and_rows_survive_the_copy(empty_app):
    """The user table is copied on SQLite with every table referring to it: no review, state or
    login goes with the old copy; afterwards foreign keys are on again for the app, and a
    deleted newest account's id is not given to the next one (1f7b3d9e5a20)."""
    upgrade(directory=MIGRATIONS, revision="6e3a9b1c4d58")
    inserted: dict[str, list[dict]] = {}
    with db.engine.begin() as conn:
        insert_sample_rows(conn, inserted, [0])
    upgrade(directory=MIGRATIONS)
    metadata = sa.MetaData()
    with db.engine.connect() as conn:
        metadata.reflect(bind=conn)
        for name in ("user", "review", "review_state", "login_session", "item_suspension"):
            count = sa.select(sa.func.count()).select_from(metadata.tables[name])
            assert conn.execute(count).scalar() == len(inserted[name]), name
    users = metadata.tables["user"]
    row = {k: v for k, v in inserted["user"][0].items() if k != "id"}
    with db.engine.begin() as conn:
        if conn.dialect.name == "sqlite":  # the app's pooled connection enforces them again
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        newest = conn.execute(users.insert().values(**{**row, "username": "newest"})
                              ).inserted_primary_key[0]
        conn.execute(users.delete().where(users.c.id == newest))
        again = conn.execute(users.insert().values(**{**row, "username": "next"})
                             ).inserted_primary_key[0]
    assert again > newest
    assert schema_differences() == []
