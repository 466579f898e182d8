"""The web layer: areas (account, bank, study, explorer, sets, teams, progress, practice),
each a package of blueprints with their forms, on shared layers below them (navigation,
rendering, http) that never import an area."""

from __future__ import annotations

from flask import Flask

from quizapp.web.account import auth, data, settings
from quizapp.web.bank import questions, skills
from quizapp.web.explorer import routes as explorer
from quizapp.web.http import errors, health
from quizapp.web.http.input_guard import register_input_guard
from quizapp.web.http.rate_limits import register_rate_limits
from quizapp.web.http.runtime import register_fixed_urls, register_headers
from quizapp.web.http.session_cookie import register_session_cookie
from quizapp.web.practice import routes as practice
from quizapp.web.progress import routes as progress
from quizapp.web.rendering import assets
from quizapp.web.rendering.filters import register_filters
from quizapp.web.rendering.fragments import init_fragments
from quizapp.web.rendering.pictures import init_pictures
from quizapp.web.rendering.theme import register_theme
from quizapp.web.sets import routes as sets
from quizapp.web.study import history_puzzle, suspend
from quizapp.web.study import routes as study
from quizapp.web.teams import dashboard as team_dashboard
from quizapp.web.teams import routes as teams
from quizapp.web.teams import tracks


def register_web(app: Flask) -> None:
    auth.init_login_manager(app)
    errors.register_error_handlers(app)
    register_session_cookie(app)
    register_headers(app)
    register_input_guard(app)
    register_rate_limits(app)
    register_fixed_urls(app)
    register_filters(app)
    register_theme(app)
    assets.register_asset_versions(app)
    init_fragments(app)
    init_pictures(app)
    for blueprint in (
        auth.bp, study.bp, history_puzzle.bp, suspend.bp, questions.bp, skills.bp, explorer.bp,
        settings.bp, data.bp, health.bp, assets.bp, sets.bp, teams.bp, tracks.bp, progress.bp,
        practice.bp, team_dashboard.bp,
    ):
        app.register_blueprint(blueprint)
