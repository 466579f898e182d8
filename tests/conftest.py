"""Shared pytest configuration: the throwaway PostgreSQL server (tests/postgres_support.py)."""

from __future__ import annotations

import os

import pytest
from flask_migrate import upgrade
from postgres_support import TEMPLATE, PostgresServer, find_server_binaries, missing_server_message
from webtest_support import MIGRATIONS

from quizapp import create_app
from quizapp.extensions import db


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory):
    """This process's PostgreSQL cluster, with the migrated template every test copies."""
    binaries = find_server_binaries()
    if binaries is None:
        if os.environ.get("QUIZAPP_REQUIRE_POSTGRES") == "1":
            pytest.fail(missing_server_message())
        pytest.skip(missing_server_message())
    server = PostgresServer.start(binaries)
    try:
        server.execute(f"CREATE DATABASE {TEMPLATE}")
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": server.url(TEMPLATE),
                          "INSTANCE_PATH": str(tmp_path_factory.mktemp("pg-template"))})
        with app.app_context():
            upgrade(directory=MIGRATIONS)
            db.engine.dispose()
        yield server
    finally:
        server.stop()
