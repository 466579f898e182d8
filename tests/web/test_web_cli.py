"""`quizapp db upgrade` and `quizapp content load` through the real command group."""

from __future__ import annotations

import re
import shutil
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


def test_check_and_load_read_the_bank_quizapp_content_path_names(instance, tmp_path_factory,
                                                                 monkeypatch):
    assert run("db", "upgrade", "--directory", str(ROOT / "migrations")).exit_code == 0
    missing = tmp_path_factory.mktemp("elsewhere") / "content"
    monkeypatch.setenv("QUIZAPP_CONTENT_PATH", str(missing))
    problem = f"{missing / 'cards'}:1: the cards folder does not exist"
    for args in (["check", "--no-run"], ["load"]):
        result = CliRunner().invoke(cli, ["content", *args])
        assert result.exit_code == 1 and problem in result.output, (args, result.output)


def test_a_restored_card_is_counted_once(instance, tmp_path_factory):
    assert run("db", "upgrade", "--directory", str(ROOT / "migrations")).exit_code == 0
    bank = tmp_path_factory.mktemp("bank") / "content"
    shutil.copytree(ROOT / "content", bank)
    total = len(load_cards(bank))
    card = sorted((bank / "cards").glob("*.md"))[0]
    assert run("content", "load", "--path", str(bank)).exit_code == 0
    text = card.read_text()
    card.unlink()
    retired = run("content", "load", "--path", str(bank)).output
    assert f"cards: 0 added, 0 updated, {total - 1} unchanged, 1 retired, 0 restored" in retired
    card.write_text(text)
    restored = run("content", "load", "--path", str(bank)).output
    assert f"cards: 0 added, 0 updated, {total - 1} unchanged, 0 retired, 1 restored" in restored
