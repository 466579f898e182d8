"""Logging out ends the login on the server (ASVS V3.3.1): copies of the session cookie or the
remember cookie taken before the logout stop working; other devices stay signed in."""

from __future__ import annotations

import threading

import pytest
from flask_login.utils import encode_cookie
from sqlalchemy import func, select
from webtest_support import (
    PASSWORD,
    change_password,
    counted_statements,
    csrf_token,
    login,
    logout,
    register,
)

from quizapp.extensions import db
from quizapp.models import LoginSession
from quizapp.services import accounts

REMEMBER = "remember_token"


def replay(app, **cookies: str):
    """A new client carrying only the given cookies, as an attacker replaying copies would."""
    client = app.test_client()
    for name, value in cookies.items():
        client.set_cookie(name, value)
    return client


def is_signed_out(response) -> bool:
    return response.status_code == 302 and "/login" in response.headers["Location"]


def count_logins(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(LoginSession))


def remembered_login(client, name: str) -> tuple[str, str]:
    """Register ``name``, log in again with "keep me logged in"; its session and remember
    cookie values."""
    register(client, name)
    logout(client)
    assert login(client, name, remember="y").status_code == 302
    assert client.get("/study").status_code == 200
    return client.get_cookie("session").value, client.get_cookie(REMEMBER).value


def test_a_session_cookie_copied_before_logout_is_signed_out_after_it(app, client):
    session_cookie, _ = remembered_login(client, "copycat")
    assert replay(app, session=session_cookie).get("/study").status_code == 200
    assert logout(client).status_code == 302
    assert is_signed_out(replay(app, session=session_cookie).get("/study"))
    assert is_signed_out(client.get("/study"))


def test_a_remember_cookie_copied_before_logout_is_signed_out_after_it(app, client):
    _, remember_cookie = remembered_login(client, "keeper")
    before = replay(app, **{REMEMBER: remember_cookie})
    assert before.get("/study").status_code == 200  # the remember cookie alone signs in
    logout(client)
    assert is_signed_out(replay(app, **{REMEMBER: remember_cookie}).get("/study"))
    # Nor does the client that was signed in by it keep working.
    assert is_signed_out(before.get("/study"))


def test_logging_out_on_one_device_leaves_the_others_signed_in(app, client):
    register(client, "twodevices")
    phone = app.test_client()
    assert login(phone, "twodevices", remember="y").status_code == 302
    phone_remember = phone.get_cookie(REMEMBER).value
    assert count_logins(app) == 2
    logout(client)
    assert is_signed_out(client.get("/study"))
    assert phone.get("/study").status_code == 200
    assert replay(app, **{REMEMBER: phone_remember}).get("/study").status_code == 200
    assert count_logins(app) == 1


def test_a_password_change_ends_every_other_login_but_this_ones(app, client):
    _, old_remember = remembered_login(client, "changer")
    other = app.test_client()
    assert login(other, "changer").status_code == 302
    changed = change_password(client, PASSWORD)
    assert changed.status_code == 303
    assert client.get("/study").status_code == 200
    assert is_signed_out(other.get("/study"))
    assert is_signed_out(replay(app, **{REMEMBER: old_remember}).get("/study"))
    assert count_logins(app) == 1  # only this device's new login is left
    # The new login ends on logout like any other: a copy of its cookie stops working.
    new_session = client.get_cookie("session").value
    logout(client)
    assert is_signed_out(replay(app, session=new_session).get("/study"))
    assert count_logins(app) == 0


@pytest.mark.parametrize("identity", [
    "1.1",  # what every cookie held before logins were recorded
    "1.1.1", "1.1.1.", "1.1.x.y", "1.1.1." + "A" * 31, "1.1.1." + "A" * 33,
    "\u0661.1.1." + "A" * 32, "1" * 19 + ".1.1." + "A" * 32, "1.1.1." + "A" * 500,
])
def test_an_old_or_malformed_identity_counts_as_signed_out(app, client, identity):
    register(client, "upgraded")  # user 1, session version 1, login 1 exist
    old = app.test_client()
    with old.session_transaction() as session:
        session["_user_id"] = identity
        session["_fresh"] = True
    assert is_signed_out(old.get("/study"))
    with app.test_request_context():
        remember_value = encode_cookie(identity)
    assert is_signed_out(replay(app, **{REMEMBER: remember_value}).get("/study"))


def test_an_identity_with_a_wrong_nonce_or_another_users_login_is_refused(app, client):
    register(client, "owner")
    with client.session_transaction() as session:
        identity = session["_user_id"]
    user_id, version, login_id, nonce = identity.split(".")
    register(app.test_client(), "stranger")  # user 2, login 2
    forged = [
        f"{user_id}.{version}.{login_id}.{'A' * 32 if nonce != 'A' * 32 else 'B' * 32}",
        f"{user_id}.{int(version) + 1}.{login_id}.{nonce}",
        f"2.1.{login_id}.{nonce}",  # the right login and nonce, claimed for another account
        f"{user_id}.{version}.2.{nonce}",  # another account's login
    ]
    for value in forged:
        forger = app.test_client()
        with forger.session_transaction() as session:
            session["_user_id"] = value
        assert is_signed_out(forger.get("/study")), value
    assert client.get("/study").status_code == 200


