"""/healthz: 200 when the database answers at the migrations' head, else a short 503, cause logged."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from webtest_support import MIGRATIONS

from quizapp import create_app
from quizapp.extensions import db

HEAD = ScriptDirectory(MIGRATIONS).get_current_head()


def test_healthz_reports_ok_with_a_migrated_database(client, bank):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": f"{len(bank)} items"}


def test_healthz_is_unavailable_without_a_schema(tmp_path, caplog):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    with caplog.at_level(logging.WARNING, logger="quizapp"):
        response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "unavailable", "database": "OperationalError"}
    # The operator finds the cause in the log; the response stays short.
    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "quizapp"] == [
        ("WARNING", "/healthz unavailable: OperationalError (OperationalError): "
                    "no such table: item")]


def test_healthz_is_unavailable_while_the_schema_is_behind_the_migrations(app, client):
    """Login would fail on the missing columns, so the instance is not healthy."""
    with app.app_context():
        downgrade(directory=MIGRATIONS, revision="-1")
        with db.engine.connect() as conn:
            previous = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {
        "status": "unavailable",
        "database": f"schema at {previous}, migrations at {HEAD}: run quizapp db upgrade"}
    with app.app_context():
        upgrade(directory=MIGRATIONS)
    assert client.get("/healthz").status_code == 200


def test_healthz_is_unavailable_on_a_schema_newer_than_the_migrations(app, client):
    with app.app_context(), db.engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = 'f00dfeedbeef'"))
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["database"].startswith(
        f"schema at f00dfeedbeef, unknown to these migrations (at {HEAD})")


def test_healthz_is_unavailable_when_the_migrations_cannot_be_read(tmp_path, monkeypatch,
                                                                   migrated_db):
    monkeypatch.setenv("QUIZAPP_MIGRATIONS_PATH", str(tmp_path / "nowhere"))
    (tmp_path / "quizapp.db").write_bytes(migrated_db.read_bytes())
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json() == {"status": "unavailable", "database": "migrations unreadable"}
