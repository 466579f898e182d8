"""Health area: /healthz answers 200 only when the database answers a query and its schema is
at the migrations' head; a failure's cause goes to the log, the response stays short."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from quizapp.extensions import db
from quizapp.services.health import MigrationScripts, check_database, read_migration_scripts

bp = Blueprint("health", __name__)
MIGRATION_SCRIPTS_KEY = "quizapp.migration_scripts"  # app.extensions, at the first check


def migration_scripts() -> MigrationScripts:
    """The migrations' head, read at the first health check rather than at start-up (most
    processes, every CLI command among them, never ask), then kept for the app."""
    scripts = current_app.extensions.get(MIGRATION_SCRIPTS_KEY)
    if scripts is None:
        directory = current_app.extensions["migrate"].directory
        scripts = current_app.extensions[MIGRATION_SCRIPTS_KEY] = read_migration_scripts(directory)
    return scripts


@bp.route("/healthz")
def healthz():
    report = check_database(db.session, migration_scripts())
    if not report.ok:
        current_app.logger.warning("/healthz unavailable: %s", report.cause)
    body = {"status": "ok" if report.ok else "unavailable", "database": report.detail}
    return jsonify(body), (200 if report.ok else 503)
