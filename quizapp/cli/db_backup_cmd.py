"""`quizapp db backup PATH` and `quizapp db restore PATH` (SQLite; quizapp.sqlite_backup)."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade

from quizapp.extensions import db
from quizapp.private_files import canonicalize_sqlite_path
from quizapp.sqlite_backup import BackupError, backup, restore

POSTGRES_ADVICE = ("this database is not an SQLite file: for PostgreSQL use pg_dump and "
                   "pg_restore (README, \"Backups\")")


def configured_sqlite_file() -> Path:
    path = canonicalize_sqlite_path(current_app.config["SQLALCHEMY_DATABASE_URI"])
    if path is None:
        raise click.ClickException(POSTGRES_ADVICE)
    return path


def migrations_folder() -> str:
    return current_app.extensions["migrate"].directory


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Copy the database to PATH, consistent while the server writes (a new file, 0600)."""
    try:
        summary = backup(configured_sqlite_file(), path, migrations_folder(),
                         current_app.config["SQLITE_BUSY_TIMEOUT_MS"])
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Backed up to {path}: {summary.describe()}")


@click.command("restore")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def restore_command(path: Path) -> None:
    """Replace the database with the backup at PATH (checked first; the current one is kept
    beside it), then upgrade it to the migrations' head."""
    database = configured_sqlite_file()
    try:
        summary, kept = restore(database, path, migrations_folder(),
                                current_app.config["CLOCK"](),
                                current_app.config["SQLITE_BUSY_TIMEOUT_MS"])
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    if kept is not None:
        click.echo(f"The database before the restore is kept at {kept}")
    db.engine.dispose()
    upgrade(directory=migrations_folder())
    click.echo(f"Restored {path} into {database}: {summary.describe()}; schema upgraded to head")
