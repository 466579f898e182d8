"""Accounts: register, log in, log out, CSRF on every form, throttling, cookies, sessions."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from webtest_support import PASSWORD, change_password, csrf_token, login, logout, register

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import LoginAttempt, User


def count_users(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(User))


def test_register_logs_in_and_hashes_with_scrypt(app, client):
    response = register(client, "Alice")
    assert response.status_code == 302 and response.headers["Location"] == "/study"
    assert client.get("/study").status_code == 200
    with app.app_context():
        user = db.session.scalar(select(User))
        assert user.username == "alice"
        assert user.password_hash.startswith("scrypt:") and PASSWORD not in user.password_hash


def test_register_rejects_a_taken_name_case_insensitively(app, client):
    register(client, "alice")
    logout(client)
    response = register(client, "ALICE")
    assert response.status_code == 400
    assert "taken" in response.text
    assert count_users(app) == 1


def test_register_validates_fields_and_keeps_what_was_typed(app, client):
    page = client.get("/register")
    response = client.post("/register", data={
        "csrf_token": csrf_token(page.text), "username": "bob", "password": "short",
        "confirm": "other"})
    assert response.status_code == 400
    assert 'value="bob"' in response.text
    assert "differ" in response.text
    assert "A password is 8 to 200 characters long." in response.text  # not WTForms' "Field..."
    bad_name = register(client, "has space")
    assert bad_name.status_code == 400
    spaces = client.post("/register", data={
        "csrf_token": csrf_token(page.text), "username": "bob", "password": "    ",
        "confirm": "    "})
    assert spaces.status_code == 400
    assert spaces.text.count("Type a password; spaces alone do not make one.") == 1
    assert "Type the same password again." in spaces.text
    assert "This field is required" not in spaces.text
    assert count_users(app) == 0


def test_account_forms_say_what_is_wrong_in_their_own_words(app, client):
    # WTForms' defaults ("This field is required.", "Field must be between 3 and 40 characters
    # long.") name no field; each of these forms says which one and what it wants.
    page = client.get("/register")
    short = client.post("/register", data={
        "csrf_token": csrf_token(page.text), "username": "ab", "password": PASSWORD,
        "confirm": PASSWORD})
    assert short.status_code == 400 and 'value="ab"' in short.text
    assert "A username has 3 to 40 characters." in short.text
    empty = client.post("/register", data={
        "csrf_token": csrf_token(page.text), "username": "", "password": PASSWORD,
        "confirm": PASSWORD})
    assert empty.status_code == 400 and "Type a username." in empty.text
    login_page = client.get("/login")
    blank = client.post("/login", data={"csrf_token": csrf_token(login_page.text),
                                         "username": "", "password": ""})
    assert blank.status_code == 400
    assert "Type your username." in blank.text and "Type your password." in blank.text
    register(client, "carol")
    settings = client.get("/settings")
    no_current = client.post("/settings/password", data={
        "csrf_token": csrf_token(settings.text), "current": "", "new": PASSWORD + "2",
        "confirm": PASSWORD + "2"})
    assert no_current.status_code == 400 and "Type your current password." in no_current.text
    for response in (short, empty, blank, no_current):
        assert "This field is required" not in response.text
        assert "Field must be" not in response.text


def test_forms_without_or_with_a_wrong_csrf_token_are_refused(app, client):
    data = {"username": "mallory", "password": PASSWORD, "confirm": PASSWORD}
    missing = client.post("/register", data=data)
    assert missing.status_code == 400 and "expired" in missing.text
    client.get("/register")
    wrong = client.post("/register", data={**data, "csrf_token": "forged"})
    assert wrong.status_code == 400
    assert count_users(app) == 0
    login_missing = client.post("/login", data={"username": "x", "password": "y"})
    assert login_missing.status_code == 400


def test_login_logout_and_login_required_pages(client):
    register(client, "carol")
    logout_response = logout(client)
    assert logout_response.status_code == 302
    study = client.get("/study")
    assert study.status_code == 302 and "/login" in study.headers["Location"]
    bad = login(client, "carol", "wrong password")
    assert bad.status_code == 401 and "do not match" in bad.text
    good = login(client, "carol")
    assert good.status_code == 302
    assert client.get("/study").status_code == 200


def test_logout_needs_post_with_csrf(client):
    register(client, "dave")
    assert client.get("/logout").status_code == 405
    assert client.post("/logout", data={}).status_code == 400
    assert client.get("/study").status_code == 200


def test_login_redirects_only_to_local_paths(client):
    register(client, "erin")
    logout(client)
    page = client.get("/login?next=/settings")
    ok = client.post("/login?next=/settings", data={
        "csrf_token": csrf_token(page.text), "username": "erin", "password": PASSWORD})
    assert ok.headers["Location"] == "/settings"
    logout(client)
    page = client.get("/login")
    evil = client.post("/login?next=https://evil.example/", data={
        "csrf_token": csrf_token(page.text), "username": "erin", "password": PASSWORD})
    assert evil.headers["Location"] == "/study"


def test_failed_logins_are_limited_per_account(app, client, clock):
    register(client, "frank")
    logout(client)
    for _ in range(5):
        assert login(client, "frank", "nope").status_code == 401
    blocked = login(client, "frank")  # even the right password waits
    assert blocked.status_code == 429
    assert "Too many failed logins for this account" in blocked.text
    assert int(blocked.headers["Retry-After"]) > 0
    clock.advance(minutes=16)
    assert login(client, "frank").status_code == 302


def test_failed_logins_are_limited_per_address(app, client):
    with app.app_context():
        app.config["LOGIN_LIMIT_PER_ADDRESS"] = 3
    for name in ("u1", "u2", "u3"):
        assert login(client, name, "whatever").status_code == 401
    blocked = login(client, "u4", "whatever")
    assert blocked.status_code == 429 and "from your address" in blocked.text
    other = app.test_client()
    other_page = other.get("/login")
    response = other.post("/login", environ_base={"REMOTE_ADDR": "10.9.9.9"}, data={
        "csrf_token": csrf_token(other_page.text), "username": "u4", "password": "whatever"})
    assert response.status_code == 401  # another address is judged on its own


def test_attempts_are_stored_in_the_database(app, client):
    login(client, "ghost", "nope")
    with app.app_context():
        attempt = db.session.scalar(select(LoginAttempt))
        assert attempt.username == "ghost" and attempt.succeeded is False
        assert attempt.address == "127.0.0.1"


def test_session_cookie_is_httponly_and_samesite(client):
    response = register(client, "gina")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_secure_cookies_when_served_over_https(app, client):
    app.config["SESSION_COOKIE_SECURE"] = True
    response = register(client, "hank")
    assert "Secure" in response.headers["Set-Cookie"]


def test_password_change_signs_out_other_sessions(app, client):
    register(client, "ivy")
    other = app.test_client()
    login(other, "ivy")
    assert other.get("/study").status_code == 200
    changed = change_password(client, PASSWORD)
    assert changed.status_code == 303
    assert client.get("/study").status_code == 200
    assert other.get("/study").status_code == 302
    assert login(other, "ivy", "a brand new secret").status_code == 302


def test_wrong_current_password_changes_nothing(app, client):
    register(client, "jack")
    response = change_password(client, "not it", "another secret")
    assert response.status_code == 400 and "not right" in response.text
    logout(client)
    assert login(client, "jack").status_code == 302


def test_oversized_bodies_get_413_with_a_message(app, client):
    page = client.get("/register")
    response = client.post("/register", data={
        "csrf_token": csrf_token(page.text), "username": "x" * 70_000, "password": PASSWORD,
        "confirm": PASSWORD})
    assert response.status_code == 413
    assert "too much data" in response.text
    assert count_users(app) == 0


def test_overlong_username_is_a_validation_error(app, client):
    response = register(client, "a" * 41)
    assert response.status_code == 400 and "A username has 3 to 40 characters." in response.text
    assert count_users(app) == 0


@pytest.mark.parametrize("typed", ["  ab  ", " ab", "ab\t"])
def test_a_username_too_short_once_trimmed_is_refused_on_its_field(app, client, typed):
    """The form counts the spaces around the name; the accounts service trims them first."""
    response = register(client, typed)
    assert response.status_code == 400
    assert ('<p class="error" id="username-error-1">A username has 3 to 40 characters.</p>'
            in response.text)
    assert count_users(app) == 0


def register_with_zone(client, username: str, zone: str | None, offset: str | None = None):
    page = client.get("/register").text
    assert 'name="time_zone" type="hidden"' in page and "data-browser-zone" in page
    data = {"csrf_token": csrf_token(page), "username": username, "password": PASSWORD,
            "confirm": PASSWORD}
    if zone is not None:
        data["time_zone"] = zone
    if offset is not None:
        data["utc_offset"] = offset
    return client.post("/register", data=data)


@pytest.mark.parametrize("sent, stored", [
    ("Europe/Berlin", "Europe/Berlin"), ("America/New_York", "America/New_York"),
    ("Asia/Calcutta", "Asia/Kolkata"),  # the link Chromium reports for India: its zone
    (" Australia/Lord_Howe ", "Australia/Lord_Howe"), ("UTC", "UTC"),
    ("UTC+05:30", "UTC+05:30"), ("UTC-05:00", "UTC-05:00"), ("UTC+14:00", "UTC+14:00"),
    ("UTC-12:00", "UTC-12:00"), ("UTC+00:00", "UTC"), (None, "UTC"), ("", "UTC")])
def test_registration_keeps_the_browsers_time_zone(app, client, clock, sent, stored):
    response = register_with_zone(client, "zoned", sent)
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalar(select(User.time_zone)) == stored
    welcome = client.get("/study").text
    assert (f"Your study day turns over at 04:00 in {srs.describe_zone(stored, clock())}; "
            "change the time zone in Settings.") in welcome


def test_the_welcome_names_the_offset_of_a_zone_whose_name_misleads(client, clock):
    register_with_zone(client, "zoned", "Etc/GMT+12")  # POSIX signs: this is UTC-12
    assert ("turns over at 04:00 in Etc/GMT+12 (UTC-12:00 now)"
            in client.get("/study").text)


@pytest.mark.parametrize("sent", [
    "Mars/Olympus_Mons", "europe/berlin", "localtime", "Factory", "posixrules", "../etc/passwd",
    "/etc/localtime", "UTC+14:30", "UTC-12:01", "UTC+05:60", "UTC+5:30",
    "+330", "-300", "٣٠", "Europe/" + "x" * 100])
def test_a_bad_hidden_zone_registers_with_utc_rather_than_refusing(app, client, sent):
    assert register_with_zone(client, "zoned", sent).status_code == 302
    with app.app_context():
        assert db.session.scalar(select(User.time_zone)) == "UTC"


@pytest.mark.parametrize("zone, offset, stored", [
    ("Etc/Unknown", "330", "UTC+05:30"),  # ICU's name on a host without a zone
    ("Pacific/Newzone", "-300", "UTC-05:00"), ("", "+60", "UTC+01:00"), (None, "0", "UTC"),
    ("Europe/Berlin", "-300", "Europe/Berlin"),  # a known name wins over the offset
    ("Etc/Unknown", "900", "UTC"), ("Etc/Unknown", "1e3", "UTC"), ("Etc/Unknown", "", "UTC"),
])
def test_an_unknown_zone_name_falls_back_to_the_browsers_offset(app, client, zone, offset,
                                                                stored):
    assert register_with_zone(client, "zoned", zone, offset).status_code == 302
    with app.app_context():
        assert db.session.scalar(select(User.time_zone)) == stored
