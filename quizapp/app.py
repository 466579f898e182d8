"""The Flask application factory: configuration, extensions, blueprints."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from quizapp import models
from quizapp.config import (
    HTTPS_OFF_WARNING,
    compute_config,
    compute_engine_options,
    compute_environment,
    compute_secret_key,
)
from quizapp.extensions import configure_sqlite, csrf, db, login_manager, migrate
from quizapp.private_files import (
    check_private_files,
    create_private_database,
    prepare_instance_folder,
)
from quizapp.web import register_web
from quizapp.web.http.request_body import GuardedRequestBody


def utc_now() -> datetime:
    return datetime.now(UTC)


def compute_migrations_path(app: Flask) -> str:
    """QUIZAPP_MIGRATIONS_PATH, else the checkout's migrations/ (found from the package)."""
    if os.environ.get("QUIZAPP_MIGRATIONS_PATH"):
        return os.environ["QUIZAPP_MIGRATIONS_PATH"]
    checkout = os.path.join(os.path.dirname(app.root_path), "migrations")
    return checkout if os.path.isdir(checkout) else "migrations"


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app from QUIZAPP_* variables; ``test_config`` overrides anything (tests)."""
    overrides = dict(test_config or {})
    instance_path = overrides.pop("INSTANCE_PATH", None) or os.environ.get("QUIZAPP_INSTANCE_PATH")
    app = Flask(
        __name__.rsplit(".", 1)[0],
        instance_path=os.path.abspath(instance_path) if instance_path else None,
        instance_relative_config=True,
        template_folder="web/templates",
        static_folder="web/static",
    )
    prepare_instance_folder(app.instance_path)
    env_name = compute_environment(os.environ, overrides)
    app.config.update(compute_config(os.environ, env_name, app.instance_path))
    # Time and randomness reach the services as parameters; tests swap these sources.
    app.config["CLOCK"] = utc_now
    app.config["PUZZLE_SEED_SOURCE"] = None  # None: web.http.runtime.derive_puzzle_seed, SECRET_KEY
    app.config.update(overrides)
    # Pool options follow the URL finally in force (QUIZAPP_DATABASE_URL or an override).
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", compute_engine_options(
        app.config["SQLALCHEMY_DATABASE_URI"],
        connect_timeout=app.config["DB_CONNECT_TIMEOUT_SECONDS"],
        statement_timeout_ms=app.config["DB_STATEMENT_TIMEOUT_MS"],
        pool_timeout=app.config["DB_POOL_TIMEOUT_SECONDS"], pool_size=app.config["DB_POOL_SIZE"],
        max_overflow=app.config["DB_MAX_OVERFLOW"]))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = compute_secret_key(os.environ, env_name, app.instance_path)
    if env_name == "production" and not app.config["SESSION_COOKIE_SECURE"]:
        app.logger.warning(HTTPS_OFF_WARNING)
    create_private_database(app.config["SQLALCHEMY_DATABASE_URI"])
    check_private_files(app.logger, app.instance_path, app.config["SQLALCHEMY_DATABASE_URI"])

    app.wsgi_app = GuardedRequestBody(app.wsgi_app, app.config["MAX_CONTENT_LENGTH"])
    if app.config["PROXY_FIX_HOPS"]:
        hops = app.config["PROXY_FIX_HOPS"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)

    db.init_app(app)
    migrate.init_app(app, db, directory=compute_migrations_path(app))
    csrf.init_app(app)
    login_manager.init_app(app)
    with app.app_context():
        configure_sqlite(db.engine, app.config["SQLITE_BUSY_TIMEOUT_MS"],
                         app.config["SQLITE_SYNCHRONOUS"])

    register_web(app)
    app.shell_context_processor(lambda: {"db": db, "models": models})
    return app
