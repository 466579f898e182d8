"""Health area: /healthz answers 200 only when the database answers a query and its schema is
at the migrations' head; a failure's cause goes to the log, the response stays short."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from quizapp.extensions import db
from quizapp.services.health import MIGRATION_SCRIPTS_KEY, check_database

bp = Blueprint("health", __name__)


@bp.route("/healthz")
def healthz():
    report = check_database(db.session, current_app.extensions[MIGRATION_SCRIPTS_KEY])
    if not report.ok:
        current_app.logger.warning("/healthz unavailable: %s", report.cause)
    body = {"status": "ok" if report.ok else "unavailable", "database": report.detail}
    return jsonify(body), (200 if report.ok else 503)
