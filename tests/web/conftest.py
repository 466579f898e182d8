"""Fixtures for the web tests: an app on a copy of a migrated temp SQLite DB, a fake clock."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask_migrate import upgrade
from webtest_support import FakeClock, SeedSequence, make_card

from quizapp import create_app
from quizapp.extensions import db
from quizapp.services.bank_import import import_cards, import_concepts

MIGRATIONS = str(Path(__file__).resolve().parents[2] / "migrations")
START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


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


@pytest.fixture
def app(tmp_path, migrated_db, clock, seeds):
    shutil.copy(migrated_db, tmp_path / "quizapp.db")
    application = build_app(tmp_path, CLOCK=clock, PUZZLE_SEED_SOURCE=seeds)
    yield application
    with application.app_context():
        db.session.remove()
        db.engine.dispose()


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
        tags = sorted({tag for card in sample_cards for tag in card.concepts})
        import_concepts(db.session, {tag: f"About {tag}." for tag in tags})
    return sample_cards
