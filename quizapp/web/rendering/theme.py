"""The page theme every page is drawn in: the account's setting, or the system's for a visitor."""

from __future__ import annotations

from flask import Flask
from flask_login import current_user

from quizapp.services.settings import THEMES

# What <meta name="color-scheme"> says for each theme: the browser's own parts (the canvas
# before the stylesheet, form controls, scroll bars) are drawn to match from the first paint.
COLOR_SCHEMES = {"system": "light dark", "light": "light", "dark": "dark"}


def current_theme() -> str:
    """The signed-in account's theme; "system" for a visitor or a value this server lacks."""
    theme = getattr(current_user, "theme", None) if current_user else None
    return theme if theme in THEMES else "system"


def register_theme(app: Flask) -> None:
    @app.context_processor
    def theme_context() -> dict[str, str]:
        theme = current_theme()
        return {"page_theme": theme, "page_color_scheme": COLOR_SCHEMES[theme]}
