"""The gunicorn settings the Dockerfile and the server benchmark share."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import quizapp.gunicorn_config as gunicorn_config

ROOT = Path(__file__).resolve().parents[2]


def test_gthread_two_by_two_by_default_and_counts_from_the_environment(monkeypatch):
    monkeypatch.delenv("GUNICORN_WORKERS", raising=False)
    monkeypatch.delenv("GUNICORN_THREADS", raising=False)
    config = importlib.reload(gunicorn_config)
    assert (config.worker_class, config.workers, config.threads) == ("gthread", 2, 2)
    monkeypatch.setenv("GUNICORN_WORKERS", "3")
    monkeypatch.setenv("GUNICORN_THREADS", "1")
    config = importlib.reload(gunicorn_config)
    # One thread stays gthread (keep-alive), never gunicorn's sync worker.
    assert (config.worker_class, config.workers, config.threads) == ("gthread", 3, 1)
    monkeypatch.delenv("GUNICORN_WORKERS")
    monkeypatch.delenv("GUNICORN_THREADS")
    importlib.reload(gunicorn_config)


def test_gunicorn_accepts_the_config_and_the_app_factory(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", "python:quizapp.gunicorn_config",
         "--check-config", "quizapp:create_app()"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "QUIZAPP_ENV": "testing",
             "QUIZAPP_INSTANCE_PATH": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_dockerfile_and_the_benchmark_use_it():
    assert "--config python:quizapp.gunicorn_config" in (ROOT / "Dockerfile").read_text()
    assert '"python:quizapp.gunicorn_config"' in (ROOT / "bench" / "server.py").read_text()
