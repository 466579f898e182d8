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
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

USER = "quizapp"
TEMPLATE = "quizapp_template"
# A test server: nothing here needs to survive a crash, so skip every flush to disk.
SERVER_SETTINGS = ("-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=200")


def find_server_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: QUIZAPP_PG_BIN, else the newest Debian install."""
    if os.environ.get("QUIZAPP_PG_BIN"):
        folder = Path(os.environ["QUIZAPP_PG_BIN"])
        return folder if (folder / "initdb").exists() else None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parts[-3]))
    return Path(found[-1]).parent if found else None


def missing_server_message() -> str:
    return ("PostgreSQL server binaries not found (looked in QUIZAPP_PG_BIN and "
            "/usr/lib/postgresql/*/bin): install Debian's postgresql package to run the web "
            "tests on PostgreSQL too")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class PostgresServer:
    """One running cluster; ``new_database`` hands out migrated copies of the template."""

    binaries: Path
    folder: Path
    port: int
    _names: itertools.count = field(default_factory=itertools.count)

    @classmethod
    def start(cls, binaries: Path) -> PostgresServer:
        folder = Path(tempfile.mkdtemp(prefix="quizapp-pg-"))
        server = cls(binaries, folder, _free_port())
        # PostgreSQL refuses to run as root: when tests run as root, the cluster belongs to the
        # postgres system user that Debian's package creates.
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(folder, account.pw_uid, account.pw_gid)
        server._run("initdb", "-D", str(folder / "data"), "-A", "trust", "-U", USER,
                    "-E", "UTF8", "--no-sync", "--locale=C")
        server._run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "server.log"),
                    "-w", "-o", f"-k {folder} -p {server.port} {SERVER_SETTINGS}", "start")
        return server

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{program} failed: {result.stdout}{result.stderr}")

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str) -> None:
        """One statement on the maintenance database (CREATE/DROP DATABASE need autocommit)."""
        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self, template: str | None = TEMPLATE) -> str:
        name = f"test_{next(self._names)}"
        self.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return name

    def drop_database(self, name: str) -> None:
        self.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
