"""SQLite backups: a consistent copy while the server writes, and a checked restore.

`quizapp db backup PATH` copies the live database with SQLite's online backup API in one step:
it reads one snapshot (WAL lets writers go on meanwhile), so the copy holds every commit made
before it began and none half-made after. The copy is written beside PATH under a private name
(0600), checked, switched to a single file (no -wal) and only then renamed to PATH.

`quizapp db restore PATH` checks the file first (SQLite's integrity and foreign-key checks, a
quizapp schema revision these migrations know; a newer one is refused), keeps the current
database beside it (``<database>.before-restore-<time>``), then copies the file into the live
database with the same backup API (under SQLite's write lock, so no connection sees half of
it) and upgrades it to the migrations' head. PostgreSQL has pg_dump and pg_restore (README).
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util import CommandError

from quizapp.private_files import FILE_MODE


class BackupError(RuntimeError):
    """A backup or restore that cannot be done, said in one line for the operator."""


@dataclass(frozen=True)
class DatabaseSummary:
    """What a checked database file holds: its schema revision and how many reviews."""

    revision: str
    reviews: int
    users: int

    def describe(self) -> str:
        return (f"schema revision {self.revision}, {self.users} accounts, "
                f"{self.reviews} reviews")


def connect(path: Path, *, read_only: bool = False, busy_timeout_ms: int = 10_000,
            ) -> sqlite3.Connection:
    target = f"file:{path}?mode=ro" if read_only else f"file:{path}?mode=rw"
    conn = sqlite3.connect(target, uri=True, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    return conn


def validate_database_file(path: Path, migrations: str) -> DatabaseSummary:
    """Raise BackupError unless ``path`` is a sound quizapp database of a known revision."""
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    try:
        with closing(connect(path, read_only=True)) as conn:
            try:
                problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            except sqlite3.DatabaseError as exc:  # too damaged to be checked at all
                if exc.sqlite_errorname == "SQLITE_NOTADB":
                    raise
                problems = [str(exc)]
            if problems != ["ok"]:
                raise BackupError(f"{path} fails SQLite's integrity check: "
                                  f"{'; '.join(problems[:3])}")
            if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise BackupError(f"{path} has rows whose references are missing "
                                  "(PRAGMA foreign_key_check)")
            try:
                revisions = [row[0] for row in conn.execute(
                    "SELECT version_num FROM alembic_version")]
            except sqlite3.OperationalError:
                raise BackupError(f"{path} is not a quizapp database (no alembic_version "
                                  "table)") from None
            summary_counts = (conn.execute("SELECT count(*) FROM review").fetchone()[0],
                              conn.execute('SELECT count(*) FROM "user"').fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} cannot be read as an SQLite database: {exc}") from None
    if len(revisions) != 1:
        raise BackupError(f"{path} names {len(revisions)} schema revisions, not one")
    revision = revisions[0]
    check_known_revision(path, revision, migrations)
    return DatabaseSummary(revision, *summary_counts)


def check_known_revision(path: Path, revision: str, migrations: str) -> None:
    config = Config()
    config.set_main_option("script_location", migrations)
    script = ScriptDirectory.from_config(config)
    try:
        known = script.get_revision(revision)
    except CommandError:
        known = None
    if known is None:
        raise BackupError(
            f"{path} is at schema revision {revision}, which these migrations do not know: it "
            f"was made by a newer quizapp (or another application). Restore it with the "
            f"quizapp that made it, or upgrade this one first")


def backup(database: Path, target: Path, migrations: str, busy_timeout_ms: int = 10_000,
           *, check: bool = True) -> DatabaseSummary | None:
    """Copy the live ``database`` to ``target`` (which must not exist), checked (``check``:
    the copy must pass validate_database_file; None is returned without it)."""
    if target.exists():
        raise BackupError(f"{target} exists; name a new file (a backup never overwrites one)")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder")
    if not database.is_file():
        raise BackupError(f"the database {database} does not exist")
    draft = target.with_name(f".{target.name}.partial-{os.getpid()}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    os.close(fd)
    try:
        with closing(connect(database, busy_timeout_ms=busy_timeout_ms)) as source, \
                closing(connect(draft)) as copy:
            source.backup(copy)  # pages=-1: the whole database from one read snapshot
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        summary = validate_database_file(draft, migrations) if check else None
        os.link(draft, target)  # fails if target appeared meanwhile; never replaces it
    except FileExistsError:
        raise BackupError(f"{target} appeared while the backup ran; nothing was replaced") \
            from None
    finally:
        for leftover in (draft, Path(f"{draft}-journal")):
            leftover.unlink(missing_ok=True)
    return summary


def restore(database: Path, source: Path, migrations: str, now: datetime,
            busy_timeout_ms: int = 10_000) -> tuple[DatabaseSummary, Path | None]:
    """Check ``source``, keep the current database aside, and copy ``source`` into it. Returns
    what was restored and where the previous database was kept (None: there was none). The
    caller upgrades the schema to head afterwards."""
    summary = validate_database_file(source, migrations)
    kept = None
    if database.exists():
        kept = database.with_name(f"{database.name}.before-restore-{now:%Y%m%dT%H%M%S}")
        # Kept as it is, sound or not: a damaged database is what a restore is often for.
        backup(database, kept, migrations, busy_timeout_ms, check=False)
    else:
        fd = os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        os.close(fd)
    with closing(connect(source, read_only=True)) as backup_copy, \
            closing(connect(database, busy_timeout_ms=busy_timeout_ms)) as live:
        backup_copy.backup(live)
        live.execute("PRAGMA journal_mode=WAL")
    return summary, kept
