"""Generated assets: the Pygments stylesheet, built from the installed Pygments styles."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from flask import Blueprint, Flask, Response

from quizapp.markup.markdown import compute_pygments_css

bp = Blueprint("assets", __name__)


@lru_cache(maxsize=1)
def pygments_css_text() -> str:
    return compute_pygments_css()


@lru_cache(maxsize=1)
def pygments_css_version() -> str:
    """A digest of the stylesheet: pages link to it with ?v=..., so the day-long cache below
    never serves an old theme after an upgrade (a new theme is a new URL)."""
    return hashlib.sha256(pygments_css_text().encode()).hexdigest()[:12]


def register_asset_versions(app: Flask) -> None:
    app.add_template_global(pygments_css_version, "pygments_css_version")


@bp.route("/assets/pygments.css")
def pygments_css() -> Response:
    response = Response(pygments_css_text(), mimetype="text/css")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response
