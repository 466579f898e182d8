"""Security headers: on every response, once each, without overriding what a view set."""

from __future__ import annotations

from flask import Flask, Response
from webtest_support import csrf_token, register

from quizapp.web.http.runtime import CONTENT_SECURITY_POLICY, register_headers

EXPECTED = {"Content-Security-Policy": CONTENT_SECURITY_POLICY, "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"}


def make_app(*, https: bool) -> Flask:
    app = Flask("headers-test")
    app.config["SESSION_COOKIE_SECURE"] = https
    register_headers(app)
    app.add_url_rule("/plain", "plain", lambda: "ok")

    def own_policy() -> Response:
        response = Response("framed")
        response.headers["content-security-policy"] = "frame-ancestors 'self'"
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
        return response

    app.add_url_rule("/own", "own", own_policy)
    app.add_url_rule("/missing", "missing", lambda: ("gone", 404))
    return app


def test_every_response_gets_each_header_once():
    client = make_app(https=False).test_client()
    for path in ("/plain", "/missing", "/no-such-route"):
        headers = client.get(path).headers
        for name, value in EXPECTED.items():
            assert headers.getlist(name) == [value], (path, name)
        assert "Strict-Transport-Security" not in headers


def test_a_view_keeps_the_headers_it_set_whatever_their_case():
    headers = make_app(https=False).test_client().get("/own").headers
    assert headers.getlist("Content-Security-Policy") == ["frame-ancestors 'self'"]
    assert headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert headers.getlist("Referrer-Policy") == ["same-origin"]


def test_https_adds_strict_transport_security():
    headers = make_app(https=True).test_client().get("/plain").headers
    assert headers.getlist("Strict-Transport-Security") == ["max-age=31536000"]


def test_signed_in_pages_are_not_stored_and_public_ones_may_be(client, bank):
    assert "Cache-Control" not in client.get("/questions").headers
    register(client, "sam")
    for path in ("/study", "/study/history", "/settings", "/questions", "/settings/reviews.csv",
                 "/settings/schedule.csv"):
        response = client.get(path)
        response.close()  # a CSV left unread kept its streamed request context open
        assert response.status_code == 200
        assert response.headers.getlist("Cache-Control") == ["no-store"], path
    # Files keep their own caching rules, signed in or not.
    assert client.get("/static/app.css").headers["Cache-Control"] != "no-store"
    logout = client.post("/logout", data={"csrf_token": csrf_token(client.get("/settings").text)})
    assert logout.status_code in (302, 303)
    assert "Cache-Control" not in client.get("/questions").headers
