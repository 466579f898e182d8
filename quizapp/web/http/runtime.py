"""Per-request helpers: the clock and seed source from config, the client address, headers."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from datetime import datetime
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, session, url_for

# Everything a page uses is served by the app itself: no third-party origin is allowed.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def current_time() -> datetime:
    return current_app.config["CLOCK"]()


def derive_puzzle_seed(key: bytes, user_id: int, item_id: int, version: int,
                       undo_count: int = 0) -> int:
    """The seed of the puzzle a user is shown for a skill at one state version: unpredictable
    without the secret key, the same on every reload (reloading does not deal a new puzzle
    until this one is rated), and new at each rating and each undo. The version moves on with
    both but an undone first rating, which deletes the state (version 0 again): the user's
    count of undos is mixed in, so that puzzle, whose answer was just shown, does not come
    back. Without undos the text is as before, so seeds stay."""
    undone = f".{undo_count}" if undo_count else ""
    digest = hmac.new(key, f"puzzle-seed.{user_id}.{item_id}.{version}{undone}".encode(),
                      hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 0 <= seed < 2**63, as before


def new_puzzle_seed(user_id: int, item_id: int, version: int, undo_count: int) -> int:
    """The seed of the puzzle shown for a skill (derive_puzzle_seed, above), or what a
    configured PUZZLE_SEED_SOURCE (tests) gives for the same arguments."""
    source = current_app.config["PUZZLE_SEED_SOURCE"]
    if source is not None:
        return int(source(user_id, item_id, version, undo_count))
    key = current_app.secret_key
    return derive_puzzle_seed(key.encode() if isinstance(key, str) else key, user_id, item_id,
                              version, undo_count)


def fresh_puzzle_seed(user_id: int) -> int:
    """A seed never dealt before, for a puzzle outside the schedule (practice): random, or what
    a configured PUZZLE_SEED_SOURCE (tests) gives for this user."""
    source = current_app.config["PUZZLE_SEED_SOURCE"]
    if source is not None:
        return int(source(user_id, 0, 0, 0))
    return secrets.randbits(63)  # 0 <= seed < 2**63, as derive_puzzle_seed's


def client_address() -> str:
    return request.remote_addr or "unknown"


def compute_safe_next(target: str | None, default: str) -> str:
    """Only same-site relative paths are followed after login (no open redirects).

    A target holding any control character is refused: urlsplit ignores tabs and line breaks,
    so it would judge a different string, and a line break cannot go in a Location header.
    """
    if not target or len(target) > 500:
        return default
    if any(unicodedata.category(char) == "Cc" for char in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target:
        return default
    return target


FIXED_URLS_KEY = "quizapp.fixed_urls"
FIXED_URLS_LIMIT = 1000


def fixed_url_for(endpoint: str, filename: str | None = None) -> str:
    """url_for for links that take no values from the request (navigation, static files).

    Every page carries a dozen of them, so each is built once per script root (the only part
    of the request a relative URL depends on) and then read from a dict.
    """
    cache: dict[tuple[str, str, str | None], str] = current_app.extensions[FIXED_URLS_KEY]
    key = (request.script_root, endpoint, filename)
    url = cache.get(key)
    if url is None:
        url = url_for(endpoint, filename=filename) if filename else url_for(endpoint)
        if len(cache) >= FIXED_URLS_LIMIT:
            cache.clear()
        cache[key] = url
    return url


def register_fixed_urls(app: Flask) -> None:
    app.extensions[FIXED_URLS_KEY] = {}
    app.add_template_global(fixed_url_for, "fixed_url_for")


SESSION_USER_KEY = "_user_id"  # where Flask-Login keeps the signed-in user in the session


def compute_security_headers(https: bool) -> tuple[tuple[str, str], ...]:
    headers = [("Content-Security-Policy", CONTENT_SECURITY_POLICY),
               ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
               ("Referrer-Policy", "same-origin")]
    if https:
        headers.append(("Strict-Transport-Security", "max-age=31536000"))
    return tuple(headers)


def register_headers(app: Flask) -> None:
    defaults = compute_security_headers(app.config["SESSION_COOKIE_SECURE"])

    @app.after_request
    def set_security_headers(response: Response) -> Response:
        # What a view set itself wins. One pass over the response's headers instead of one
        # Headers.setdefault scan per default: this runs on every response.
        present = {name.lower() for name, _ in response.headers}
        response.headers.extend(
            [(name, value) for name, value in defaults if name.lower() not in present])
        # A signed-in person's pages (history, settings, study) are theirs alone: not kept by
        # a shared machine's browser cache or by a proxy, so Back after logging out shows none.
        if "cache-control" not in present and SESSION_USER_KEY in session:
            response.headers["Cache-Control"] = "no-store"
        return response
