"""Refuse request text holding a NUL character before any of it reaches a query."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, abort, request

NUL_REFUSED = ("The request holds a NUL character (\\0), which no page or field accepts. "
               "Nothing was read or saved.")


def contains_nul(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    """Whether any name or value of a werkzeug MultiDict's ``lists()`` holds a NUL."""
    return any("\x00" in key or any("\x00" in value for value in values)
               for key, values in pairs)


def refuse_nul_characters() -> None:
    """PostgreSQL text cannot store NUL at all (the driver raises, a 500) and SQLite cuts the
    text short at it, so such input is a 400 here rather than an error or a silent change."""
    if "\x00" in request.path or contains_nul(request.args.lists()):
        abort(400, NUL_REFUSED)
    if request.method == "POST" and request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        if contains_nul(request.form.lists()):
            abort(400, NUL_REFUSED)


def register_input_guard(app: Flask) -> None:
    app.before_request(refuse_nul_characters)
