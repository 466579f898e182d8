"""Configuration from QUIZAPP_* variables: keys, password hash, engine options, SQLite pragmas."""

from __future__ import annotations

import io
import sys

import pytest
from flask_migrate import upgrade
from sqlalchemy import text
from webtest_support import MIGRATIONS

from quizapp import create_app
from quizapp.config import ConfigError, compute_engine_options
from quizapp.extensions import db


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("QUIZAPP_ENV", "QUIZAPP_SECRET_KEY", "QUIZAPP_SECRET_KEY_FILE",
                 "QUIZAPP_DATABASE_URL", "QUIZAPP_HTTPS", "QUIZAPP_INSTANCE_PATH",
                 "QUIZAPP_PASSWORD_HASH", "QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS",
                 "QUIZAPP_DB_STATEMENT_TIMEOUT_MS", "QUIZAPP_DB_POOL_TIMEOUT_SECONDS",
                 "QUIZAPP_DB_POOL_SIZE", "QUIZAPP_DB_MAX_OVERFLOW", "QUIZAPP_TRUSTED_HOSTS",
                 "QUIZAPP_SQLITE_SYNCHRONOUS"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_production_refuses_to_start_without_a_secret_key(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_ENV", "production")
    with pytest.raises(ConfigError, match="QUIZAPP_SECRET_KEY"):
        create_app({"INSTANCE_PATH": str(tmp_path)})
    assert not (tmp_path / "secret_key").exists()


def test_production_takes_the_key_from_the_environment_or_a_file(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_ENV", "production")
    clean_env.setenv("QUIZAPP_SECRET_KEY", "k" * 40)
    assert create_app({"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"] == "k" * 40
    clean_env.delenv("QUIZAPP_SECRET_KEY")
    key_file = tmp_path / "key.txt"
    key_file.write_text("f" * 48 + "\n")
    clean_env.setenv("QUIZAPP_SECRET_KEY_FILE", str(key_file))
    assert create_app({"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"] == "f" * 48
    key_file.write_text("short")
    with pytest.raises(ConfigError, match="fewer than 32"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


@pytest.mark.parametrize("key", ["a", " " * 40, "k" * 31 + "   "])
def test_a_short_or_blank_key_in_the_environment_is_refused(clean_env, tmp_path, key):
    """The file path always had a 32-character floor; the variable now has the same one."""
    clean_env.setenv("QUIZAPP_ENV", "production")
    clean_env.setenv("QUIZAPP_SECRET_KEY", key)
    with pytest.raises(ConfigError, match="use at least 32"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


def test_an_empty_database_url_means_the_default(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_DATABASE_URL", "")
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'quizapp.db'}"


def test_development_generates_a_key_once_and_reuses_it(clean_env, tmp_path):
    first = create_app({"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"]
    second = create_app({"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"]
    assert first == second == (tmp_path / "secret_key").read_text().strip()
    assert len(first) >= 32
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_unknown_environment_name_is_an_error(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_ENV", "staging")
    with pytest.raises(ConfigError, match="QUIZAPP_ENV"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


def test_database_url_and_https_come_from_the_environment(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_DATABASE_URL", f"sqlite:///{tmp_path}/other.db")
    clean_env.setenv("QUIZAPP_HTTPS", "1")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("/other.db")
    assert app.config["SESSION_COOKIE_SECURE"] and app.config["REMEMBER_COOKIE_SECURE"]
    clean_env.setenv("QUIZAPP_HTTPS", "maybe")
    with pytest.raises(ConfigError, match="QUIZAPP_HTTPS"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})


def test_in_memory_sqlite_urls_start_migrate_and_answer_health_checks(clean_env, tmp_path):
    """Pool sizing is for file and server databases; in-memory SQLite (one shared connection)
    used to fail in create_engine on those arguments."""
    for url in ("sqlite://", "sqlite:///:memory:"):
        clean_env.setenv("QUIZAPP_DATABASE_URL", url)
        from_environment = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
        clean_env.delenv("QUIZAPP_DATABASE_URL")
        from_override = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                                    "SQLALCHEMY_DATABASE_URI": url})
        for app in (from_environment, from_override):
            assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {}
            with app.app_context():
                upgrade(directory=MIGRATIONS)
            assert app.test_client().get("/healthz").status_code == 200


def test_file_and_server_databases_get_a_sized_pool_and_bad_urls_a_clear_error(clean_env, tmp_path):
    for url in (f"sqlite:///{tmp_path}/pool.db", "postgresql+psycopg://u:p@db.example/quizapp"):
        options = compute_engine_options(url)
        assert (options["pool_size"], options["max_overflow"], options["pool_timeout"]) == (
            10, 40, 10)
    clean_env.setenv("QUIZAPP_DATABASE_URL", "not a url at all")
    with pytest.raises(ConfigError, match="QUIZAPP_DATABASE_URL is not a database URL"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})


def test_postgresql_gets_timeouts_and_a_ping_and_sqlite_neither(clean_env, tmp_path):
    """A database that accepts connections and never answers must not hold a thread for ever;
    a connection that died in a database restart is replaced at checkout, not used."""
    postgresql = compute_engine_options("postgresql+psycopg://u:p@db.example/quizapp")
    assert postgresql["pool_pre_ping"] is True
    assert postgresql["connect_args"] == {"connect_timeout": 5,
                                          "options": "-c statement_timeout=30000"}
    sqlite = compute_engine_options(f"sqlite:///{tmp_path}/pool.db")
    assert "pool_pre_ping" not in sqlite and "connect_args" not in sqlite
    clean_env.setenv("QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", "3")
    clean_env.setenv("QUIZAPP_DB_STATEMENT_TIMEOUT_MS", "0")
    clean_env.setenv("QUIZAPP_DB_POOL_TIMEOUT_SECONDS", "7")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u:p@db.example/quizapp"})
    options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options["connect_args"] == {"connect_timeout": 3}  # 0: no statement timeout sent
    assert options["pool_timeout"] == 7
    assert (options["pool_size"], options["max_overflow"]) == (10, 40)  # the defaults


@pytest.mark.parametrize("url", ["postgresql+psycopg://u:p@db.example/quizapp",
                                 "sqlite:///{tmp}/pool.db"])
def test_the_pool_is_sized_by_the_environment(clean_env, tmp_path, url):
    """Each gunicorn worker has its own pool: workers x (size + overflow) must fit under
    PostgreSQL's max_connections, or requests fail (4 x 8 threads, 20 slots)."""
    clean_env.setenv("QUIZAPP_DB_POOL_SIZE", "3")
    clean_env.setenv("QUIZAPP_DB_MAX_OVERFLOW", "0")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path),
                      "SQLALCHEMY_DATABASE_URI": url.format(tmp=tmp_path)})
    options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert (options["pool_size"], options["max_overflow"]) == (3, 0)
    with app.app_context():  # the engine is built with them (no connection is made here)
        assert (db.engine.pool.size(), db.engine.pool._max_overflow) == (3, 0)


def test_timeouts_written_in_the_database_url_win(clean_env):
    options = compute_engine_options("postgresql+psycopg://u:p@db.example/quizapp"
                                     "?connect_timeout=20&options=-c%20search_path%3Dquiz")
    assert options["connect_args"] == {
        "options": "-c search_path=quiz -c statement_timeout=30000"}
    options = compute_engine_options("postgresql+psycopg://u:p@db.example/quizapp"
                                     "?options=-c%20statement_timeout%3D5s")
    assert options["connect_args"] == {"connect_timeout": 5}


@pytest.mark.parametrize(("name", "value"), [
    ("QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", "1"),
    ("QUIZAPP_DB_CONNECT_TIMEOUT_SECONDS", "soon"),
    ("QUIZAPP_DB_STATEMENT_TIMEOUT_MS", "-1"),
    ("QUIZAPP_DB_POOL_TIMEOUT_SECONDS", "0"),
    ("QUIZAPP_DB_POOL_SIZE", "0"),
    ("QUIZAPP_DB_POOL_SIZE", "many"),
    ("QUIZAPP_DB_MAX_OVERFLOW", "-1"),
])
def test_bad_database_timeouts_are_one_line_errors(clean_env, tmp_path, name, value):
    clean_env.setenv(name, value)
    with pytest.raises(ConfigError, match=name) as raised:
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("method", ["nonsense", "md5", "pbkdf2:sha256:abc", "scrypt:1:1:1",
                                    "scrypt:16384:8", "pbkdf2:nonsense"])
def test_a_password_hash_werkzeug_cannot_use_stops_the_start(clean_env, tmp_path, method):
    """It used to start, and then every registration failed with a 500."""
    clean_env.setenv("QUIZAPP_PASSWORD_HASH", method)
    with pytest.raises(ConfigError, match="QUIZAPP_PASSWORD_HASH .* e.g. scrypt") as raised:
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert "\n" not in str(raised.value)


def test_a_valid_password_hash_is_used_and_production_refuses_a_cheap_one(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_PASSWORD_HASH", "pbkdf2:sha256:1000")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert app.config["PASSWORD_HASH_METHOD"] == "pbkdf2:sha256:1000"
    clean_env.setenv("QUIZAPP_ENV", "production")
    clean_env.setenv("QUIZAPP_SECRET_KEY", "k" * 40)
    for cheap in ("pbkdf2:sha256:1000", "scrypt:1024:8:1"):
        clean_env.setenv("QUIZAPP_PASSWORD_HASH", cheap)
        with pytest.raises(ConfigError, match="too cheap for production"):
            create_app({"INSTANCE_PATH": str(tmp_path)})
    for strong in ("scrypt:16384:8:1", "pbkdf2:sha256:600000", "", "scrypt"):
        clean_env.setenv("QUIZAPP_PASSWORD_HASH", strong)
        app = create_app({"INSTANCE_PATH": str(tmp_path)})
        assert app.config["PASSWORD_HASH_METHOD"] == (strong or "scrypt")


def test_a_key_file_that_is_not_utf8_is_a_one_line_error(clean_env, tmp_path):
    key_file = tmp_path / "key.bin"
    key_file.write_bytes(b"\xff\xfe" + b"k" * 40)
    clean_env.setenv("QUIZAPP_SECRET_KEY_FILE", str(key_file))
    with pytest.raises(ConfigError, match=f"QUIZAPP_SECRET_KEY_FILE {key_file} is not UTF-8"):
        create_app({"INSTANCE_PATH": str(tmp_path)})
    clean_env.delenv("QUIZAPP_SECRET_KEY_FILE")
    (tmp_path / "secret_key").write_bytes(b"\xff\xfe" + b"k" * 40)  # development's own key
    with pytest.raises(ConfigError, match=f"{tmp_path / 'secret_key'} is not UTF-8 text; delete"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


def test_default_database_lives_in_the_instance_folder(clean_env, tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path}/quizapp.db"
    assert app.config["SESSION_COOKIE_HTTPONLY"] and app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert not app.config["SESSION_COOKIE_SECURE"]


@pytest.mark.sqlite_only
def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(app):
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 10_000


@pytest.mark.parametrize("environment, variable, level", [
    ("production", None, 2), ("development", None, 2), ("testing", None, 1),
    ("production", "normal", 1), ("development", "EXTRA", 3), ("testing", "full", 2)])
def test_sqlite_commits_are_synced_to_disk_unless_configured_otherwise(
        clean_env, tmp_path, environment, variable, level):
    """synchronous=FULL (2) syncs the WAL at every commit: none acknowledged is lost at a power
    cut. NORMAL (1) only at checkpoints; testing's databases are thrown away."""
    clean_env.setenv("QUIZAPP_ENV", environment)
    clean_env.setenv("QUIZAPP_SECRET_KEY", "k" * 40)
    if variable:
        clean_env.setenv("QUIZAPP_SQLITE_SYNCHRONOUS", variable)
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == level
        db.engine.dispose()


def test_a_synchronous_level_sqlite_would_not_keep_is_refused(clean_env, tmp_path):
    clean_env.setenv("QUIZAPP_SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ConfigError, match="QUIZAPP_SQLITE_SYNCHRONOUS must be one of NORMAL, "
                                          "FULL, EXTRA, not 'OFF'"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


def test_trusted_hosts_refuse_another_host_header_and_keep_the_machines_own(clean_env, tmp_path):
    """Werkzeug builds redirects (a double-slash path's, for one) from the Host header: with
    QUIZAPP_TRUSTED_HOSTS set, a request naming another host is refused instead of echoed."""
    client = create_app({"INSTANCE_PATH": str(tmp_path)}).test_client()
    assert client.get("/explorer", headers={"Host": "evil.example"}).status_code == 200
    clean_env.setenv("QUIZAPP_TRUSTED_HOSTS", " Quiz.Example.com, .example.org ")
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["TRUSTED_HOSTS"] == ["quiz.example.com", ".example.org", "127.0.0.1",
                                           "localhost", "::1"]
    client = app.test_client()
    for host, status in (("evil.example", 400), ("quiz.example.com", 200),
                         ("quiz.example.com:8000", 200), ("a.example.org", 200),
                         ("127.0.0.1:8000", 200), ("localhost", 200)):
        assert client.get("/explorer", headers={"Host": host}).status_code == status, host
    refused = client.get("/login", headers={"Host": "evil.example"})
    assert refused.text == "400: This server does not answer for that host name.\n"
    redirect = client.get("//evil.example/login", headers={"Host": "evil.example"})
    assert redirect.status_code == 400 and "evil.example" not in redirect.headers.get(
        "Location", "")


@pytest.mark.parametrize("trusted", ["", "quiz.example.com"])
def test_a_host_header_that_is_no_host_name_gets_a_plain_400(clean_env, tmp_path, trusted):
    """``a..b`` or a 64-character label cannot be encoded (werkzeug's BadHost): the HTML error
    page's links could not be built either, which ended in a 500 and two tracebacks."""
    clean_env.setenv("QUIZAPP_TRUSTED_HOSTS", trusted)
    client = create_app({"INSTANCE_PATH": str(tmp_path)}).test_client()
    # With a list, werkzeug refuses the name as not on it before it tries to encode it.
    message = ("This server does not answer for that host name." if trusted else
               "The Host header is not a host name.")
    for host in ("a..b", ".", "a" * 64, "x." + "b" * 70):
        for path in ("/login", "/no-such-page", "/static/app.css"):
            refused = client.get(path, headers={"Host": host})
            assert refused.status_code == 400, (host, path)
            assert refused.text == f"400: {message}\n", (host, path)
    api = client.get("/api/explain?expr=x", headers={"Host": "a..b"})
    assert api.status_code == 400 and api.json["error"] == message


def call_with_host(app, path: str, host: str) -> tuple[str, str | None]:
    """The app called as a server would (the test client itself cannot build the URL of a
    Host such as xn--zz): the status line and the Location header."""
    path, _, query = path.partition("?")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query,
               "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
               "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": host, "wsgi.version": (1, 0),
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(), "wsgi.errors": sys.stderr,
               "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False}
    started: dict = {}
    b"".join(app(environ, lambda status, headers, exc_info=None: started.update(
        status=status, headers=dict(headers))))
    return started["status"], started["headers"].get("Location")


@pytest.mark.parametrize("host", ["xn--zz", "quiz.xn--zz.example", "xn--zz:5640"])
def test_a_host_with_broken_punycode_is_sent_to_log_in_not_a_500(tmp_path, host):
    """Sending a visitor to log in built the absolute URL, whose host decoding raised."""
    app = create_app({"INSTANCE_PATH": str(tmp_path), "TESTING": True})
    status, location = call_with_host(app, "/study/history?page=2", host)
    assert status.startswith("302") and location == "/login?next=%2Fstudy%2Fhistory%3Fpage%3D2"


@pytest.mark.parametrize("value", ["quiz example.com", "quiz.example.com/path", "ünïcode.example",
                                   "x" * 254])
def test_a_trusted_host_that_is_not_a_host_name_is_a_one_line_error(clean_env, tmp_path, value):
    clean_env.setenv("QUIZAPP_TRUSTED_HOSTS", f"quiz.example.com,{value}")
    with pytest.raises(ConfigError, match="QUIZAPP_TRUSTED_HOSTS holds"):
        create_app({"INSTANCE_PATH": str(tmp_path)})


def read_key_after(barrier, instance: str, results) -> None:
    from quizapp.config import load_or_create_secret_key

    barrier.wait()
    try:
        results.put(load_or_create_secret_key(instance))
    except ConfigError as exc:
        results.put(f"error: {exc}")


@pytest.mark.parametrize("attempt", range(5))
def test_processes_starting_at_once_share_one_development_key(tmp_path, attempt):
    """`make run` and a `quizapp` command (or replicas) starting together on a new instance/:
    one key is written, every process reads it whole (never an empty, half-made file)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(8), context.Queue()
    workers = [context.Process(target=read_key_after, args=(barrier, str(tmp_path), results))
               for _ in range(8)]
    for worker in workers:
        worker.start()
    keys = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert len(set(keys)) == 1 and len(keys[0]) == 64, keys
    assert sorted(path.name for path in tmp_path.iterdir()) == ["secret_key"]
