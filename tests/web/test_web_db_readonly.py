"""A read-only SQLite database can still be inspected and read; writes fail with SQLite's error."""

from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from webtest_support import MIGRATIONS

from quizapp import create_app
from quizapp.extensions import apply_sqlite_pragmas, db


def test_a_read_only_database_answers_reads_and_refuses_writes(tmp_path, migrated_db):
    """The connect hook's switch to WAL writes; on a read-only database it used to fail every
    connection, so even `quizapp db current` could not run."""
    path = tmp_path / "readonly.db"
    path.write_bytes(migrated_db.read_bytes())
    with sqlite3.connect(path) as conn:  # as another tool leaves a database: no WAL
        conn.execute("PRAGMA journal_mode=DELETE")
    before = path.read_bytes()
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///file:{path}?mode=ro&uri=true"})
    assert app.test_client().get("/healthz").status_code == 200
    with app.app_context(), db.engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == (
            ScriptDirectory(MIGRATIONS).get_current_head())
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "delete"
        with pytest.raises(sa.exc.OperationalError, match="attempt to write a readonly database"):
            conn.execute(sa.text("DELETE FROM item"))
    assert path.read_bytes() == before


class ReadOnlyFolderConnection:
    """What sqlite3 does as a non-root user with a WAL database in a read-only folder (root,
    which runs these tests, can write anywhere)."""

    def cursor(self):
        return self

    def execute(self, _sql: str):
        error = sqlite3.OperationalError("attempt to write a readonly database")
        error.sqlite_errorname = "SQLITE_READONLY_DIRECTORY"
        raise error


def test_a_wal_database_in_a_read_only_folder_is_explained(tmp_path):
    with pytest.raises(sqlite3.OperationalError, match="/srv/q.db is a WAL database in a "
                       "read-only folder: .*Make the folder writable.*immutable=1"):
        apply_sqlite_pragmas(ReadOnlyFolderConnection(), "/srv/q.db", 1000)
