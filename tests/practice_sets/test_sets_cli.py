"""`quizapp set generate`: byte-identical files, the same Anki notes, and every error path."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from set_bank_support import CONTENT, ROOT

from quizapp.cli import set_cmd
from quizapp.cli.set_cmd import set_group

QUIZAPP = Path(sys.executable).with_name("quizapp")
BASE = ["generate", "--count", "12", "--puzzles", "6", "--seed", "5"]


def run(args, env=None, **kwargs):
    environment = {"QUIZAPP_CONTENT_PATH": str(CONTENT), **(env or {})}
    return CliRunner().invoke(set_group, args, env=environment, **kwargs)


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("fmt", ["json", "csv", "md"])
def test_the_same_arguments_give_byte_identical_files(tmp_path, fmt):
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    assert run([*BASE, "--format", fmt, "-o", str(first)]).exit_code == 0
    assert run([*BASE, "--format", fmt, "-o", str(second)]).exit_code == 0
    assert first.read_bytes() == second.read_bytes() and first.stat().st_size > 1000
    other = tmp_path / f"c.{fmt}"
    assert run([*BASE[:-1], "6", "--format", fmt, "-o", str(other)]).exit_code == 0
    assert other.read_bytes() != first.read_bytes()


def test_separate_processes_with_other_hash_seeds_write_the_same_bytes(tmp_path):
    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"set-{hash_seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "QUIZAPP_CONTENT_PATH": str(CONTENT)}
        done = subprocess.run([str(QUIZAPP), "set", *BASE, "--level", "junior", "--level",
                               "senior", "--format", "json", "-o", str(out)], env=env,
                              capture_output=True, text=True, cwd=ROOT, check=False)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


def apkg_notes(path: Path) -> list[tuple[str, str, str]]:
    with zipfile.ZipFile(path) as package:
        data = package.read("collection.anki2")
    db = sqlite3.connect(":memory:")
    db.deserialize(data)
    rows = db.execute("SELECT guid, flds, tags FROM notes ORDER BY guid").fetchall()
    db.close()
    return rows


def test_the_same_arguments_give_the_same_anki_notes(tmp_path):
    first, second = tmp_path / "a.apkg", tmp_path / "b.apkg"
    assert run([*BASE, "--format", "apkg", "-o", str(first)]).exit_code == 0
    assert run([*BASE, "--format", "apkg", "-o", str(second)]).exit_code == 0
    notes = apkg_notes(first)
    assert len(notes) == 12 and notes == apkg_notes(second)


def test_json_names_the_options_given(tmp_path):
    out = tmp_path / "set.json"
    result = run(["generate", "--count", "4", "--seed", "-3", "--level", "middle", "--concept",
                  "view", "--title", "Views", "--time-limit", "15", "--format", "json", "-o",
                  str(out)])
    assert result.exit_code == 0, result.output
    document = json.loads(out.read_text())
    assert document["seed"] == -3 and document["parameters"]["levels"] == ["middle"]
    assert document["parameters"]["concepts"] == ["view"]
    assert document["parameters"]["title"] == "Views"
    assert document["parameters"]["time_limit_minutes"] == 15
    assert len(document["items"]) == 4
    assert "4 items (2 puzzles), seed -3, written to" in result.stderr


def test_families_alone_make_a_set_of_their_puzzles(tmp_path):
    out = tmp_path / "set.json"
    assert run(["generate", "--count", "5", "--family", "tolist", "--seed", "1", "--format",
                "json", "-o", str(out)]).exit_code == 0
    keys = [item["key"] for item in json.loads(out.read_text())["items"]]
    assert len(keys) == 5 and all(key.startswith("tolist/") for key in keys)


def test_a_seed_left_out_is_drawn_and_shown_and_makes_the_set_again(tmp_path):
    drawn = tmp_path / "drawn.md"
    result = run(["generate", "--count", "3", "--format", "md", "-o", str(drawn)])
    assert result.exit_code == 0
    seed = result.stderr.split("pass --seed ")[1].split()[0]
    again = tmp_path / "again.md"
    assert run(["generate", "--count", "3", "--seed", seed, "--format", "md", "-o",
                str(again)]).exit_code == 0
    assert drawn.read_bytes() == again.read_bytes()


def test_dash_writes_to_standard_output():
    result = run([*BASE, "--format", "json", "-o", "-"])
    assert result.exit_code == 0 and json.loads(result.stdout)["seed"] == 5


def test_the_bank_comes_from_quizapp_content_path(tmp_path):
    content = tmp_path / "content"
    (content / "cards").mkdir(parents=True)
    shutil.copy(CONTENT / "concepts.yaml", content / "concepts.yaml")
    chosen = sorted((CONTENT / "cards").glob("*.md"))[:2]
    for card in chosen:
        shutil.copy(card, content / "cards" / card.name)
    out = tmp_path / "set.json"
    result = run(["generate", "--count", "2", "--puzzles", "0", "--seed", "1", "--format",
                  "json", "-o", str(out)], env={"QUIZAPP_CONTENT_PATH": str(content)})
    assert result.exit_code == 0, result.output
    assert sorted(i["key"] for i in json.loads(out.read_text())["items"]) == sorted(
        card.stem for card in chosen)
    result = run(["generate", "--count", "3", "--puzzles", "0", "--seed", "1", "--format",
                  "json", "-o", str(out)], env={"QUIZAPP_CONTENT_PATH": str(content)})
    assert "only 2 cards match these filters" in one_error_line(result)


@pytest.mark.parametrize(("args", "message"), [
    (["--level", "expert"], "Error: --level: unknown level 'expert'; the levels are junior, "
                            "middle, senior, principal"),
    (["--concept", "nope"], "Error: --concept: unknown concept 'nope'"),
    (["--family", "nope"], "Error: --family: unknown puzzle family 'nope'"),
    (["--count", "0"], "Error: --count: the number of items must be between 1 and 100, not 0"),
    (["--count", "many"], "Error: --count: the number of items must be a whole number"),
    (["--count", "100", "--puzzles", "0", "--level", "principal"],
     "Error: the bank cannot fill 100 items: only"),
    (["--puzzles", "13"], "Error: --puzzles: the number of puzzles must be between 0 and the "
                          "number of items (12), not 13"),
    (["--seed", "1.5"], "Error: --seed: the seed must be a whole number, not '1.5'"),
    (["--seed", str(2**63)], "Error: --seed: the seed must be between"),
    (["--time-limit", "500"], "Error: --time-limit: the time limit must be between 1 and 240"),
    (["--title", "x" * 300], "Error: --title: the title must be at most 200 characters"),
    (["--format", "pdf"], "Error: unknown format 'pdf'; the formats are json, csv, md, apkg"),
    (["--bogus"], "Error: No such option '--bogus'."),
])
def test_every_wrong_option_is_one_line_and_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "set.json"
    options = {"--count": "12", "--seed": "5", "--format": "json"}
    for name in args[::2]:
        options.pop(name, None)
    given = [part for pair in options.items() for part in pair]
    result = run(["generate", *given, *args, "-o", str(out)])
    assert one_error_line(result).startswith(message)
    assert leftovers(tmp_path) == []


def test_a_missing_option_is_one_line_too(tmp_path):
    result = run(["generate", "--seed", "1", "--format", "json", "-o", str(tmp_path / "x")])
    assert one_error_line(result) == "Error: Missing option '--count'."


@pytest.mark.parametrize("target", ["missing/set.json", "file.txt/set.json", "."])
def test_an_unwritable_path_is_one_line_and_exit_2(tmp_path, target):
    (tmp_path / "file.txt").write_text("keep")
    path = tmp_path / target
    result = run([*BASE, "--format", "json", "-o", str(path)])
    line = one_error_line(result)
    assert line.startswith(f"Error: cannot write {path}: ")
    assert leftovers(tmp_path) == ["file.txt"] and (tmp_path / "file.txt").read_text() == "keep"


def test_a_failed_write_leaves_the_old_file_and_no_part_file(tmp_path, monkeypatch):
    out = tmp_path / "set.json"
    out.write_text("the old set")

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(set_cmd.os, "replace", fail)
    result = run([*BASE, "--format", "json", "-o", str(out)])
    assert one_error_line(result) == f"Error: cannot write {out}: No space left on device"
    assert leftovers(tmp_path) == ["set.json"] and out.read_text() == "the old set"


def test_an_existing_file_is_replaced_whole(tmp_path):
    out = tmp_path / "set.md"
    out.write_text("x" * 100_000)
    assert run([*BASE, "--format", "md", "-o", str(out)]).exit_code == 0
    assert out.read_text().startswith("# Practice set 5\n") and leftovers(tmp_path) == [
        "set.md"]


def test_a_broken_bank_is_one_line(tmp_path):
    content = tmp_path / "content"
    (content / "cards").mkdir(parents=True)
    shutil.copy(CONTENT / "concepts.yaml", content / "concepts.yaml")
    (content / "cards" / "bad.md").write_text("no front matter")
    result = run([*BASE, "--format", "json", "-o", str(tmp_path / "x.json")],
                 env={"QUIZAPP_CONTENT_PATH": str(content)})
    assert "the question bank at" in one_error_line(result)
    assert "see quizapp content check" in result.stderr


def test_the_installed_command_reports_one_line_and_exit_2(tmp_path):
    done = subprocess.run([str(QUIZAPP), "set", "generate", "--count", "5", "--level", "expert",
                           "--format", "csv", "-o", str(tmp_path / "x.csv")],
                          capture_output=True, text=True, cwd=ROOT, check=False,
                          env={**os.environ, "QUIZAPP_CONTENT_PATH": str(CONTENT)})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Error: --level: unknown level 'expert'; the levels are junior, middle, senior, "
        "principal"]
    assert leftovers(tmp_path) == []


def test_the_csv_is_utf8(tmp_path):
    out = tmp_path / "set.csv"
    assert run([*BASE, "--format", "csv", "-o", str(out)]).exit_code == 0
    io.TextIOWrapper(io.BytesIO(out.read_bytes()), encoding="utf-8", errors="strict").read()


def test_a_refused_set_leaves_an_existing_file_as_it_was(tmp_path):
    out = tmp_path / "set.csv"
    out.write_text("the old set")
    result = run(["generate", "--count", "5", "--family", "nope", "--format", "csv", "-o",
                  str(out)])
    assert one_error_line(result).startswith("Error: --family: unknown puzzle family 'nope'")
    assert out.read_text() == "the old set" and leftovers(tmp_path) == ["set.csv"]


def shell_commands(path: Path, program: str) -> list[list[str]]:
    """The ``program set ...`` lines of a Markdown file's shell blocks (comments dropped,
    continuation lines joined)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", path.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line.split("  #")[0])
            if words[:2] == [program, "set"]:
                commands.append(words[2:])
    return commands


def test_the_set_examples_of_the_readme_and_the_docs_run(tmp_path, monkeypatch):
    examples = (shell_commands(ROOT / "README.md", ".venv/bin/quizapp")
                + shell_commands(ROOT / "docs" / "practice-sets.md", "quizapp"))
    runnable = [words for words in examples if "..." not in " ".join(words)
                and "[" not in " ".join(words)]
    assert len(runnable) >= 3, examples
    monkeypatch.chdir(tmp_path)
    for words in runnable:
        result = run(words)
        assert result.exit_code == 0, (words, result.output)
        output = words[words.index("-o") + 1]
        assert (tmp_path / output).stat().st_size > 0
