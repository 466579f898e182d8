"""Configuration: per-environment defaults overridden by ``QUIZAPP_*`` environment variables."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

ENVIRONMENTS = ("development", "testing", "production")
SECRET_KEY_FILENAME = "secret_key"
SECRET_KEY_MIN = 32  # characters of a key from the environment, a key file or instance/
TESTING_SECRET_KEY = "testing-only-secret-key"
# werkzeug's "scrypt:n:r:p"; the default is werkzeug's own (n=2**15, r=8, p=1).
DEFAULT_PASSWORD_HASH = "scrypt"
TESTING_PASSWORD_HASH = "scrypt:1024:8:1"


class ConfigError(RuntimeError):
    """The environment does not describe a runnable configuration."""


def canonicalize_bool(value: str, name: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name} must be 1/0, true/false, yes/no or on/off, not {value!r}")


def canonicalize_int(value: str, name: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {value!r}") from None
    if not low <= number <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {number}")
    return number


def compute_engine_options(database_url: str) -> dict[str, int]:
    """Pool sizing for a server's threads; none for in-memory SQLite, whose single shared
    connection (SQLAlchemy's StaticPool) refuses pool arguments."""
    try:
        url = make_url(database_url)
    except ArgumentError:
        raise ConfigError(f"QUIZAPP_DATABASE_URL is not a database URL: {database_url!r}") from None
    in_memory = url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"
    if url.get_backend_name() == "sqlite" and in_memory:
        return {}
    return {"pool_size": 10, "max_overflow": 40}


def compute_environment(environ: Mapping[str, str], overrides: Mapping[str, object]) -> str:
    """The environment name: overrides first (tests), then QUIZAPP_ENV, then development."""
    if overrides.get("TESTING"):
        return "testing"
    name = str(overrides.get("QUIZAPP_ENV") or environ.get("QUIZAPP_ENV") or "development")
    if name not in ENVIRONMENTS:
        raise ConfigError(f"QUIZAPP_ENV must be one of {', '.join(ENVIRONMENTS)}, not {name!r}")
    return name


def load_or_create_secret_key(instance_path: str) -> str:
    """Read ``instance/secret_key``, creating it once with a random key (development only)."""
    path = Path(instance_path) / SECRET_KEY_FILENAME
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: when two processes start at once, exactly one writes and both read the same key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    key = path.read_text().strip()
    if len(key) < SECRET_KEY_MIN:
        raise ConfigError(
            f"{path} holds a key shorter than {SECRET_KEY_MIN} characters; delete it to regenerate")
    return key


def compute_secret_key(environ: Mapping[str, str], env_name: str, instance_path: str) -> str:
    """SECRET_KEY from QUIZAPP_SECRET_KEY or QUIZAPP_SECRET_KEY_FILE; required in production."""
    if environ.get("QUIZAPP_SECRET_KEY"):  # empty counts as unset (the Dockerfile relies on it)
        key = environ["QUIZAPP_SECRET_KEY"]  # used as given: stripping would change a key
        # The same floor as a key file: a short key signs sessions anyone could forge.
        length = len(key.strip())
        if length < SECRET_KEY_MIN:
            raise ConfigError(f"QUIZAPP_SECRET_KEY holds {length} characters; use at least "
                              f"{SECRET_KEY_MIN}, e.g. python -c 'import secrets; "
                              "print(secrets.token_hex(32))'")
        return key
    if environ.get("QUIZAPP_SECRET_KEY_FILE"):
        key_path = Path(environ["QUIZAPP_SECRET_KEY_FILE"])
        try:
            key = key_path.read_text().strip()
        except OSError as exc:
            raise ConfigError(f"cannot read QUIZAPP_SECRET_KEY_FILE {key_path}: {exc}") from None
        if len(key) < SECRET_KEY_MIN:
            raise ConfigError(
                f"QUIZAPP_SECRET_KEY_FILE {key_path} holds fewer than {SECRET_KEY_MIN} characters")
        return key
    if env_name == "testing":
        return TESTING_SECRET_KEY
    if env_name == "development":
        return load_or_create_secret_key(instance_path)
    raise ConfigError(
        "QUIZAPP_SECRET_KEY (or QUIZAPP_SECRET_KEY_FILE) is required when QUIZAPP_ENV=production"
    )


def compute_config(environ: Mapping[str, str], env_name: str, instance_path: str) -> dict:
    """Flask config for ``env_name``; every value can be overridden by a QUIZAPP_* variable."""
    https = canonicalize_bool(environ.get("QUIZAPP_HTTPS", "0"), "QUIZAPP_HTTPS")
    default_db = "sqlite:///" + os.path.join(instance_path, "quizapp.db")
    content_default = str(Path(__file__).resolve().parent.parent / "content")
    testing = env_name == "testing"
    return {
        "QUIZAPP_ENV": env_name,
        "TESTING": testing,
        # An empty value counts as unset, as with a shell's VAR= prefix.
        "SQLALCHEMY_DATABASE_URI": environ.get("QUIZAPP_DATABASE_URL") or default_db,
        "SQLITE_BUSY_TIMEOUT_MS": canonicalize_int(
            environ.get("QUIZAPP_SQLITE_BUSY_TIMEOUT_MS", "10000"),
            "QUIZAPP_SQLITE_BUSY_TIMEOUT_MS", 0, 600_000),
        "CONTENT_PATH": environ.get("QUIZAPP_CONTENT_PATH", content_default),
        "PASSWORD_HASH_METHOD": environ.get(
            "QUIZAPP_PASSWORD_HASH", TESTING_PASSWORD_HASH if testing else DEFAULT_PASSWORD_HASH),
        # Login throttling: failures allowed per account / per address within the window.
        "LOGIN_LIMIT_PER_ACCOUNT": canonicalize_int(
            environ.get("QUIZAPP_LOGIN_LIMIT_PER_ACCOUNT", "5"),
            "QUIZAPP_LOGIN_LIMIT_PER_ACCOUNT", 1, 10_000),
        "LOGIN_LIMIT_PER_ADDRESS": canonicalize_int(
            environ.get("QUIZAPP_LOGIN_LIMIT_PER_ADDRESS", "20"),
            "QUIZAPP_LOGIN_LIMIT_PER_ADDRESS", 1, 100_000),
        "LOGIN_LIMIT_WINDOW_MINUTES": canonicalize_int(
            environ.get("QUIZAPP_LOGIN_LIMIT_WINDOW_MINUTES", "15"),
            "QUIZAPP_LOGIN_LIMIT_WINDOW_MINUTES", 1, 24 * 60),
        # Registrations (taken names included) allowed per address within the window; tests
        # register many accounts from one test client, so testing allows more.
        "REGISTER_LIMIT_PER_ADDRESS": canonicalize_int(
            environ.get("QUIZAPP_REGISTER_LIMIT_PER_ADDRESS", "10000" if testing else "10"),
            "QUIZAPP_REGISTER_LIMIT_PER_ADDRESS", 1, 100_000),
        "REGISTER_LIMIT_WINDOW_MINUTES": canonicalize_int(
            environ.get("QUIZAPP_REGISTER_LIMIT_WINDOW_MINUTES", "60"),
            "QUIZAPP_REGISTER_LIMIT_WINDOW_MINUTES", 1, 24 * 60),
        "PROXY_FIX_HOPS": canonicalize_int(
            environ.get("QUIZAPP_PROXY_FIX_HOPS", "0"), "QUIZAPP_PROXY_FIX_HOPS", 0, 5),
        # Bad input: bodies above this size get 413 before any form parsing.
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": https,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": https,
        "PREFERRED_URL_SCHEME": "https" if https else "http",
        # CSRF tokens live as long as the session, so a long study session never loses a rating.
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_SSL_STRICT": https,
    }
