"""Template filters: Markdown and code rendering, puzzle answers as text, relative times."""

from __future__ import annotations

from datetime import datetime

from flask import Flask

from quizapp import srs
from quizapp.web.markdown import render_markdown, render_python
from quizapp.web.runtime import current_time

# What the answer box expects, by the puzzle's answer_kind.
ANSWER_HINTS = {
    "tuple": "numbers, e.g. (12, 4, 1)",
    "int": "a whole number",
    "bool": "yes or no",
    "choice": "one letter, e.g. B",
    "choices": "letters, e.g. A C",
    "text": "a short text",
}


def format_answer(value: object) -> str:
    """A puzzle answer (a JSON value) as a person would type it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        inner = ", ".join(format_answer(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if value is None:
        return "none"
    return str(value)


def format_relative_time(moment: datetime) -> str:
    delta = moment - current_time()
    if delta.total_seconds() <= 0:
        return "now"
    return f"in {srs.format_interval(delta)}"


def register_filters(app: Flask) -> None:
    app.add_template_filter(render_markdown, "markdown")
    app.add_template_filter(render_python, "python")
    app.add_template_filter(format_answer, "answer_text")
    app.add_template_filter(format_relative_time, "relative_time")
