"""Signed values the app hands out (study-page tokens, device cookies), one serializer per key set."""

from __future__ import annotations

from functools import lru_cache

from flask import current_app
from itsdangerous import URLSafeSerializer, URLSafeTimedSerializer


def current_serializer(salt: str, *, timed: bool = False) -> URLSafeSerializer:
    """The serializer for ``salt`` under the app's SECRET_KEY and SECRET_KEY_FALLBACKS.

    The newest key signs and a fallback still verifies, as Flask does for the session cookie,
    so values handed out before a key rotation are still taken.
    """
    config = current_app.config
    return _serializer_for(config["SECRET_KEY"], tuple(config["SECRET_KEY_FALLBACKS"] or ()),
                           salt, timed)


@lru_cache(maxsize=16)
def _serializer_for(secret_key: str | bytes, fallbacks: tuple, salt: str,
                    timed: bool) -> URLSafeSerializer:
    """Built once per key set and salt: a serializer keeps no per-value state, and building one
    costs more than signing a value with it."""
    kind = URLSafeTimedSerializer if timed else URLSafeSerializer
    return kind([*fallbacks, secret_key], salt=salt)
