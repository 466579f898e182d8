"""Flask extensions, created unbound; ``create_app`` attaches them with ``init_app``."""

from __future__ import annotations

import sqlite3

from flask_limiter import Limiter
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import Engine, event

from quizapp.models.base import Base

# Sessions live for one request; keeping loaded objects after commit saves reloading the
# user and the rated item when the response is built.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
# render_as_batch: SQLite cannot ALTER most things in place; batch mode copies the table.
migrate = Migrate(render_as_batch=True, compare_type=True)
login_manager = LoginManager()
SYNCHRONOUS_LEVELS = ("NORMAL", "FULL", "EXTRA")
csrf = CSRFProtect()
# Rates on the open routes (web/http/rate_limits.py gives the key, the headers and the 429).
# The key function is replaced there; this one is never used.
limiter = Limiter(key_func=lambda: "", headers_enabled=False)


def configure_sqlite(engine: Engine, busy_timeout_ms: int, synchronous: str = "FULL") -> None:
    """On every new SQLite connection: WAL journal, foreign keys enforced, a busy timeout, and
    the commit durability asked for (QUIZAPP_SQLITE_SYNCHRONOUS)."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def set_sqlite_pragmas(dbapi_connection, _record) -> None:  # noqa: ANN001 (DB-API object)
        apply_sqlite_pragmas(dbapi_connection, engine.url.database or "", busy_timeout_ms,
                             synchronous)


def apply_sqlite_pragmas(dbapi_connection: sqlite3.Connection, database: str,
                         busy_timeout_ms: int, synchronous: str = "FULL") -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers proceed while one writer commits; in-memory databases keep "memory".
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as exc:
        # Switching the journal writes the file. A read-only database (file mode, a read-only
        # mount, ?mode=ro) keeps its journal: reads work, and a write fails with SQLite's own
        # "attempt to write a readonly database".
        if exc.sqlite_errorname == "SQLITE_READONLY_DIRECTORY":
            # Nothing can be read either: say why instead of failing every query the same way.
            raise sqlite3.OperationalError(
                f"{database} is a WAL database in a read-only folder: SQLite must create its "
                "-shm file there to read it. Make the folder writable (or, while nothing "
                "writes to it, open sqlite:///file:PATH?immutable=1&uri=true)") from exc
        if exc.sqlite_errorname != "SQLITE_READONLY":
            raise
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    # FULL: a commit is on disk (the WAL synced) before it is acknowledged, so a power cut
    # loses no acknowledged review; NORMAL syncs only at checkpoints.
    if synchronous not in SYNCHRONOUS_LEVELS:
        raise ValueError(f"synchronous must be one of {SYNCHRONOUS_LEVELS}, not {synchronous!r}")
    cursor.execute(f"PRAGMA synchronous={synchronous}")
    cursor.close()