def test_the_user_loader_is_one_statement_per_request(app, client):
    _, remember_cookie = remembered_login(client, "counted")
    # The settings page's own statements follow: how many reviews, practice answers and
    # teams its downloads hold, the teams an owner would have to hand over, and the account's
    # sessions it lists. None of them loads the user again.
    page_reads = ("FROM review", "FROM practice_attempt", "FROM team_member", "FROM team JOIN",
                  "FROM login_session")
    with counted_statements(app) as statements:
        assert client.get("/settings").status_code == 200
    assert len(statements) == 6 and "login_session" in statements[0], statements
    assert all(read in statement for read, statement in zip(page_reads, statements[1:],
                                                             strict=True)), statements
    from_cookie = replay(app, **{REMEMBER: remember_cookie})
    with counted_statements(app) as statements:
        assert from_cookie.get("/settings").status_code == 200
    assert len(statements) == 6 and "login_session" in statements[0], statements
    assert all(read in statement for read, statement in zip(page_reads, statements[1:],
                                                             strict=True)), statements


def test_logins_older_than_the_remember_cookie_are_pruned_by_a_new_login(app, client, clock):
    app.config["REMEMBER_COOKIE_DURATION"] = 40 * 24 * 3600  # seconds work as well
    register(client, "longago")
    clock.advance(days=39)
    recent = app.test_client()
    assert login(recent, "longago").status_code == 302
    assert count_logins(app) == 2
    clock.advance(days=2)  # the first login is 41 days old, the second 2 days
    latest = app.test_client()
    assert login(latest, "longago").status_code == 302
    assert count_logins(app) == 2
    assert is_signed_out(client.get("/study"))
    assert recent.get("/study").status_code == 200 and latest.get("/study").status_code == 200


def test_a_login_past_its_lifetime_is_signed_out_before_any_new_login(app, client, clock):
    app.config["REMEMBER_COOKIE_DURATION"] = 40 * 24 * 3600
    register(client, "stale")
    clock.advance(days=39)
    assert client.get("/study").status_code == 200
    clock.advance(days=2)  # 41 days: no other login has pruned the row, yet it is refused
    assert count_logins(app) == 1
    assert is_signed_out(client.get("/study"))


def test_the_login_lifetime_follows_the_config(app):
    from datetime import timedelta

    from quizapp.web.account.logins import login_lifetime

    with app.app_context():
        assert login_lifetime() == timedelta(days=365)  # Flask-Login's default
        app.config["REMEMBER_COOKIE_DURATION"] = timedelta(days=7)
        assert login_lifetime() == app.permanent_session_lifetime  # 31 days, the longer
        app.config["REMEMBER_COOKIE_DURATION"] = 90 * 24 * 3600
        assert login_lifetime() == timedelta(days=90)


def test_end_login_commits_and_touches_only_the_named_login(app, client):
    register(client, "service")
    other = app.test_client()
    login(other, "service")
    with app.app_context():
        first, second = db.session.scalars(select(LoginSession.id).order_by(LoginSession.id))
        accounts.end_login(db.session, 999, first)  # not this account's: nothing happens
        accounts.end_login(db.session, 1, second)
    assert count_logins(app) == 1
    assert client.get("/study").status_code == 200
    assert is_signed_out(other.get("/study"))


def test_a_password_change_keeps_keep_me_logged_in(app, client):
    remembered_login(client, "steady")
    assert change_password(client, PASSWORD).status_code == 303
    remember_cookie = client.get_cookie(REMEMBER).value
    # A browser restart: the session cookie is gone, the new remember cookie signs in alone.
    assert replay(app, **{REMEMBER: remember_cookie}).get("/study").status_code == 200
    plain = app.test_client()  # without "keep me logged in" no remember cookie appears
    register(plain, "plain")
    assert change_password(plain, PASSWORD).status_code == 303
    assert plain.get_cookie(REMEMBER) is None


@pytest.mark.parametrize("attempt", range(3))
def test_two_password_changes_at_once_leave_one_login_that_knows_the_password(app, attempt):
    """Two devices change the password at the same moment: the change committed last wins;
    its device stays signed in and its password works; the other device is signed out."""
    first = app.test_client()
    register(first, "sam")
    second = app.test_client()
    assert login(second, "sam").status_code == 302
    devices = {"first": (first, f"first new secret {attempt}"),
               "second": (second, f"second new secret {attempt}")}
    tokens = {name: csrf_token(client.get("/settings").text)
              for name, (client, _) in devices.items()}
    barrier = threading.Barrier(2)
    statuses: dict[str, int] = {}
    pages: dict[str, str] = {}

    def change(name: str) -> None:
        client, new = devices[name]
        barrier.wait()
        response = client.post("/settings/password", data={
            "csrf_token": tokens[name], "current": PASSWORD, "new": new, "confirm": new})
        statuses[name], pages[name] = response.status_code, response.text

    threads = [threading.Thread(target=change, args=(name,)) for name in devices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    # Both changes run (303); or one finished before the other's request loaded its login,
    # and the later device finds itself signed out (302 to the login page); or one finished
    # between the other's login check and its password check, and the later device is told
    # its current password is no longer right (400). In every case the later one changes
    # nothing, and exactly one device stays signed in: the one that changed the password.
    assert sorted(statuses.values()) in ([303, 303], [302, 303], [303, 400]), statuses
    for name, status in statuses.items():
        if status == 400:
            assert "The current password is not right." in pages[name]
    signed_in = [name for name, (client, _) in devices.items()
                 if client.get("/settings").status_code == 200]
    assert len(signed_in) == 1, signed_in
    (winner,) = signed_in
    (loser,) = set(devices) - {winner}
    assert statuses[winner] == 303
    assert count_logins(app) == 1
    assert login(app.test_client(), "sam", devices[winner][1]).status_code == 302
    assert login(app.test_client(), "sam", devices[loser][1]).status_code == 401
