"""Private data files: the instance folder 0700, the SQLite files 0600, and a start-up check.

The database holds password hashes and every review; the instance folder holds the secret key
that signs sessions. None of it is for other local accounts. Every entry point sets the umask
to PRIVATE_UMASK (the `quizapp` command, gunicorn's config, the Docker start script), and
create_app makes the folder and an SQLite database file private itself, whatever the umask:
SQLite gives its -wal and -shm files the database file's own mode, so they are private too.
Files made before this (0644 under a 022 umask) are left as they are and named in a warning.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from quizapp.config import SECRET_KEY_FILENAME

PRIVATE_UMASK = 0o077
FOLDER_MODE = 0o700
FILE_MODE = 0o600
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def canonicalize_sqlite_path(database_url: str) -> Path | None:
    """The file of an SQLite URL SQLite opens by name; None for another database, memory, or
    a file: URI (its own flags, such as mode=ro or immutable=1, decide)."""
    try:
        url = make_url(database_url)
    except ArgumentError:
        return None
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    if url.database.startswith("file:") or url.query.get("uri") or url.query.get("mode"):
        return None
    return Path(url.database)


def prepare_instance_folder(path: str) -> None:
    """Create the instance folder 0700 (an existing one keeps its mode: check_private_files
    names it if others can enter it)."""
    if os.path.isdir(path):
        return
    os.makedirs(path, FOLDER_MODE, exist_ok=True)
    os.chmod(path, FOLDER_MODE)  # makedirs's mode is masked by the umask, never widened


def create_private_database(database_url: str) -> None:
    """Create an SQLite database file 0600 before SQLite does (with the umask's mode): an empty
    file is an empty database. Nothing happens where it exists or cannot be made here (SQLite
    then reports the problem on first use)."""
    path = canonicalize_sqlite_path(database_url)
    if path is None or not path.parent.is_dir():
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except OSError:
        return
    os.fchmod(fd, FILE_MODE)
    os.close(fd)


@dataclass(frozen=True)
class ExposedFile:
    path: Path
    mode: int
    is_folder: bool

    def describe(self) -> str:
        wanted = FOLDER_MODE if self.is_folder else FILE_MODE
        return (f"{self.path} is open to other local accounts (mode {self.mode:04o}); "
                f"chmod {wanted:o} {self.path}")


def find_exposed_files(instance_path: str, database_url: str) -> list[ExposedFile]:
    """The instance folder, the secret key and the SQLite files that other accounts can read,
    write or (a folder) enter."""
    folder = Path(instance_path)
    candidates = [(folder, True), (folder / SECRET_KEY_FILENAME, False)]
    database = canonicalize_sqlite_path(database_url)
    if database is not None:
        candidates += [(database, False)]
        candidates += [(Path(f"{database}{suffix}"), False) for suffix in SQLITE_SIDE_FILES]
    exposed = []
    for path, is_folder in candidates:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except OSError:
            continue
        if mode & 0o077:
            exposed.append(ExposedFile(path, mode, is_folder))
    return exposed


def check_private_files(logger: logging.Logger, instance_path: str, database_url: str) -> None:
    """Log a warning for each exposed file (start-up)."""
    for exposed in find_exposed_files(instance_path, database_url):
        logger.warning("private data: %s", exposed.describe())
