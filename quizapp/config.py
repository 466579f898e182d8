"""Configuration: per-environment defaults overridden by ``QUIZAPP_*`` environment variables."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from werkzeug.security import generate_password_hash

from quizapp.content.loading import configured_content_root

ENVIRONMENTS = ("development", "testing", "production")
SECRET_KEY_FILENAME = "secret_key"
SECRET_KEY_MIN = 32  # characters of a key from the environment, a key file or instance/
TESTING_SECRET_KEY = "testing-only-secret-key"
# werkzeug's "scrypt:n:r:p"; the default is werkzeug's own (n=2**15, r=8, p=1).
DEFAULT_PASSWORD_HASH = "scrypt"
TESTING_PASSWORD_HASH = "scrypt:1024:8:1"
PASSWORD_HASH_EXAMPLE = "scrypt:32768:8:1"
# Production refuses a hash far cheaper than werkzeug's defaults (a test setting left in place):
# scrypt needs n*r*p of at least half the default's 2**15*8, pbkdf2 100,000 iterations
# (werkzeug's default is 1,000,000). Development and testing take any method werkzeug accepts.
MIN_SCRYPT_COST = 2**14 * 8
MIN_PBKDF2_ITERATIONS = 100_000
# PostgreSQL timeouts (QUIZAPP_DB_*): a database that accepts connections and never answers
# must not hold a request thread, or `quizapp db upgrade`, for ever.
DB_CONNECT_TIMEOUT_SECONDS = 5  # per address tried; libpq's floor is 2
DB_STATEMENT_TIMEOUT_MS = 30_000  # server side, per statement; 0 sends none (migrations lift it)
DB_POOL_TIMEOUT_SECONDS = 10  # waiting for a free pooled connection
# Connections each process keeps open, and how many more it may open at a peak: every
# gunicorn worker has its own pool, so workers x (both) must stay under the server's limit.
DB_POOL_SIZE, DB_MAX_OVERFLOW = 10, 40


# SQLite's synchronous setting (QUIZAPP_SQLITE_SYNCHRONOUS). In WAL mode NORMAL syncs only at
# checkpoints, so a power cut can lose the last acknowledged commits; FULL syncs the WAL at
# every commit. Testing, whose databases are thrown away, keeps NORMAL.
SQLITE_SYNCHRONOUS_CHOICES = ("NORMAL", "FULL", "EXTRA")
SQLITE_SYNCHRONOUS = "FULL"
TESTING_SQLITE_SYNCHRONOUS = "NORMAL"


class ConfigError(RuntimeError):
    """The environment does not describe a runnable configuration."""


def canonicalize_bool(value: str, name: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name} must be 1/0, true/false, yes/no or on/off, not {value!r}")


def canonicalize_choice(value: str, name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (upper case), any case given."""
    upper = value.strip().upper()
    if upper not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return upper


def canonicalize_rate_limit(value: str, name: str) -> str:
    """A rate in Flask-Limiter's notation ("30/minute", "100 per hour; 10/second"), checked
    here: a typo would otherwise fail every request it guards."""
    from limits import parse_many  # the rate limiter's own parser

    try:
        parse_many(value)
    except ValueError:
        raise ConfigError(f"{name} must be a rate such as 30/minute or 100 per hour (several "
                          f"separated by ;), not {value!r}") from None
    return value.strip()


