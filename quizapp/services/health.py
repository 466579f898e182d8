"""Health check use case: does the database answer, with the schema this code expects?"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

from alembic.script import ScriptDirectory
from sqlalchemy import column, func, select, table, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from quizapp.models import Item

# PostgreSQL: a probe gives up long before the app's own statement timeout (Docker's
# HEALTHCHECK waits 5 s), so a stuck database cannot hold threads through /healthz.
HEALTH_STATEMENT_TIMEOUT_MS = 2000
_VERSION_TABLE = table("alembic_version", column("version_num"))


@dataclass(frozen=True)
class MigrationScripts:
    """The migrations folder's single head and every revision in it; head None with a
    problem when the folder could not be read."""

    head: str | None
    revisions: frozenset[str]
    problem: str = ""


@dataclass(frozen=True)
class HealthReport:
    """``detail`` goes in the response (short); ``cause`` is for the log (what failed)."""

    ok: bool
    detail: str
    cause: str = ""


def read_migration_scripts(directory: str) -> MigrationScripts:
    """The head of the migrations in ``directory``; cached per folder while its versions/
    folder is unchanged (tests build many apps, and loading the scripts imports each one)."""
    path = os.path.abspath(directory)
    try:
        stamp = os.stat(os.path.join(path, "versions")).st_mtime_ns
    except OSError:
        stamp = None
    return _read_migration_scripts(path, stamp)


@lru_cache(maxsize=8)
def _read_migration_scripts(path: str, _stamp: int | None) -> MigrationScripts:
    try:
        script = ScriptDirectory(path)
        heads = script.get_heads()
        revisions = frozenset(revision.revision for revision in script.walk_revisions())
    except Exception as exc:  # a broken folder makes /healthz fail, not the app's start
        return MigrationScripts(None, frozenset(), f"cannot read the migrations in {path}: "
                                f"{first_line(exc)} (set QUIZAPP_MIGRATIONS_PATH)")
    if len(heads) != 1:
        return MigrationScripts(None, revisions, f"the migrations in {path} have "
                                f"{len(heads)} heads, not one")
    return MigrationScripts(heads[0], revisions)


def first_line(exc: BaseException) -> str:
    """The first line of a failure's message, and of its DB-API error where it wraps one
    (the SQL and parameters that follow stay out of the log)."""
    orig = getattr(exc, "orig", None)
    source = orig if orig is not None else exc
    lines = str(source).strip().splitlines()
    message = lines[0] if lines else ""
    name = type(exc).__name__ + (f" ({type(orig).__name__})" if orig is not None else "")
    return f"{name}: {message}" if message else name


def check_database(session: Session, scripts: MigrationScripts) -> HealthReport:
    """A real query against a migrated table, so a missing schema is unhealthy, and the
    schema's revision against the migrations' head, so a schema left behind is too."""
    if scripts.head is None:
        return HealthReport(False, "migrations unreadable", scripts.problem)
    try:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text(f"SET LOCAL statement_timeout = {HEALTH_STATEMENT_TIMEOUT_MS}"))
        # The item table alone: the Item entity would join card and skill to count rows.
        count, revision = session.execute(select(
            select(func.count()).select_from(Item.__table__).scalar_subquery(),
            select(_VERSION_TABLE.c.version_num).limit(1).scalar_subquery(),
        )).one()
    except SQLAlchemyError as exc:
        session.rollback()
        return HealthReport(False, type(exc).__name__, first_line(exc))
    if revision != scripts.head:
        if revision is None:
            detail = (f"schema has no alembic revision, migrations at {scripts.head}: "
                      "run quizapp db upgrade")
        elif revision in scripts.revisions:
            detail = (f"schema at {revision}, migrations at {scripts.head}: "
                      "run quizapp db upgrade")
        else:
            detail = (f"schema at {revision}, unknown to these migrations "
                      f"(at {scripts.head}): is this an older version of the app?")
        return HealthReport(False, detail, detail)
    return HealthReport(True, f"{count} items")
