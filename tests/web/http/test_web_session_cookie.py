"""The session interface reuses its serializer and stays wire-compatible with Flask's own."""

from __future__ import annotations

from flask import Flask, session
from flask.sessions import SecureCookieSessionInterface

from quizapp.web.http.session_cookie import (
    ReusedSerializerSessionInterface,
    register_session_cookie,
)


def make_app(secret_key: str, fallbacks: list[str] | None = None) -> Flask:
    app = Flask("session-cookie-test")
    app.config.update(SECRET_KEY=secret_key, SECRET_KEY_FALLBACKS=fallbacks or [])

    @app.post("/put/<value>")
    def put(value: str) -> str:
        session["value"] = value
        return "ok"

    @app.get("/get")
    def get() -> str:
        return session.get("value", "<none>")

    return app


def carry_cookie(source: Flask, target: Flask) -> str:
    """Write a session on ``source``, read it back on ``target`` with the same cookie."""
    writer = source.test_client()
    writer.post("/put/seven")
    cookie = writer.get_cookie("session")
    assert cookie is not None
    reader = target.test_client()
    reader.set_cookie("session", cookie.value)
    return reader.get("/get").text


def test_cookies_pass_both_ways_between_this_interface_and_flasks():
    ours, stock = make_app("k1"), make_app("k1")
    register_session_cookie(ours)
    assert isinstance(stock.session_interface, SecureCookieSessionInterface)
    assert carry_cookie(ours, stock) == "seven"
    assert carry_cookie(stock, ours) == "seven"


def test_a_tampered_or_foreign_cookie_is_an_empty_session():
    ours, other = make_app("k1"), make_app("another key")
    register_session_cookie(ours)
    register_session_cookie(other)
    assert carry_cookie(other, ours) == "<none>"
    client = ours.test_client()
    client.post("/put/seven")
    value = client.get_cookie("session").value
    client.set_cookie("session", value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert client.get("/get").text == "<none>"


def test_one_serializer_per_key_set_and_rotation_keeps_old_sessions():
    app = make_app("old")
    register_session_cookie(app)
    interface: ReusedSerializerSessionInterface = app.session_interface
    first = interface.get_signing_serializer(app)
    assert interface.get_signing_serializer(app) is first
    client = app.test_client()
    client.post("/put/kept")
    # Rotate: the new key signs, the old one (a fallback) still opens existing sessions.
    app.config.update(SECRET_KEY="new", SECRET_KEY_FALLBACKS=["old"])
    app.secret_key = "new"
    assert interface.get_signing_serializer(app) is not first
    assert client.get("/get").text == "kept"
    # Dropping the fallback logs the old sessions out.
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get("/get").text == "<none>"


def test_no_secret_key_means_no_session_serializer():
    app = make_app("")
    register_session_cookie(app)
    assert app.session_interface.get_signing_serializer(app) is None