def canonicalize_int(value: str, name: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {value!r}") from None
    if not low <= number <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, not {number}")
    return number


# Host names a request may name when QUIZAPP_TRUSTED_HOSTS is set: the machine itself is always
# one (the Docker image's health check asks 127.0.0.1), which gives a forged Host nothing.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
HOST_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")


def canonicalize_trusted_hosts(value: str) -> list[str] | None:
    """QUIZAPP_TRUSTED_HOSTS, "quiz.example.com, .example.org" -> Flask's TRUSTED_HOSTS (a
    leading dot takes the subdomains too) plus the loopback names; None when empty (any host)."""
    hosts = [host.strip().lower() for host in value.split(",") if host.strip()]
    if not hosts:
        return None
    for host in hosts:
        if len(host) > 253 or not set(host) <= HOST_NAME_CHARS:
            raise ConfigError(f"QUIZAPP_TRUSTED_HOSTS holds {host!r}, which is not a host name; "
                              "give names separated by commas, e.g. quiz.example.com,.example.org")
    return hosts + [host for host in LOOPBACK_HOSTS if host not in hosts]


def compute_engine_options(
        database_url: str, *, connect_timeout: int = DB_CONNECT_TIMEOUT_SECONDS,
        statement_timeout_ms: int = DB_STATEMENT_TIMEOUT_MS,
        pool_timeout: int = DB_POOL_TIMEOUT_SECONDS, pool_size: int = DB_POOL_SIZE,
        max_overflow: int = DB_MAX_OVERFLOW) -> dict[str, object]:
    """Pool sizing for a server's threads; none for in-memory SQLite, whose single shared
    connection (SQLAlchemy's StaticPool) refuses pool arguments. PostgreSQL also gets
    timeouts and a liveness ping at checkout (connections that died in a database restart
    are replaced instead of failing a request)."""
    try:
        url = make_url(database_url)
    except ArgumentError:
        raise ConfigError(f"QUIZAPP_DATABASE_URL is not a database URL: {database_url!r}") from None
    in_memory = url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"
    if url.get_backend_name() == "sqlite" and in_memory:
        return {}
    options: dict[str, object] = {"pool_size": pool_size, "max_overflow": max_overflow,
                                  "pool_timeout": pool_timeout}
    if url.get_backend_name() != "postgresql":
        return options
    options["pool_pre_ping"] = True
    if url.get_driver_name() not in ("psycopg", "psycopg2"):
        return options  # connect_args below are libpq's
    # A setting written in the URL's query wins (connect_args would replace it otherwise).
    connect_args: dict[str, object] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = connect_timeout
    given = url.query.get("options")
    given = given if isinstance(given, str) else ""
    if statement_timeout_ms and "statement_timeout" not in given:
        connect_args["options"] = f"{given} -c statement_timeout={statement_timeout_ms}".strip()
    if connect_args:
        options["connect_args"] = connect_args
    return options


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
    if not path.exists():
        # Written whole under a private name, then linked into place: os.link fails if the
        # file exists, so when processes start at once exactly one key wins, and no process
        # can read a file created but not yet written (an O_EXCL create then write could).
        fd, draft = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft)
    return read_key_file(path, str(path), "; delete it to regenerate")


def read_key_file(path: Path, label: str, remedy: str) -> str:
    """A secret key from a file (stripped), or a one-line ConfigError naming ``label`` and
    ending with ``remedy``: unreadable, not UTF-8, or shorter than SECRET_KEY_MIN."""
    try:
        key = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ConfigError(f"cannot read {label}: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{label} is not UTF-8 text{remedy}") from None
    if len(key) < SECRET_KEY_MIN:
        raise ConfigError(f"{label} holds fewer than {SECRET_KEY_MIN} characters{remedy}")
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
        return read_key_file(key_path, f"QUIZAPP_SECRET_KEY_FILE {key_path}",
                             " (a key is printable characters, e.g. from python -c 'import "
                             "secrets; print(secrets.token_hex(32))')")
    if env_name == "testing":
        return TESTING_SECRET_KEY
    if env_name == "development":
        return load_or_create_secret_key(instance_path)
    raise ConfigError(
        "QUIZAPP_SECRET_KEY (or QUIZAPP_SECRET_KEY_FILE) is required when QUIZAPP_ENV=production"
    )


def password_hash_cost_too_low(method: str) -> bool:
    """Whether a method werkzeug accepted is far cheaper than its defaults (see MIN_*)."""
    name, *args = method.split(":")
    if name == "scrypt" and args:
        n, r, p = map(int, args)
        return n * r * p < MIN_SCRYPT_COST
    if name == "pbkdf2" and len(args) == 2:
        return int(args[1]) < MIN_PBKDF2_ITERATIONS
    return False


