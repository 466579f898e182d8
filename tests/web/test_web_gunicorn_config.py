"""The gunicorn settings the Dockerfile and the server benchmark share."""

from __future__ import annotations

import importlib
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str, headers: dict[str, str]) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_served_pages_ignore_a_script_name_header_and_are_logged_with_their_duration(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:quizapp.gunicorn_config",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--access-logfile",
         str(tmp_path / "access.log"), "quizapp:create_app()"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=(tmp_path / "error.log").open("w"),
        env={"PATH": "/usr/bin:/bin", "QUIZAPP_ENV": "testing", "HOME": str(tmp_path),
             "QUIZAPP_INSTANCE_PATH": str(tmp_path)})
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                status, page = fetch(f"{base}/login", {})
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200 and 'href="/static/app.css"' in page
        forged = {"SCRIPT_NAME": "//evil.example"}
        status, page = fetch(f"{base}/login", forged)
        assert status == 200 and "evil.example" not in page
        status, page = fetch(f"{base}//evil.example/login", forged)
        assert "evil.example/static" not in page
    finally:
        server.terminate()
        server.wait(timeout=30)
    # The access log ends each line with the request's duration.
    logins = [line for line in (tmp_path / "access.log").read_text().splitlines()
              if '"GET /login HTTP/1.1" 200' in line]
    assert len(logins) >= 2 and all(re.search(r" \d+ms$", line) for line in logins), logins
    # The worker ran its warm-up (quizapp.web.rendering.warmup) before serving: on this empty database it
    # could not render the cards ahead, said so, and served all the same.
    errors = (tmp_path / "error.log").read_text()
    assert "warm-up: cards not rendered ahead, the database could not be read" in errors, errors


@pytest.mark.parametrize(("name", "value"), [
    ("GUNICORN_WORKERS", "abc"), ("GUNICORN_WORKERS", "0"), ("GUNICORN_THREADS", "0"),
    ("GUNICORN_THREADS", "65"), ("GUNICORN_THREADS", ""),
])
def test_a_bad_count_stops_at_config_load_naming_the_variable_and_range(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    try:
        with pytest.raises(ValueError) as caught:
            importlib.reload(gunicorn_config)
    finally:
        monkeypatch.delenv(name)
        importlib.reload(gunicorn_config)
    assert str(caught.value) == f"{name} must be a whole number from 1 to 64, not {value!r}"


def test_gunicorn_check_config_refuses_zero_threads_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", "python:quizapp.gunicorn_config",
         "--check-config", "quizapp:create_app()"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "QUIZAPP_ENV": "testing", "GUNICORN_THREADS": "0",
             "QUIZAPP_INSTANCE_PATH": str(tmp_path)})
    assert result.returncode == 1
    assert result.stderr.strip() == ("Error: GUNICORN_THREADS must be a whole number from 1 to 64, "
                                     "not '0'"), result.stderr
