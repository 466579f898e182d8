"""Production runs with its HTTPS settings (Secure cookies, HSTS) unless QUIZAPP_HTTPS=0 says
otherwise, which is for a server reached on loopback alone and is warned of at start."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from quizapp import create_app
from quizapp.config import HTTPS_OFF_WARNING, HTTPS_ON_NOTE
from quizapp.gunicorn_config import describe_https

KEY = "k" * 40


@pytest.fixture
def production(monkeypatch, tmp_path):
    monkeypatch.delenv("QUIZAPP_HTTPS", raising=False)
    monkeypatch.setenv("QUIZAPP_ENV", "production")
    monkeypatch.setenv("QUIZAPP_SECRET_KEY", KEY)
    monkeypatch.setenv("QUIZAPP_INSTANCE_PATH", str(tmp_path))
    return monkeypatch


def test_production_has_secure_cookies_and_hsts_without_being_asked(production, caplog):
    with caplog.at_level(logging.WARNING):
        app = create_app()
    config = app.config
    assert config["SESSION_COOKIE_SECURE"] and config["REMEMBER_COOKIE_SECURE"]
    assert config["PREFERRED_URL_SCHEME"] == "https" and config["WTF_CSRF_SSL_STRICT"]
    response = app.test_client().get("/login")
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "; Secure" in response.headers["Set-Cookie"]
    assert HTTPS_OFF_WARNING not in caplog.text


@pytest.mark.parametrize("value", ["", " "])
def test_an_empty_value_is_the_default(production, value):
    production.setenv("QUIZAPP_HTTPS", value)
    assert create_app().config["SESSION_COOKIE_SECURE"]


def test_production_without_https_must_be_asked_for_and_is_warned_of(production, caplog):
    production.setenv("QUIZAPP_HTTPS", "0")
    with caplog.at_level(logging.WARNING):
        app = create_app()
    assert not app.config["SESSION_COOKIE_SECURE"] and not app.config["REMEMBER_COOKIE_SECURE"]
    assert "Strict-Transport-Security" not in app.test_client().get("/login").headers
    assert HTTPS_OFF_WARNING in caplog.text


def test_development_stays_on_plain_http(production):
    production.setenv("QUIZAPP_ENV", "development")
    assert not create_app().config["SESSION_COOKIE_SECURE"]
    production.setenv("QUIZAPP_HTTPS", "1")
    assert create_app().config["SESSION_COOKIE_SECURE"]


class Log:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def info(self, message: str, *args: object) -> None:
        self.lines.append(("info", message % args))

    def warning(self, message: str, *args: object) -> None:
        self.lines.append(("warning", message % args))


def test_gunicorn_says_at_start_whether_production_has_its_https_settings():
    log = Log()
    describe_https(log, {"QUIZAPP_ENV": "production"}, [("0.0.0.0", 8000)])
    assert log.lines == [("info", f"quizapp: {HTTPS_ON_NOTE}")]
    log = Log()
    describe_https(log, {"QUIZAPP_ENV": "production", "QUIZAPP_HTTPS": "0"},
                   [("127.0.0.1", 8000), ("::1", 8000), "/run/quizapp.sock", ("0.0.0.0", 80)])
    assert log.lines == [("warning", f"quizapp: {HTTPS_OFF_WARNING}"), (
        "warning", "quizapp: QUIZAPP_HTTPS=0, yet gunicorn listens on 0.0.0.0:80, which other "
        "machines can reach")]
    log = Log()
    describe_https(log, {"QUIZAPP_ENV": "development"}, [("0.0.0.0", 8000)])
    assert log.lines == []


def test_gunicorn_start_hook_reads_its_bound_addresses(monkeypatch):
    from quizapp import gunicorn_config

    monkeypatch.setenv("QUIZAPP_ENV", "production")
    monkeypatch.setenv("QUIZAPP_HTTPS", "off")
    log = Log()
    monkeypatch.setattr(gunicorn_config.os, "umask", lambda mask: 0o022)
    gunicorn_config.on_starting(SimpleNamespace(log=log, cfg=SimpleNamespace(
        address=[("192.0.2.1", 8000)])))
    assert log.lines[-1] == ("warning", "quizapp: QUIZAPP_HTTPS=0, yet gunicorn listens on "
                             "192.0.2.1:8000, which other machines can reach")