def compute_password_hash_method(environ: Mapping[str, str], env_name: str) -> str:
    """QUIZAPP_PASSWORD_HASH, checked once here: a method werkzeug refuses would otherwise
    start fine and then fail every registration."""
    method = environ.get("QUIZAPP_PASSWORD_HASH")  # empty counts as unset
    if not method:
        return TESTING_PASSWORD_HASH if env_name == "testing" else DEFAULT_PASSWORD_HASH
    try:
        generate_password_hash("x", method=method)
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise ConfigError(f"QUIZAPP_PASSWORD_HASH {method!r} is not a hash method werkzeug can "
                          f"use ({exc}); use e.g. scrypt or {PASSWORD_HASH_EXAMPLE}") from None
    if env_name == "production" and password_hash_cost_too_low(method):
        raise ConfigError(f"QUIZAPP_PASSWORD_HASH {method!r} is too cheap for production (scrypt "
                          f"needs n*r*p >= {MIN_SCRYPT_COST}, pbkdf2 >= {MIN_PBKDF2_ITERATIONS} "
                          f"iterations); use e.g. scrypt or {PASSWORD_HASH_EXAMPLE}")
    return method


HTTPS_OFF_WARNING = (
    "QUIZAPP_HTTPS=0 in production: cookies are sent without Secure and no HSTS, so anyone on "
    "the network path can read a session; only for a server reached on loopback alone (behind "
    "a proxy that terminates TLS, leave QUIZAPP_HTTPS unset)")
HTTPS_ON_NOTE = ("production over HTTPS: cookies Secure, HSTS sent (QUIZAPP_HTTPS=0 turns this "
                 "off for a server reached on loopback alone)")


def compute_https(environ: Mapping[str, str], env_name: str) -> bool:
    """QUIZAPP_HTTPS; unset or empty: on in production (Secure cookies, HSTS), off elsewhere.
    Production without HTTPS must be asked for (``0``), and create_app warns of it."""
    value = environ.get("QUIZAPP_HTTPS", "")
    if not value.strip():
        return env_name == "production"
    return canonicalize_bool(value, "QUIZAPP_HTTPS")


