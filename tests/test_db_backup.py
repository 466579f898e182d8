"""`quizapp db backup` and `quizapp db restore` on SQLite, run as commands; PostgreSQL's
pg_dump and pg_restore as the README gives them, against the throwaway cluster."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[1]
QUIZAPP = str(Path(sys.executable).parent / "quizapp")
INSERT = ("INSERT INTO login_attempt (username, address, attempted_at, succeeded) "
          "VALUES (?, '192.0.2.1', '2025-03-03 09:00:00', 0)")


def quizapp(instance: Path, *args: str, database_url: str | None = None,
            ) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "QUIZAPP_ENV": "testing", "HOME": str(instance),
           "QUIZAPP_INSTANCE_PATH": str(instance),
           "QUIZAPP_MIGRATIONS_PATH": str(ROOT / "migrations")}
    if database_url:
        env["QUIZAPP_DATABASE_URL"] = database_url
    return subprocess.run([QUIZAPP, *args], env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def instance(tmp_path) -> Path:
    folder = tmp_path / "instance"
    result = quizapp(folder, "db", "upgrade")
    assert result.returncode == 0, result.stderr
    return folder


def usernames(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT username FROM login_attempt ORDER BY id")]


def test_a_backup_under_write_load_holds_every_earlier_commit_and_restores_whole(instance, tmp_path):
    live = instance / "quizapp.db"
    with sqlite3.connect(live) as conn:  # ~15 MB, so the copy takes a while
        conn.executemany(INSERT, ((f"old{n:06d}" + "x" * 100,) for n in range(100_000)))
    acknowledged: list[str] = []
    stop = threading.Event()

    def write() -> None:  # as the server does: one commit per row, WAL, FULL sync
        conn = sqlite3.connect(live, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        # No checkpoint meanwhile (as when readers hold old snapshots): the new rows live only
        # in the -wal, which a copy of the database file alone would miss.
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=10000")
        n = 0
        while not stop.is_set():
            conn.execute(INSERT, (f"new{n:06d}",))
            acknowledged.append(f"new{n:06d}")
            n += 1
        conn.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while len(acknowledged) < 20:
            time.sleep(0.01)
        before = len(acknowledged)
        result = quizapp(instance, "db", "backup", str(tmp_path / "copy.db"))
        after = len(acknowledged)
    finally:
        stop.set()
        writer.join()
    assert result.returncode == 0, result.stderr
    assert "Backed up to" in result.stdout and "schema revision" in result.stdout
    assert after > before  # the server kept writing while the backup ran
    copy = tmp_path / "copy.db"
    names = usernames(copy)
    new = [name for name in names if name.startswith("new")]
    # One snapshot: every commit acknowledged before the backup began, in order, without a gap.
    assert len(names) - len(new) == 100_000
    assert new == acknowledged[:len(new)] and before <= len(new) <= after
    assert oct(os.stat(copy).st_mode & 0o777) == "0o600"
    assert not Path(f"{copy}-wal").exists()  # a single file

    with sqlite3.connect(live) as conn:  # the database goes on changing, then is lost
        conn.execute("DELETE FROM login_attempt")
    result = quizapp(instance, "db", "restore", str(copy))
    assert result.returncode == 0, result.stderr
    assert usernames(live) == names
    with sqlite3.connect(live) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    kept = [path for path in instance.iterdir() if ".before-restore-" in path.name]
    assert len(kept) == 1 and usernames(kept[0]) == []  # what it replaced, kept
    assert f"kept at {kept[0]}" in result.stdout


def refuse(instance: Path, backup: Path, message: str) -> None:
    with sqlite3.connect(instance / "quizapp.db") as conn:
        conn.execute(INSERT, ("still here",))
    before = usernames(instance / "quizapp.db")
    result = quizapp(instance, "db", "restore", str(backup))
    assert result.returncode == 1 and message in result.stderr, result.stderr
    assert usernames(instance / "quizapp.db") == before  # untouched
    assert not [path for path in instance.iterdir() if ".before-restore-" in path.name]


def test_restore_refuses_a_backup_from_a_newer_schema(instance, tmp_path):
    backup = tmp_path / "newer.db"
    assert quizapp(instance, "db", "backup", str(backup)).returncode == 0
    with sqlite3.connect(backup) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfeedbeef'")
    refuse(instance, backup, f"Error: {backup} is at schema revision f00dfeedbeef, which these "
                             "migrations do not know: it was made by a newer quizapp")


def test_restore_refuses_a_damaged_file(instance, tmp_path):
    backup = tmp_path / "damaged.db"
    assert quizapp(instance, "db", "backup", str(backup)).returncode == 0
    data = bytearray(backup.read_bytes())
    data[4096 * 2:4096 * 3] = b"\xa5" * 4096  # one page of a table overwritten
    backup.write_bytes(bytes(data))
    refuse(instance, backup, "fails SQLite's integrity check")


def test_restore_refuses_what_is_not_a_quizapp_database(instance, tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    refuse(instance, other, "is not a quizapp database")
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all " * 300)
    refuse(instance, text, "cannot be read as an SQLite database")


def test_a_backup_never_overwrites_a_file(instance, tmp_path):
    target = tmp_path / "exists.db"
    target.write_text("precious")
    result = quizapp(instance, "db", "backup", str(target))
    assert result.returncode == 1 and "exists; name a new file" in result.stderr
    assert target.read_text() == "precious"


def test_postgresql_is_pointed_to_pg_dump(tmp_path):
    result = quizapp(tmp_path, "db", "backup", str(tmp_path / "b.db"),
                     database_url="postgresql+psycopg://nobody@/nowhere?host=/nonexistent")
    assert result.returncode == 1 and "use pg_dump and pg_restore" in result.stderr


def libpq_url(server, name: str) -> str:
    """The README's form: a libpq URL (no +psycopg), here to the test cluster's socket."""
    return f"postgresql://quizapp@/{name}?host={server.folder}&port=5432"


def test_pg_dump_and_pg_restore_as_the_readme_gives_them(postgres_server, tmp_path):
    readme = (ROOT / "README.md").read_text()
    dump_line = 'pg_dump --format=custom --file=quizapp.dump "$DATABASE"'
    restore_line = ('pg_restore --clean --if-exists --no-owner --single-transaction '
                    '--dbname="$DATABASE" quizapp.dump')
    assert dump_line in readme and restore_line in readme
    name = postgres_server.new_database()
    url = libpq_url(postgres_server, name)
    with psycopg.connect(url) as conn:
        for n in range(500):
            conn.execute("INSERT INTO login_attempt (username, address, attempted_at, succeeded)"
                         " VALUES (%s, '192.0.2.1', now(), false)", (f"u{n}",))
    bin_dir = postgres_server.binaries
    shell = {"PATH": f"{bin_dir}:/usr/bin:/bin", "DATABASE": url}

    def run(line: str) -> None:
        result = subprocess.run(["sh", "-c", line], cwd=tmp_path, env=shell, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, result.stderr

    def contents(database_url: str) -> tuple[list, list]:
        with psycopg.connect(database_url) as conn:
            return (conn.execute("SELECT username FROM login_attempt ORDER BY id").fetchall(),
                    conn.execute("SELECT version_num FROM alembic_version").fetchall())

    expected = contents(url)
    run(dump_line)
    with psycopg.connect(url) as conn:  # the data is lost or damaged, then restored in place
        conn.execute("DELETE FROM login_attempt WHERE username LIKE 'u1%'")
    run(restore_line)
    assert contents(url) == expected
    empty = postgres_server.new_database(template=None)  # onto a new server's empty database
    shell["DATABASE"] = libpq_url(postgres_server, empty)
    run(restore_line)
    assert contents(shell["DATABASE"]) == expected
    for database in (name, empty):
        postgres_server.drop_database(database)
    shutil.rmtree(tmp_path, ignore_errors=True)
