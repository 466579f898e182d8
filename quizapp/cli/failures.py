"""One-line errors for failures a user can fix: configuration, the database, files, torch."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from importlib.util import find_spec

import click
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from quizapp.config import ConfigError

# What a command can hit because of the machine or the settings, not because of a bug: these
# get one line and exit status 1. Anything else keeps its traceback.
FIXABLE = (ConfigError, DBAPIError, NoSuchModuleError, ArgumentError, OSError,
           ModuleNotFoundError)
TRACEBACK_VARIABLE = "QUIZAPP_TRACEBACK"
_UNMIGRATED = ("no such table", "does not exist")


def describe_failure(exc: BaseException) -> str:
    if isinstance(exc, DBAPIError):
        detail = str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]
        hint = (" (has `quizapp db upgrade --directory migrations` run?)"
                if any(marker in detail for marker in _UNMIGRATED) else "")
        return f"the database could not be used: {detail}{hint}"
    if isinstance(exc, NoSuchModuleError):
        return f"QUIZAPP_DATABASE_URL names a database this install has no driver for ({exc})"
    if isinstance(exc, ModuleNotFoundError):
        return f"a module is missing: {exc.name} (is the package that provides it installed?)"
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.strerror or exc}: {exc.filename}"
    return str(exc)


def run_reporting_failures(command: Callable[[], object]) -> None:
    """Run the command line; a fixable failure prints ``Error: ...`` instead of a traceback
    (QUIZAPP_TRACEBACK=1 keeps the traceback, for finding where it happened)."""
    try:
        command()
    except FIXABLE as exc:
        if os.environ.get(TRACEBACK_VARIABLE):
            raise
        click.echo(f"Error: {describe_failure(exc)}", err=True)
        sys.exit(1)


def require_torch(what: str) -> None:
    """Refuse, in one line, a torch cross-check where torch is not installed (the Docker image
    and a plain install leave it out: only the `torch` extra brings it)."""
    if find_spec("torch") is None:
        raise click.ClickException(
            f"{what} runs real torch, which is not installed here: pip install -e '.[torch]'")
