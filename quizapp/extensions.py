"""Flask extensions, created unbound; ``create_app`` attaches them with ``init_app``."""

from __future__ import annotations

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
csrf = CSRFProtect()


def configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """On every new SQLite connection: WAL journal, foreign keys enforced, a busy timeout."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def set_sqlite_pragmas(dbapi_connection, _record) -> None:  # noqa: ANN001 (DB-API object)
        cursor = dbapi_connection.cursor()
        # WAL lets readers proceed while one writer commits; in-memory databases keep "memory".
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()
