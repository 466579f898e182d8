"""Gunicorn settings for quizapp (``gunicorn -c python:quizapp.gunicorn_config "quizapp:create_app()"``).

The Dockerfile and bench/server.py both serve with these settings; command-line flags still
override them. Worker and thread counts come from GUNICORN_WORKERS / GUNICORN_THREADS (1 to 64
each; 2 and 2 when unset).
"""

from __future__ import annotations

import ipaddress
import os

from quizapp.config import HTTPS_OFF_WARNING, HTTPS_ON_NOTE, ConfigError, compute_https
from quizapp.private_files import PRIVATE_UMASK
from quizapp.web.rendering.warmup import warm_worker

# Either count outside this range is a typo, and gunicorn itself would only fail later: with 0
# threads --check-config passes and then every worker crashes as it boots.
COUNT_RANGE = (1, 64)


def read_count(name: str, default: str) -> int:
    """A worker or thread count from the environment; a bad value stops gunicorn at config load
    with one line naming the variable (gunicorn prints the exception's message and exits 1)."""
    value = os.environ.get(name, default)
    low, high = COUNT_RANGE
    try:
        count = int(value)
    except ValueError:
        count = None
    if count is None or not low <= count <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return count


# gthread named explicitly: with one thread gunicorn would pick its sync worker, which closes the
# connection after every response. Two threads per worker: with more threads than cores the
# study loop spends its CPU switching between them (bench/server.py, README "Benchmarks").
worker_class = "gthread"
workers = read_count("GUNICORN_WORKERS", "2")
threads = read_count("GUNICORN_THREADS", "2")

# gunicorn takes SCRIPT_NAME and PATH_INFO from request headers sent by a trusted forwarder,
# which by default is any client on 127.0.0.1: a "SCRIPT_NAME: //evil.example" header made every
# link and script of the page point at another host. quizapp is served at the root, so none.
forwarder_headers = ""

# The access log (the Dockerfile sends it to stdout) with each request's duration at the end.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'

# The explorer's form sends its chain by GET (a link that can be shared): a chain of 2,000
# characters, the app's own limit, percent-encodes to up to ~6,000 bytes ("[", "," and " " take
# three), past gunicorn's default 4,094-byte request line, which answered its bare HTML 414
# instead of the app's message (or JSON on /api/). 8,190 is the most gunicorn allows.
limit_request_line = 8190


# gunicorn's own files (a unix socket, the worker heartbeat files) with this mask too.
umask = PRIVATE_UMASK


def on_starting(server) -> None:  # noqa: ANN001 (gunicorn's Arbiter)
    """In the master, before any worker: everything the app writes (the SQLite database, its
    -wal and -shm) is for this account only (quizapp.private_files); gunicorn's own umask
    setting applies only where it daemonizes. Then say once whether production runs with its
    HTTPS settings."""
    os.umask(PRIVATE_UMASK)
    describe_https(server.log, os.environ, server.cfg.address)


def reachable_from_elsewhere(address: tuple[str, int] | str) -> bool:
    """Whether a bound address (gunicorn's: (host, port), or a unix socket's path) takes
    connections from other machines."""
    if isinstance(address, str):
        return False
    host = address[0]
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a host name


def describe_https(log, environ, addresses: list) -> None:  # noqa: ANN001 (gunicorn's log)
    """Production's HTTPS settings in gunicorn's log at start; with them off, a warning, and
    another for each address bound beyond loopback."""
    env_name = environ.get("QUIZAPP_ENV") or "development"
    try:
        https = compute_https(environ, env_name)
    except ConfigError:
        return  # the app stops at start with its own message
    if env_name != "production":
        return
    if https:
        log.info("quizapp: %s", HTTPS_ON_NOTE)
        return
    log.warning("quizapp: %s", HTTPS_OFF_WARNING)
    for address in addresses:
        if reachable_from_elsewhere(address):
            log.warning("quizapp: QUIZAPP_HTTPS=0, yet gunicorn listens on %s:%s, which other "
                        "machines can reach", *address)


def post_worker_init(worker) -> None:  # noqa: ANN001 (gunicorn's Worker)
    """Each worker, once its app is loaded and before its first request: caches filled, heap
    frozen (quizapp.web.rendering.warmup)."""
    warm_worker(worker.wsgi)
