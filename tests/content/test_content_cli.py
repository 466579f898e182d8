"""`quizapp content check`: problems as file:line: message, a summary line, exit status."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from content_fixtures import CONCEPTS_YAML, card_text, line_of

from quizapp import puzzles
from quizapp.cli.content_cmd import content
from quizapp.content import configured_content_root, default_content_root

# The check holds the puzzle families' tags against concepts.yaml as `content load` does, so
# the scratch banks here list them beside the test cards' own two.
FAMILY_TAGS = sorted({tag for family in puzzles.families() for tag in family["concepts"]})
CONCEPTS_WITH_FAMILIES = CONCEPTS_YAML + "".join(f"{tag}: About {tag}.\n" for tag in FAMILY_TAGS
                                                 if tag not in ("stride", "view"))


@pytest.fixture
def bank(bank):
    """The content tests' scratch bank, with the families' concepts listed too."""
    return lambda cards, concepts=CONCEPTS_WITH_FAMILIES: bank(cards, concepts)


def invoke(*args: str):
    return CliRunner().invoke(content, ["check", *args])


def test_no_run_validates_without_executing_samples(bank):
    wrong_output = card_text("small-card").replace("(3, 1)\n```", "(9, 9)\n```")
    root = bank({"small-card.md": wrong_output})
    result = invoke("--path", str(root), "--no-run")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith(
        "1 files, 1 valid cards, samples not run (--no-run); 0 problems")


def test_problems_are_printed_and_exit_status_is_one(bank):
    broken = card_text("small-card").replace("concepts: [stride, view]", "concepts: [strides]")
    root = bank({"small-card.md": broken, "fine.md": card_text("fine")})
    result = invoke("--path", str(root), "--no-run")
    assert result.exit_code == 1
    first, summary = result.output.splitlines()
    path, line, message = first.split(":", 2)
    assert path.endswith(os.path.join("cards", "small-card.md"))
    assert int(line) == line_of(broken, "concepts:")
    assert message.startswith(" unknown concept 'strides'")
    assert summary.endswith("2 files, 1 valid cards, samples not run (--no-run); 1 problem")


def test_a_family_tagged_with_a_concept_the_bank_lacks_fails_the_check_as_it_fails_the_load(bank):
    # concepts.yaml without view-rule, a tag two families carry (written in code, not in a card).
    families = sorted(family["id"] for family in puzzles.families()
                      if "view-rule" in family["concepts"])
    assert families, "no family is tagged view-rule any more; pick another tag here"
    concepts = "".join(line for line in CONCEPTS_WITH_FAMILIES.splitlines(keepends=True)
                       if not line.startswith("view-rule:"))
    root = bank({"small-card.md": card_text("small-card")}, concepts)
    result = invoke("--path", str(root), "--no-run")
    assert result.exit_code == 1
    *problems, summary = result.output.splitlines()
    assert [line.split(": ", 1)[0] for line in problems] == [f"{root / 'concepts.yaml'}:1"] * len(
        families)
    assert [line.split("'")[1] for line in problems] == families
    assert all("tagged with view-rule, which concepts.yaml does not list" in line
               for line in problems)
    assert summary.endswith(f"1 valid cards, samples not run (--no-run); {len(families)} problems")


def test_empty_bank_fails_the_check_as_it_fails_the_load(bank):
    root = bank({})
    result = invoke("--path", str(root), "--no-run")
    assert result.exit_code == 1
    first, summary = result.output.splitlines()
    assert first == f"{root / 'cards'}:1: no cards given: the cards folder holds no '<id>.md' file to load"
    assert summary.endswith("0 files, 0 valid cards, samples not run (--no-run); 1 problem")


@pytest.mark.torch
def test_check_runs_samples_and_reports_mismatches(bank):
    wrong_output = card_text("small-card").replace("(3, 1)\n```", "(9, 9)\n```")
    root = bank({"small-card.md": wrong_output, "fine.md": card_text("fine")})
    result = invoke("--path", str(root))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 2
    assert f"small-card.md:{line_of(wrong_output, '```python')}: printed output differs" in lines[0]
    assert "ran 2 samples under torch 2.13" in lines[1] and lines[1].endswith("1 problem")


def test_default_path_is_the_repo_content_folder():
    root = default_content_root()
    assert (root / "concepts.yaml").is_file() and (root / "cards").is_dir()


def test_check_defaults_to_quizapp_content_path_as_load_does(bank, monkeypatch, tmp_path):
    missing = tmp_path / "nope"
    monkeypatch.setenv("QUIZAPP_CONTENT_PATH", str(missing))
    result = invoke("--no-run")
    assert result.exit_code == 1
    assert f"{missing / 'cards'}:1: the cards folder does not exist" in result.output
    # An explicit --path still wins over the variable.
    root = bank({"small-card.md": card_text("small-card")})
    result = invoke("--path", str(root), "--no-run")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith("1 files, 1 valid cards, samples not run "
                                                   "(--no-run); 0 problems")


def test_an_empty_quizapp_content_path_counts_as_unset(monkeypatch):
    monkeypatch.setenv("QUIZAPP_CONTENT_PATH", "")
    assert configured_content_root() == default_content_root()
    monkeypatch.setenv("QUIZAPP_CONTENT_PATH", "/srv/bank")
    assert configured_content_root() == Path("/srv/bank")


def test_check_help_names_the_variable():
    result = CliRunner().invoke(content, ["check", "--help"])
    assert "default: QUIZAPP_CONTENT_PATH when set, else the repo's content/" in " ".join(
        result.output.split())


def test_group_keeps_its_name():
    assert content.name == "content" and "check" in content.commands
