"""Health area: /healthz answers 200 only when the database answers a query."""

from __future__ import annotations

from flask import Blueprint, jsonify

from quizapp.extensions import db
from quizapp.services.health import check_database

bp = Blueprint("health", __name__)


@bp.route("/healthz")
def healthz():
    ok, detail = check_database(db.session)
    body = {"status": "ok" if ok else "unavailable", "database": detail}
    return jsonify(body), (200 if ok else 503)
