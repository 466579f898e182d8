"""Flask's signed-cookie sessions with the signing serializer built once per key set."""

from __future__ import annotations

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

    def __init__(self) -> None:
        self._serializers: dict[tuple, URLSafeTimedSerializer] = {}

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        key = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        serializer = self._serializers.get(key)
        if serializer is None:
            serializer = super().get_signing_serializer(app)
            if len(self._serializers) >= 8:  # keys rotated many times in one process
                self._serializers.clear()
            self._serializers[key] = serializer
        return serializer


def register_session_cookie(app: Flask) -> None:
    app.session_interface = ReusedSerializerSessionInterface()
