"""One-line errors for failures a user can fix: configuration, the database, files, torch."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from importlib.util import find_spec

import click
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    DBAPIError,
    InterfaceError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
)

from quizapp.config import ConfigError

# Failures the machine or the settings cause, not a bug: the database cannot be reached or read,
# a driver or package is missing, a named file cannot be used. These get one line and exit
# status 1; a bug (an IntegrityError, a typo'd import inside quizapp) keeps its traceback.
TRACEBACK_VARIABLE = "QUIZAPP_TRACEBACK"
EXIT_NO_TORCH = 3  # a torch cross-check was asked for where torch is not installed
# An unmigrated database, as SQLite and PostgreSQL word it.
_UNMIGRATED = re.compile(r"no such table|relation \S+ does not exist")


def is_fixable(exc: BaseException) -> bool:
    if isinstance(exc, ConfigError | NoSuchModuleError | ArgumentError):
        return True
    if isinstance(exc, OperationalError | InterfaceError) or type(exc) is DatabaseError:
        return True  # cannot connect, not a database, read-only, locked, no such table
    if isinstance(exc, ProgrammingError):
        return bool(_UNMIGRATED.search(str(exc.orig)))  # PostgreSQL's missing table
    if isinstance(exc, ModuleNotFoundError):
        return not (exc.name or "quizapp").startswith("quizapp")
    return isinstance(exc, OSError) and exc.filename is not None


def locate_sqlite_file(database_url: str | None) -> str | None:
    """Where a SQLite URL keeps its file, and whether that file's folder is missing, e.g.
    "SQLite file /data/q.db"; None for other databases (whose URL may hold a password)."""
    try:
        url = make_url(database_url) if database_url else None
    except ArgumentError:
        return None
    if url is None or url.get_backend_name() != "sqlite":
        return None
    name = url.database or ""
    if url.query.get("uri") in ("true", "1"):
        name = name.removeprefix("file:")
    if name in ("", ":memory:") or url.query.get("mode") == "memory":
        return None
    path = os.path.abspath(name)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return f"SQLite file {path}, whose folder {folder} does not exist"
    return f"SQLite file {path}"


def describe_failure(exc: BaseException, database_url: str | None = None) -> str:
    """The one line for a fixable failure; ``database_url`` (the app's, when it was loaded)
    lets a SQLite failure name its file."""
    if isinstance(exc, DBAPIError):
        lines = str(exc.orig if exc.orig is not None else exc).strip().splitlines()
        detail = lines[0] if lines else type(exc.orig or exc).__name__
        notes = [locate_sqlite_file(database_url)]
        if _UNMIGRATED.search(detail):
            notes.append("has `quizapp db upgrade --directory migrations` run?")
        said = "; ".join(note for note in notes if note)
        return f"the database could not be used: {detail}{f' ({said})' if said else ''}"
    if isinstance(exc, NoSuchModuleError):
        return f"QUIZAPP_DATABASE_URL names a database this install has no driver for ({exc})"
    if isinstance(exc, ModuleNotFoundError):
        return f"a module is missing: {exc.name} (is the package that provides it installed?)"
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.strerror or exc}: {exc.filename}"
    return str(exc)


def run_reporting_failures(command: Callable[[], object],
                           database_url: Callable[[], str | None] = lambda: None) -> None:
    """Run the command line; a fixable failure prints ``Error: ...`` instead of a traceback
    (QUIZAPP_TRACEBACK=1 keeps the traceback, for finding where it happened).
    ``database_url`` gives the URL of the database the command used, if it got that far."""
    try:
        command()
    except (ConfigError, DBAPIError, NoSuchModuleError, ArgumentError, OSError,
            ModuleNotFoundError) as exc:
        if os.environ.get(TRACEBACK_VARIABLE) or not is_fixable(exc):
            raise
        click.echo(f"Error: {describe_failure(exc, database_url())}", err=True)
        sys.exit(1)


def require_torch(what: str) -> None:
    """Refuse, in one line, a torch cross-check where torch is not installed (the Docker image
    and a plain install leave it out: only the `torch` extra brings it)."""
    if find_spec("torch") is None:
        error = click.ClickException(
            f"{what} runs real torch, which is not installed here (make run leaves it out): in "
            f"a checkout, `make install`, or `.venv/bin/pip install -c constraints.txt -e "
            f"'.[torch]'`")
        error.exit_code = EXIT_NO_TORCH
        raise error
