"""Registrations tried from one address are limited (taken names count too), in parallel too."""

from __future__ import annotations

from sqlalchemy import func, select
from webtest_support import PASSWORD, csrf_token, post_in_parallel

from quizapp.config import compute_config
from quizapp.extensions import db
from quizapp.models import RegistrationAttempt, User


def try_register(client, username: str):
    page = client.get("/register").text
    return client.post("/register", data={"csrf_token": csrf_token(page), "username": username,
                                          "password": PASSWORD, "confirm": PASSWORD})


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_an_address_gets_the_limit_of_registrations_then_waits(app, client, clock):
    app.config["REGISTER_LIMIT_PER_ADDRESS"] = 3
    assert try_register(client, "first").status_code == 302
    fresh = app.test_client()
    assert try_register(fresh, "first").status_code == 400  # a taken name counts as well
    assert try_register(fresh, "second").status_code == 302
    refused = try_register(app.test_client(), "third")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "Too many accounts were tried from your address. Try again in" in refused.text
    assert count(app, User) == 2 and count(app, RegistrationAttempt) == 3  # refusals not stored
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.1.2.3"  # another address is counted apart
    assert try_register(elsewhere, "third").status_code == 302
    clock.advance(minutes=61)
    assert try_register(app.test_client(), "fourth").status_code == 302


def test_parallel_registrations_from_one_address_stop_at_the_limit(app):
    app.config["REGISTER_LIMIT_PER_ADDRESS"] = 3
    statuses = post_in_parallel(app, [
        {"username": f"burst{n}", "password": PASSWORD, "confirm": PASSWORD}
        for n in range(12)], path="/register")
    assert set(statuses) <= {302, 429}
    assert statuses.count(302) == count(app, User) <= 3


def test_the_default_limit_outside_testing_is_ten_an_hour(tmp_path):
    config = compute_config({}, "production", str(tmp_path))
    assert (config["REGISTER_LIMIT_PER_ADDRESS"], config["REGISTER_LIMIT_WINDOW_MINUTES"]) == (
        10, 60)
    assert compute_config({"QUIZAPP_REGISTER_LIMIT_PER_ADDRESS": "3"}, "production",
                          str(tmp_path))["REGISTER_LIMIT_PER_ADDRESS"] == 3
