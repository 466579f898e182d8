"""The quizapp command answers a bad setting, database or install in one line, not a traceback."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError, ProgrammingError

from quizapp.cli import cli, failures

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = str(ROOT / "migrations")


def run_quizapp(instance: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """The installed entry point (quizapp.cli:main) in a fresh process, as a user runs it."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("QUIZAPP_")}
    return subprocess.run(
        [sys.executable, "-c", "from quizapp.cli import main; main()", *args],
        env={**clean, "QUIZAPP_INSTANCE_PATH": str(instance), **env},
        capture_output=True, text=True, timeout=120, check=False)


def assert_one_line_error(result: subprocess.CompletedProcess, words: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr
    assert result.stderr.startswith("Error: ") and words in result.stderr, result.stderr


@pytest.mark.parametrize(("env", "words"), [
    ({"QUIZAPP_DATABASE_URL": "nonsense"}, "QUIZAPP_DATABASE_URL is not a database URL"),
    ({"QUIZAPP_DATABASE_URL": "foo://bar"}, "has no driver for"),
    ({"QUIZAPP_ENV": "production"}, "QUIZAPP_SECRET_KEY (or QUIZAPP_SECRET_KEY_FILE) is required"),
    ({"QUIZAPP_ENV": "production", "QUIZAPP_SECRET_KEY": "short"}, "use at least 32"),
    ({"QUIZAPP_ENV": "nonsense"}, "QUIZAPP_ENV must be one of"),
])
def test_bad_settings_are_one_line(tmp_path, env, words):
    assert_one_line_error(run_quizapp(tmp_path, "db", "upgrade", "--directory", MIGRATIONS,
                                      **env), words)


def test_a_file_that_is_not_a_database_is_one_line_and_left_alone(tmp_path):
    garbage = os.urandom(4096)
    (tmp_path / "quizapp.db").write_bytes(garbage)
    # Private as the app makes its own files, so that the start-up warning about files other
    # accounts can read (tests/test_private_files.py) does not add a line here.
    (tmp_path / "quizapp.db").chmod(0o600)
    result = run_quizapp(tmp_path, "db", "upgrade", "--directory", MIGRATIONS)
    assert_one_line_error(result, "the database could not be used: file is not a database")
    assert (tmp_path / "quizapp.db").read_bytes() == garbage


def test_help_with_a_bad_setting_is_the_help_and_one_line_about_the_setting(tmp_path):
    result = run_quizapp(tmp_path, "--help", QUIZAPP_ENV="nonsense")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("Error: QUIZAPP_ENV must be one of development, testing, production, "
                           "not 'nonsense'"), line
    assert result.stdout.startswith("Usage: quizapp")
    assert all(f"  {name} " in result.stdout for name in ("content", "explain", "puzzle", "run"))


def test_help_lists_the_apps_commands_and_no_env_file_or_app_option(tmp_path):
    result = run_quizapp(tmp_path, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert "  db " in result.stdout
    assert "--env-file" not in result.stdout and "python-dotenv" not in result.stdout
    # -A/--app names an app to import; this command always builds quizapp's own.
    assert "--app" not in result.stdout


def test_version_names_quizapps_own_version_first(tmp_path):
    from importlib.metadata import version

    result = run_quizapp(tmp_path, "--version", QUIZAPP_ENV="nonsense")  # needs no app
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"quizapp {version('quizapp')}"
    assert "Python 3." in result.stdout and "Flask " in result.stdout
    assert re.search(r"--version\s+Show the versions of quizapp",
                     run_quizapp(tmp_path, "--help").stdout)


def test_a_sqlite_file_in_a_missing_folder_is_named(tmp_path):
    database = tmp_path / "nope" / "dir" / "q.db"
    result = run_quizapp(tmp_path, "db", "upgrade", "--directory", MIGRATIONS,
                         QUIZAPP_DATABASE_URL=f"sqlite:///{database}")
    assert_one_line_error(result, f"unable to open database file (SQLite file {database}, whose "
                                  f"folder {database.parent} does not exist)")


@pytest.mark.parametrize("how", ["variable", "option"])
def test_a_missing_migrations_folder_is_named_without_alembics_init_advice(tmp_path, how):
    missing = tmp_path / "no-migrations"
    if how == "variable":
        result = run_quizapp(tmp_path, "db", "upgrade", QUIZAPP_MIGRATIONS_PATH=str(missing))
    else:
        result = run_quizapp(tmp_path, "db", "upgrade", "--directory", str(missing))
    source = "QUIZAPP_MIGRATIONS_PATH" if how == "variable" else "--directory"
    assert_one_line_error(result, f"the migrations folder {missing} does not exist (from {source})")
    assert "init" not in result.stderr


def test_db_init_still_creates_a_missing_migrations_folder(tmp_path):
    folder = tmp_path / "new-migrations"
    result = run_quizapp(tmp_path, "db", "init", "--directory", str(folder))
    assert result.returncode == 0, result.stderr
    assert (folder / "env.py").is_file()


def test_loading_into_an_unmigrated_database_says_what_to_run(tmp_path):
    result = run_quizapp(tmp_path, "content", "load")
    assert_one_line_error(result, "has `quizapp db upgrade --directory migrations` run?")


def test_the_traceback_is_there_when_asked_for(tmp_path):
    result = run_quizapp(tmp_path, "db", "upgrade", QUIZAPP_DATABASE_URL="nonsense",
                         QUIZAPP_TRACEBACK="1")
    assert result.returncode == 1
    assert "Traceback" in result.stderr and "ConfigError" in result.stderr


def test_torch_checks_say_torch_is_missing(monkeypatch):
    """Where torch is not installed (the Docker image), the checks refuse instead of reporting
    every puzzle as a mismatch."""
    monkeypatch.setattr(failures, "find_spec", lambda name: None)
    for args in (["explain", "--check", "torch.arange(6)"], ["puzzle", "--verify", "--count", "1"],
                 ["content", "check"]):  # `make run` installs no torch
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == failures.EXIT_NO_TORCH, result.output
        assert "runs real torch, which is not installed here" in result.output
        assert "MISMATCH" not in result.output and "Traceback" not in result.output
    # Without running the samples the cards are still checked.
    checked = CliRunner().invoke(cli, ["content", "check", "--no-run"])
    assert checked.exit_code == 0 and "samples not run (--no-run); 0 problems" in checked.output


def readme_commands() -> list[list[str]]:
    """The quizapp commands in README's shell blocks, without their comments."""
    text = (ROOT / "README.md").read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line.split("  #")[0])
            if words[:1] == [".venv/bin/quizapp"]:
                commands.append(words[1:])
    return commands


@pytest.mark.torch
def test_the_readmes_explain_and_puzzle_examples_run():
    """A newcomer copies these first; the database and bank commands are tested elsewhere,
    and --verify (every family under torch) has its own test."""
    runnable = [c for c in readme_commands()
                if c[0] in ("explain", "puzzle") and "--verify" not in c]
    assert len(runnable) >= 5, runnable
    for command in runnable:
        if command[0] == "puzzle" and "--list" not in command:
            command = [*command, "--answer"]  # without it the puzzle waits for an answer
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 0, (command, result.output)


@pytest.mark.parametrize(("url", "words"), [
    ("sqlite:///{tmp}/q.db", "attempt to write a readonly database (SQLite file {tmp}/q.db)"),
    ("sqlite:///file:{tmp}/q.db?mode=ro&uri=true",
     "attempt to write a readonly database (SQLite file {tmp}/q.db)"),
    ("sqlite://", "the database could not be used: attempt to write a readonly database"),
    ("postgresql+psycopg://quiz:s3cret@db.example/quiz",
     "the database could not be used: attempt to write a readonly database"),
])
def test_a_database_failure_names_the_sqlite_file_and_never_a_password(tmp_path, url, words):
    exc = OperationalError("INSERT", {}, DriverError("attempt to write a readonly database"))
    described = failures.describe_failure(exc, url.format(tmp=tmp_path))
    assert described.endswith(words.format(tmp=tmp_path)), described
    assert "s3cret" not in described and "db.example" not in described


def test_the_failure_line_names_the_database_the_command_used(capsys):
    def command():
        raise OperationalError("SELECT 1", {}, DriverError("unable to open database file"))

    with pytest.raises(SystemExit):
        failures.run_reporting_failures(command, database_url=lambda: "sqlite:////no/such/q.db")
    assert capsys.readouterr().err == ("Error: the database could not be used: unable to open "
                                       "database file (SQLite file /no/such/q.db, whose folder "
                                       "/no/such does not exist)\n")


class DriverError(Exception):
    """Stands in for a DB-API driver's exception."""


@pytest.mark.parametrize(("exc", "fixable", "words"), [
    (OperationalError("SELECT 1", {}, DriverError("unable to open database file")), True,
     "the database could not be used: unable to open database file"),
    (DatabaseError("SELECT 1", {}, DriverError("file is not a database")), True,
     "file is not a database"),
    (ProgrammingError("SELECT 1", {}, DriverError('relation "item" does not exist')), True,
     "has `quizapp db upgrade --directory migrations` run?"),
    (OperationalError("x", {}, DriverError('database "nope" does not exist')), True,
     'database "nope" does not exist'),
    (OperationalError("x", {}, DriverError("")), True, "the database could not be used: "),
    (ModuleNotFoundError("No module named 'MySQLdb'", name="MySQLdb"), True, "MySQLdb"),
    (FileNotFoundError(2, "No such file or directory", "/no/such"), True, "/no/such"),
    # Bugs keep their traceback: a broken constraint, a typo'd import of our own, a bare OSError.
    (IntegrityError("INSERT", {}, DriverError("UNIQUE constraint failed")), False, None),
    (ProgrammingError("SELECT", {}, DriverError("syntax error at or near")), False, None),
    (ModuleNotFoundError("No module named 'quizapp.nope'", name="quizapp.nope"), False, None),
    (OSError("something broke"), False, None),
])
def test_only_failures_a_user_can_fix_lose_their_traceback(exc, fixable, words):
    assert failures.is_fixable(exc) is fixable
    if fixable:
        described = failures.describe_failure(exc)
        assert words in described
        if "does not exist" in words:
            assert "db upgrade" not in described  # a missing database is not a missing table

    def command():
        raise exc

    if fixable:
        with pytest.raises(SystemExit) as ended:
            failures.run_reporting_failures(command)
        assert ended.value.code == 1
    else:
        with pytest.raises(type(exc)):
            failures.run_reporting_failures(command)
