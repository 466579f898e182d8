"""`quizapp db upgrade` and `quizapp content load` through the real command group."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from quizapp.cli import cli
from quizapp.content import load_cards

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def instance(tmp_path, monkeypatch):
    for name in ("QUIZAPP_ENV", "QUIZAPP_DATABASE_URL", "QUIZAPP_SECRET_KEY",
                 "QUIZAPP_CONTENT_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("QUIZAPP_INSTANCE_PATH", str(tmp_path))
    return tmp_path


def run(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result


def test_upgrade_then_load_the_bank_twice(instance):
    assert run("db", "upgrade", "--directory", str(ROOT / "migrations")).exit_code == 0
    cards = load_cards(ROOT / "content")
    first = run("content", "load")
    assert first.exit_code == 0, first.output
    assert re.search(rf"cards: {len(cards)} added, 0 updated", first.output)
    assert re.search(r"skills: \d+ added", first.output)
    second = run("content", "load")
    assert re.search(rf"cards: 0 added, 0 updated, {len(cards)} unchanged", second.output)
    with sqlite3.connect(instance / "quizapp.db") as conn:
        stored = conn.execute("SELECT COUNT(*) FROM card").fetchone()[0]
    assert stored == len(cards)
    # The development secret key was made once under the instance folder.
    assert (instance / "secret_key").is_file()


def test_load_reports_content_problems_and_changes_nothing(instance, tmp_path_factory):
    assert run("db", "upgrade", "--directory", str(ROOT / "migrations")).exit_code == 0
    broken = tmp_path_factory.mktemp("content")
    (broken / "concepts.yaml").write_text("stride: How far apart elements are.\n")
    (broken / "cards").mkdir()
    (broken / "cards" / "bad-card.md").write_text("---\nid: bad-card\n---\n## Question\nHm?\n")
    result = CliRunner().invoke(cli, ["content", "load", "--path", str(broken)])
    assert result.exit_code != 0
    assert "bad-card.md" in result.output
    with sqlite3.connect(instance / "quizapp.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM item").fetchone()[0] == 0
