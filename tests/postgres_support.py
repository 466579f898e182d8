"""A throwaway PostgreSQL server for the tests: its own cluster, port and databases.

The web tests run once on SQLite and once on PostgreSQL (QUIZAPP_DATABASE_URL's other
backend). Each pytest process starts its own cluster in a temporary folder with Debian's
server binaries (found under /usr/lib/postgresql, or QUIZAPP_PG_BIN), migrates one template
database, and gives every test a fresh copy of it (CREATE DATABASE ... TEMPLATE). Where no
server binaries exist the PostgreSQL runs are skipped with a message, unless
QUIZAPP_REQUIRE_POSTGRES=1 (set by .ci/run), which turns the skip into a failure.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

USER = "quizapp"
TEMPLATE = "quizapp_template"
PORT = 5432  # names the socket file only: the server listens on no TCP port at all
FOLDER_PREFIX = "quizapp-pg-"
OWNER_FILE = "owner.pid"
# A test server: nothing here needs to survive a crash, so skip every flush to disk. No TCP:
# clients reach it through a Unix socket inside the cluster's own 0700 folder, so no other
# local account can connect to this password-less ("trust") superuser.
SERVER_SETTINGS = ("-c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=200")


def _version_key(initdb: str) -> tuple[int, ...]:
    """(15,) for /usr/lib/postgresql/15/bin/initdb, (9, 6) for 9.6; () if unreadable."""
    parts = Path(initdb).parts[-3].split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else ()


def find_server_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: QUIZAPP_PG_BIN, else the newest Debian install."""
    if os.environ.get("QUIZAPP_PG_BIN"):
        folder = Path(os.environ["QUIZAPP_PG_BIN"])
        return folder if (folder / "initdb").exists() else None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
    return Path(found[-1]).parent if found else None


def missing_server_message() -> str:
    return ("PostgreSQL server binaries not found (looked in QUIZAPP_PG_BIN and "
            "/usr/lib/postgresql/*/bin): install Debian's postgresql package to run the web "
            "tests on PostgreSQL too")


def _server_account() -> pwd.struct_passwd | None:
    """PostgreSQL refuses to run as root: a root test run hands the cluster to Debian's
    ``postgres`` system account. None when not running as root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("tests run as root, but there is no 'postgres' account to run the "
                           "PostgreSQL test server as (PostgreSQL refuses to run as root)") from None


def _run(binaries: Path, program: str, *args: str) -> None:
    command = [str(binaries / program), *args]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{program} failed: {result.stdout}{result.stderr}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_abandoned_clusters(binaries: Path, parent: Path) -> None:
    """Stop and delete clusters whose test process died without cleaning up (killed by a
    timeout or the OOM killer: pg_ctl had detached the server, so it kept running)."""
    for folder in parent.glob(f"{FOLDER_PREFIX}*"):
        try:
            owner = int((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue  # not ours, or still being set up
        if _pid_alive(owner):
            continue
        if _postmaster_alive(folder):
            try:
                _run(binaries, "pg_ctl", "-D", str(folder / "data"), "-m", "immediate", "-w",
                     "stop")
            except RuntimeError:
                continue  # leave it for a person rather than delete a live server's data
        shutil.rmtree(folder, ignore_errors=True)


def _postmaster_alive(folder: Path) -> bool:
    """Whether the server whose pid postmaster.pid names (its first line) still runs."""
    try:
        pid = int((folder / "data" / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return False
    return _pid_alive(pid)


@dataclass
class PostgresServer:
    """One running cluster; ``new_database`` hands out migrated copies of the template."""

    binaries: Path
    folder: Path
    _names: itertools.count = field(default_factory=itertools.count)

    @classmethod
    def start(cls, binaries: Path) -> PostgresServer:
        account = _server_account()
        # As root, TMPDIR may sit under a folder the postgres account cannot enter.
        parent = Path("/tmp" if account else tempfile.gettempdir())
        remove_abandoned_clusters(binaries, parent)
        folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=parent))  # mode 0700
        (folder / OWNER_FILE).write_text(str(os.getpid()))
        server = cls(binaries, folder)
        try:
            if account:
                os.chown(folder, account.pw_uid, account.pw_gid)
            _run(binaries, "initdb", "-D", str(folder / "data"), "-A", "trust", "-U", USER,
                 "-E", "UTF8", "--no-sync", "--locale=C")
            _run(binaries, "pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "server.log"),
                 "-w", "-o", f"-k {folder} -p {PORT} {SERVER_SETTINGS}", "start")
        except BaseException:
            server.stop()
            raise
        return server

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{USER}@/{database}?host={self.folder}&port={PORT}"

    def execute(self, sql: str) -> None:
        """One statement on the maintenance database (CREATE/DROP DATABASE need autocommit)."""
        with psycopg.connect(host=str(self.folder), port=PORT, user=USER, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self, template: str | None = TEMPLATE) -> str:
        name = f"test_{next(self._names)}"
        self.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return name

    def drop_database(self, name: str) -> None:
        self.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server (if it runs) and delete its folder; a failed stop keeps the folder,
        so a server is never left running without its data directory."""
        if _postmaster_alive(self.folder):
            _run(self.binaries, "pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate",
                 "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