def compute_config(environ: Mapping[str, str], env_name: str, instance_path: str) -> dict:
    """Flask config for ``env_name``; every value can be overridden by a QUIZAPP_* variable."""
    https = compute_https(environ, env_name)
    default_db = "sqlite:///" + os.path.join(instance_path, "quizapp.db")
    testing = env_name == "testing"
    return {
        "QUIZAPP_ENV": env_name,
        "TESTING": testing,
        # An empty value counts as unset, as with a shell's VAR= prefix.
        "SQLALCHEMY_DATABASE_URI": environ.get("QUIZAPP_DATABASE_URL") or default_db,
        "SQLITE_BUSY_TIMEOUT_MS": canonicalize_int(
            environ.get("QUIZAPP_SQLITE_BUSY_TIMEOUT_MS", "10000"),
            "QUIZAPP_SQLITE_BUSY_TIMEOUT_MS", 0, 600_000),
        "SQLITE_SYNCHRONOUS": canonicalize_choice(
            environ.get("QUIZAPP_SQLITE_SYNCHRONOUS")
            or (TESTING_SQLITE_SYNCHRONOUS if testing else SQLITE_SYNCHRONOUS),
            "QUIZAPP_SQLITE_SYNCHRONOUS", SQLITE_SYNCHRONOUS_CHOICES),
        # The same folder `content check` reads by default (empty counts as unset there too).
        "CONTENT_PATH": str(configured_content_root(environ)),
        # PostgreSQL only: see compute_engine_options.
        "DB_CONNECT_TIMEOUT_SECONDS": canonicalize_int(
            environ.get("QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", str(DB_CONNECT_TIMEOUT_SECONDS)),
            "QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", 2, 600),
        "DB_STATEMENT_TIMEOUT_MS": canonicalize_int(
            environ.get("QUIZAPP_DB_STATEMENT_TIMEOUT_MS", str(DB_STATEMENT_TIMEOUT_MS)),
            "QUIZAPP_DB_STATEMENT_TIMEOUT_MS", 0, 3_600_000),
        "DB_POOL_TIMEOUT_SECONDS": canonicalize_int(
            environ.get("QUIZAPP_DB_POOL_TIMEOUT_SECONDS", str(DB_POOL_TIMEOUT_SECONDS)),
            "QUIZAPP_DB_POOL_TIMEOUT_SECONDS", 1, 600),
        "DB_POOL_SIZE": canonicalize_int(environ.get("QUIZAPP_DB_POOL_SIZE", str(DB_POOL_SIZE)),
                                         "QUIZAPP_DB_POOL_SIZE", 1, 1000),
        "DB_MAX_OVERFLOW": canonicalize_int(
            environ.get("QUIZAPP_DB_MAX_OVERFLOW", str(DB_MAX_OVERFLOW)),
            "QUIZAPP_DB_MAX_OVERFLOW", 0, 1000),
        "PASSWORD_HASH_METHOD": compute_password_hash_method(environ, env_name),
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
        # Wrong team join codes allowed per address within the window (a real code that has
        # expired or was revoked is not counted: it is no guess).
        "JOIN_CODE_LIMIT_PER_ADDRESS": canonicalize_int(
            environ.get("QUIZAPP_JOIN_CODE_LIMIT_PER_ADDRESS", "10"),
            "QUIZAPP_JOIN_CODE_LIMIT_PER_ADDRESS", 1, 100_000),
        "JOIN_CODE_LIMIT_WINDOW_MINUTES": canonicalize_int(
            environ.get("QUIZAPP_JOIN_CODE_LIMIT_WINDOW_MINUTES", "15"),
            "QUIZAPP_JOIN_CODE_LIMIT_WINDOW_MINUTES", 1, 24 * 60),
        # Requests per address (per account when signed in) on the routes anyone may use:
        # the explorer's page and API together, and the question list with its search.
        # Counted in each process (memory://) unless the storage names a shared one.
        "RATE_LIMIT_EXPLAIN": canonicalize_rate_limit(
            environ.get("QUIZAPP_RATE_LIMIT_EXPLAIN") or (
                "10000/minute" if testing else "30/minute;300/hour"),
            "QUIZAPP_RATE_LIMIT_EXPLAIN"),
        "RATE_LIMIT_QUESTIONS": canonicalize_rate_limit(
            environ.get("QUIZAPP_RATE_LIMIT_QUESTIONS") or (
                "10000/minute" if testing else "60/minute;600/hour"),
            "QUIZAPP_RATE_LIMIT_QUESTIONS"),
        # Ratings one account may make (services/rating_limits.py); testing rates many items
        # at one moment of its fake clock.
        "RATING_LIMIT_PER_MINUTE": canonicalize_int(
            environ.get("QUIZAPP_RATING_LIMIT_PER_MINUTE", "10000" if testing else "60"),
            "QUIZAPP_RATING_LIMIT_PER_MINUTE", 1, 100_000),
        "RATING_LIMIT_PER_HOUR": canonicalize_int(
            environ.get("QUIZAPP_RATING_LIMIT_PER_HOUR", "100000" if testing else "1000"),
            "QUIZAPP_RATING_LIMIT_PER_HOUR", 1, 1_000_000),
        "RATELIMIT_STORAGE_URI": environ.get("QUIZAPP_RATE_LIMIT_STORAGE_URI") or "memory://",
        "PROXY_FIX_HOPS": canonicalize_int(
            environ.get("QUIZAPP_PROXY_FIX_HOPS", "0"), "QUIZAPP_PROXY_FIX_HOPS", 0, 5),
        # A Host header outside these names gets 400 (werkzeug builds redirects from it).
        "TRUSTED_HOSTS": canonicalize_trusted_hosts(environ.get("QUIZAPP_TRUSTED_HOSTS", "")),
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
