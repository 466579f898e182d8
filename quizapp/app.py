"""The Flask application factory."""

from __future__ import annotations

from flask import Flask


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; ``test_config`` overrides configuration in tests."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(SECRET_KEY="dev")
    if test_config:
        app.config.update(test_config)
    return app
