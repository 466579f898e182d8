"""Flask's signed-cookie sessions with the signing serializer built once per key set."""

from __future__ import annotations

from functools import lru_cache

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer


class ReusedSerializerSessionInterface(SecureCookieSessionInterface):
    """SecureCookieSessionInterface, unchanged on the wire, minus a serializer per request.

    Flask builds a new URLSafeTimedSerializer to open and again to save every session, and
    itsdangerous probes each new one by serializing an empty dict: a measurable share of a
    logged-in request (bench/request_costs.py). The serializer holds no per-request state, so
    one per (SECRET_KEY, SECRET_KEY_FALLBACKS) is kept; rotating the key builds a new one.
    """

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        return self._serializer_for(app, app.secret_key,
                                    tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))

    @lru_cache(maxsize=8)  # noqa: B019 - one interface per app, kept as long as the app
    def _serializer_for(self, app: Flask, secret_key: str | bytes,
                        fallbacks: tuple) -> URLSafeTimedSerializer | None:
        """Flask's own serializer for this key set (the arguments after ``app`` are the key)."""
        return super().get_signing_serializer(app)


def register_session_cookie(app: Flask) -> None:
    app.session_interface = ReusedSerializerSessionInterface()
