"""PostgreSQL connections: timeouts bound a hung database, and dropped connections are replaced."""

from __future__ import annotations

import logging
import socket
import threading
import time

import psycopg
import pytest
import sqlalchemy as sa
from flask_migrate import upgrade
from postgres_support import PORT, USER
from webtest_support import MIGRATIONS

from quizapp import create_app
from quizapp.extensions import db


@pytest.fixture
def silent_server():
    """A port that accepts TCP connections and never answers: a hung database. Closing its
    sockets at the end also frees a client still waiting on it."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept_forever() -> None:
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept_forever, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for conn in [*accepted, listener]:
        conn.close()


def finish_within(seconds: float, work):
    """``work()``'s result or exception, failing the test if it takes longer than ``seconds``."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["result"] = work()
        except Exception as exc:  # handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting for the database after {seconds} s"
    return outcome, time.monotonic() - started


def test_healthz_answers_503_soon_when_the_database_never_answers(silent_server, tmp_path,
                                                                  monkeypatch, caplog):
    monkeypatch.setenv("QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", "2")
    url = f"postgresql+psycopg://quiz:hunter2-secret@127.0.0.1:{silent_server}/quiz"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "SQLALCHEMY_DATABASE_URI": url})
    with caplog.at_level(logging.WARNING, logger="quizapp"):
        outcome, elapsed = finish_within(8, lambda: app.test_client().get("/healthz"))
    response = outcome["result"]
    assert response.status_code == 503 and elapsed < 5
    assert response.get_json() == {"status": "unavailable", "database": "OperationalError"}
    assert "connection timeout expired" in caplog.text
    assert "hunter2-secret" not in caplog.text


def test_an_upgrade_against_a_database_that_never_answers_fails_soon(silent_server, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv("QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", "2")
    url = f"postgresql+psycopg://quiz@127.0.0.1:{silent_server}/quiz"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "SQLALCHEMY_DATABASE_URI": url})

    def migrate() -> None:
        with app.app_context():
            upgrade(directory=MIGRATIONS)

    outcome, _elapsed = finish_within(8, migrate)
    assert isinstance(outcome.get("error"), sa.exc.OperationalError)
    assert "connection timeout expired" in str(outcome["error"])


@pytest.mark.postgresql_only
def test_requests_succeed_after_the_server_drops_the_pooled_connections(app, client, bank,
                                                                        postgres_server):
    """A database restart or failover ends every pooled connection; the next request used to
    get the dead one and a 500."""
    assert client.get("/questions").status_code == 200
    with app.app_context():
        database = db.engine.url.database
    with psycopg.connect(host=str(postgres_server.folder), port=PORT, user=USER,
                         dbname="postgres", autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000)) "
            "FROM pg_stat_activity WHERE datname = %s", (database,)).fetchone()[0]
    assert ended >= 1
    assert client.get("/questions").status_code == 200
    assert client.get("/healthz").status_code == 200


@pytest.mark.postgresql_only
def test_app_connections_carry_a_statement_timeout(app):
    with app.app_context(), db.engine.connect() as conn:
        assert conn.execute(sa.text("SHOW statement_timeout")).scalar() == "30s"


@pytest.mark.postgresql_only
def test_healthz_gives_up_soon_on_a_database_that_holds_its_query(app, client, bank):
    """A table locked by a stuck transaction: the app's statement timeout is 30 s, and the
    health check stops after 2 s instead of holding a thread through every probe."""
    with app.app_context():
        conninfo = db.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
    with psycopg.connect(conninfo) as locker:
        locker.execute("LOCK TABLE item IN ACCESS EXCLUSIVE MODE")
        outcome, elapsed = finish_within(8, lambda: client.get("/healthz"))
    assert outcome["result"].status_code == 503 and elapsed < 5
    assert client.get("/healthz").status_code == 200
