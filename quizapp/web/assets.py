"""Generated assets: the Pygments stylesheet, built from the installed Pygments styles."""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, Response

from quizapp.web.markdown import compute_pygments_css

bp = Blueprint("assets", __name__)


@lru_cache(maxsize=1)
def pygments_css_text() -> str:
    return compute_pygments_css()


@bp.route("/assets/pygments.css")
def pygments_css() -> Response:
    response = Response(pygments_css_text(), mimetype="text/css")
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response
