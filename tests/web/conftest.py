"""Fixtures for the web tests: an app on a fresh migrated database (SQLite, and PostgreSQL where
its server is installed; see postgres_support.py), a fake clock, recorded puzzle seeds."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask_migrate import upgrade
from webtest_support import (
    MIGRATIONS,
    FakeClock,
    SeedSequence,
    concepts_for,
    executed_statements,
    make_card,
)

from quizapp import create_app, puzzles
from quizapp.extensions import db
from quizapp.services.bank_import import import_cards, import_concepts, load_bank

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
BACKENDS = ["sqlite", "postgresql"]


def build_app(instance: Path, **config):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(instance), **config})


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory) -> Path:
    """A database upgraded to head once per session; each test gets a copy."""
    instance = tmp_path_factory.mktemp("migrated")
    app = build_app(instance)
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        db.engine.dispose()
    return instance / "quizapp.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def seeds() -> SeedSequence:
    return SeedSequence()


def pytest_generate_tests(metafunc):
    """Every test that builds the app runs on both backends, but for those marked sqlite_only
    or postgresql_only."""
    backends = [backend for backend in BACKENDS
                if not metafunc.definition.get_closest_marker(f"{other(backend)}_only")]
    for name in ("database_url", "empty_database_url"):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, backends, indirect=True)


def other(backend: str) -> str:
    return "postgresql" if backend == "sqlite" else "sqlite"


@pytest.fixture
def database_url(request, tmp_path, migrated_db):
    """None for a copy of the migrated SQLite file in the instance folder (the default URL),
    else the URL of a fresh copy of the migrated PostgreSQL template."""
    if request.param == "sqlite":
        shutil.copy(migrated_db, tmp_path / "quizapp.db")
        yield None
        return
    server = request.getfixturevalue("postgres_server")
    name = server.new_database()
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture
def empty_database_url(request):
    """None for a new SQLite file in the instance folder, else a new empty PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    server = request.getfixturevalue("postgres_server")
    name = server.new_database(template=None)
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture
def empty_app(tmp_path, empty_database_url):
    """An app on an empty database: a new SQLite file, or a new PostgreSQL database."""
    config = {"SQLALCHEMY_DATABASE_URI": empty_database_url} if empty_database_url else {}
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), **config})
    with app.app_context():
        yield app
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def make_app(tmp_path, database_url, clock, seeds):
    """Builds the app on this test's database, clock and seeds; more configuration can be given
    (what create_app reads once, such as PROXY_FIX_HOPS)."""
    built = []

    def make(**extra):
        config = {"SQLALCHEMY_DATABASE_URI": database_url} if database_url else {}
        built.append(build_app(tmp_path, CLOCK=clock, PUZZLE_SEED_SOURCE=seeds, **config, **extra))
        return built[-1]

    yield make
    for application in built:
        with application.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def sample_cards():
    """Six cards over two levels; junior ones come first in the new queue."""
    return [
        make_card("alpha-stride", concepts=("stride", "shape")),
        make_card("beta-view", concepts=("view",), importance="should-know"),
        make_card("gamma-offset", concepts=("storage-offset",)),
        make_card("delta-reshape", level="middle", concepts=("reshape", "view")),
        make_card("epsilon-expand", level="middle", importance="nice-to-know",
                  concepts=("expand",)),
        make_card("zeta-channels", level="senior", concepts=("channels-last",)),
    ]


@pytest.fixture
def bank(app, sample_cards, clock):
    with app.app_context():
        import_cards(db.session, sample_cards, clock())
        import_concepts(db.session, concepts_for(sample_cards))
    return sample_cards


@pytest.fixture
def skill_bank(app, sample_cards, clock):
    """The sample cards and every puzzle skill."""
    with app.app_context():
        families = puzzles.families()
        load_bank(db.session, sample_cards, concepts_for(sample_cards, families), families,
                  clock())
    return sample_cards


@pytest.fixture
def plans(app):
    """plans(client, path) -> [(statement, its EXPLAIN QUERY PLAN steps)] of one GET."""
    with app.app_context():
        path = Path(app.instance_path) / "quizapp.db"

    def explain(client, url: str) -> list[tuple[str, list[str]]]:
        with executed_statements(app) as executed:
            assert client.get(url).status_code == 200, url
        with sqlite3.connect(path) as connection:
            return [(statement, [row[3] for row in connection.execute(
                        "EXPLAIN QUERY PLAN " + statement, parameters).fetchall()])
                    for statement, parameters in executed
                    if statement.lstrip().upper().startswith("SELECT")]

    yield explain
    with app.app_context():
        db.engine.dispose()
