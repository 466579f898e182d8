"""The web layer: one blueprint per area, plus error pages and response headers."""

from __future__ import annotations

from flask import Flask

from quizapp.web import (
    account_data,
    assets,
    auth,
    errors,
    explorer,
    health,
    history_puzzle,
    questions,
    settings,
    skills,
    study,
    suspend,
)
from quizapp.web.filters import register_filters
from quizapp.web.fragments import init_fragments
from quizapp.web.input_guard import register_input_guard
from quizapp.web.runtime import register_fixed_urls, register_headers
from quizapp.web.session_cookie import register_session_cookie


def register_web(app: Flask) -> None:
    auth.init_login_manager(app)
    errors.register_error_handlers(app)
    register_session_cookie(app)
    register_headers(app)
    register_input_guard(app)
    register_fixed_urls(app)
    register_filters(app)
    assets.register_asset_versions(app)
    init_fragments(app)
    for blueprint in (
        auth.bp, study.bp, history_puzzle.bp, suspend.bp, questions.bp, skills.bp, explorer.bp,
        settings.bp, account_data.bp, health.bp, assets.bp,
    ):
        app.register_blueprint(blueprint)
