"""Gunicorn settings for quizapp (``gunicorn -c python:quizapp.gunicorn_config "quizapp:create_app()"``).

The Dockerfile and bench/server.py both serve with these settings; command-line flags still
override them. Worker and thread counts come from GUNICORN_WORKERS / GUNICORN_THREADS.
"""

from __future__ import annotations

import os

# gthread named explicitly: with one thread gunicorn would pick its sync worker, which closes the
# connection after every response. Two threads per worker: with more threads than cores the
# study loop spends its CPU switching between them (bench/server.py, README "Benchmarks").
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))

# gunicorn takes SCRIPT_NAME and PATH_INFO from request headers sent by a trusted forwarder,
# which by default is any client on 127.0.0.1: a "SCRIPT_NAME: //evil.example" header made every
# link and script of the page point at another host. quizapp is served at the root, so none.
forwarder_headers = ""
