"""Error pages: every 4xx/5xx gets a human message; /api/ paths get JSON instead of HTML."""

from __future__ import annotations

from flask import Flask, g, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadHost, HTTPException, SecurityError

from quizapp.extensions import login_manager
from quizapp.services.errors import ServiceError

MESSAGES = {
    400: "The request could not be understood. Check what you typed and try again.",
    403: "You are not allowed to do that.",
    404: "There is nothing here. The link may be old, or the thing was never there.",
    405: "That page does not accept this kind of request.",
    413: "That was too much data for one request (the limit is 64 KiB). Shorten it and retry.",
    429: "Too many requests. Wait a little and try again.",
    500: "Something broke on our side. Your saved progress is safe; try again in a moment.",
}
CSRF_MESSAGE = (
    "This form has expired or did not come from this site. Nothing was saved: "
    "reload the page and submit it again."
)


def render_error(status: int, message: str):
    if request.path.startswith("/api/") or request.path == "/healthz":
        return jsonify({"error": message, "status": status}), status
    if not request_has_usable_host():
        # No page can be built without a host its links can name: plain text.
        return f"{status}: {message}\n", status, {"Content-Type": "text/plain; charset=utf-8"}
    return render_template("error.html", status=status, message=message), status


def request_has_usable_host() -> bool:
    """False when the Host header names a host outside QUIZAPP_TRUSTED_HOSTS, or is no host
    name at all (``a..b``, a label over 63 characters: werkzeug's BadHost); either way the
    request has no URL adapter, so the HTML page's links cannot be built."""
    return not isinstance(request.routing_exception, (SecurityError, BadHost))


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def handle_csrf(_error: CSRFError):
        return render_error(400, CSRF_MESSAGE)

    @app.errorhandler(ServiceError)
    def handle_service_error(error: ServiceError):
        return render_error(error.status, error.message)

    @app.errorhandler(HTTPException)
    def handle_http(error: HTTPException):
        status = error.code or 500
        message = MESSAGES.get(status) or error.description or "Request failed."
        # A handler that aborted with its own description (abort(404, "...")) keeps its words.
        if error.description and error.description != type(error).description:
            message = error.description
        if isinstance(error, SecurityError):  # its description echoes the Host header
            message = "This server does not answer for that host name."
        elif isinstance(error, BadHost):
            message = "The Host header is not a host name."
        response = render_error(status, message)
        if status == 405 and hasattr(error, "valid_methods") and error.valid_methods:
            body, code = response
            return body, code, {"Allow": ", ".join(error.valid_methods)}
        return response

    @app.errorhandler(500)
    def handle_internal(_error):
        # The page header names the signed-in user, which asks the database when this request
        # has not loaded them yet; when the database is what failed, that second failure left
        # gunicorn's bare "Internal Server Error". Not loaded yet: shown as
        # signed out on this page only (g._login_user is Flask-Login's per-request user, which
        # current_user reads before it would call the loader).
        if "_login_user" not in g:
            g._login_user = login_manager.anonymous_user()
        return render_error(500, MESSAGES[500])
