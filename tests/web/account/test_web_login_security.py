"""Login security: the limiter under parallel requests, safe ``next`` targets, a new session at
login, and throttled guessing of the current password on the change-password form."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import select
from webtest_support import (
    PASSWORD,
    change_password,
    csrf_token,
    login,
    logout,
    post_in_parallel,
    register,
)

from quizapp.extensions import db
from quizapp.models import LoginAttempt
from quizapp.services import accounts
from quizapp.services.errors import InvalidCredentials, LoginThrottled
from quizapp.services.login_limits import LoginLimits
from quizapp.services.store.throttling import compute_retry_after, describe_wait
from quizapp.web.account.logins import DEVICE_COOKIE, DEVICE_SALT
from quizapp.web.http.runtime import compute_safe_next
from quizapp.web.http.signing import current_serializer

CHECK_SECONDS = 0.3  # a slow password check keeps every parallel request in flight at once


@pytest.fixture
def counted_checks(monkeypatch) -> list[str]:
    """Every password check the accounts service makes, slowed down like a real scrypt."""
    checks: list[str] = []
    real_check = accounts.check_password_hash
    lock = threading.Lock()

    def slow_check(stored: str, password: str) -> bool:
        with lock:
            checks.append(password)
        time.sleep(CHECK_SECONDS)
        return real_check(stored, password)

    monkeypatch.setattr(accounts, "check_password_hash", slow_check)
    return checks


def stored_attempts(app) -> list[LoginAttempt]:
    with app.app_context():
        return db.session.scalars(select(LoginAttempt).order_by(LoginAttempt.id)).all()


# 1. The limiter holds under parallel requests -------------------------------------------------


def test_parallel_wrong_logins_get_at_most_the_account_limit_of_checks(app, counted_checks):
    register(app.test_client(), "target")
    counted_checks.clear()
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 1000  # only the per-account limit is under test
    statuses = post_in_parallel(app, [{"username": "target", "password": f"guess {n}"}
                                      for n in range(20)])
    assert set(statuses) <= {401, 429}
    assert len(counted_checks) <= 5
    assert statuses.count(401) == len(counted_checks)
    # Refused attempts leave no row: only the checked ones count toward the lockout.
    failures = [a for a in stored_attempts(app) if a.username == "target" and not a.succeeded]
    assert len(failures) == len(counted_checks)


def test_parallel_wrong_logins_get_at_most_the_address_limit_of_checks(app, counted_checks):
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 3
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = 1000
    statuses = post_in_parallel(app, [{"username": f"someone{n}", "password": "a guess"}
                                      for n in range(12)])
    assert set(statuses) <= {401, 429}
    assert len(counted_checks) <= 3
    assert statuses.count(401) == len(counted_checks)


def test_an_attempt_over_the_limit_counting_those_in_flight_is_refused_unrecorded(app, clock):
    """Five attempts committed but not yet settled (still in flight) already use the limit."""
    with app.app_context():
        for _ in range(5):
            db.session.add(LoginAttempt(username="zoe", address="10.0.0.1", attempted_at=clock(),
                                        succeeded=False))
        db.session.commit()
        with pytest.raises(LoginThrottled) as refused:
            accounts.authenticate(
                db.session, "zoe", "a guess", address="10.0.0.2", now=clock(),
                limits=LoginLimits(), hash_method=app.config["PASSWORD_HASH_METHOD"])
        assert "for this account" in refused.value.message
        db.session.remove()
    assert len(stored_attempts(app)) == 5


def test_the_attempt_is_committed_before_the_password_is_checked(app, client, monkeypatch):
    """What makes the limit hold: a check in flight is already visible to every other request."""
    register(client, "wes")
    logout(client)
    real_check = accounts.check_password_hash
    seen: list[list[tuple[str, bool]]] = []

    def observing_check(stored: str, password: str) -> bool:
        with db.engine.connect() as other:  # another connection sees only committed rows
            seen.append([tuple(row) for row in other.execute(
                select(LoginAttempt.username, LoginAttempt.succeeded))])
        return real_check(stored, password)

    monkeypatch.setattr(accounts, "check_password_hash", observing_check)
    assert login(client, "wes", "wrong password").status_code == 401
    assert login(client, "wes").status_code == 302
    assert seen == [[("wes", False)], [("wes", False), ("wes", False)]]
    assert [a.succeeded for a in stored_attempts(app)] == [False, True]


def test_a_right_password_turns_its_reserved_attempt_into_a_success(app, client):
    register(client, "yara")
    logout(client)
    assert login(client, "yara", "wrong password").status_code == 401
    assert login(client, "yara").status_code == 302
    assert [a.succeeded for a in stored_attempts(app)] == [False, True]


def test_refused_logins_do_not_extend_the_lockout(app, client, clock):
    register(client, "xena")
    logout(client)
    for _ in range(5):
        assert login(client, "xena", "nope").status_code == 401
    for _ in range(14):  # one refused try a minute, for as long as the lockout lasts
        clock.advance(minutes=1)
        assert login(client, "xena", "nope").status_code == 429
    clock.advance(minutes=2)
    assert login(client, "xena").status_code == 302


def test_the_wait_named_never_exceeds_the_window():
    # An attempt recorded by a request running alongside can be later than this request's
    # "now": the wait was then the window plus that difference, "16 minutes" for 15.
    now, window = datetime(2025, 3, 3, 9, 0, tzinfo=UTC), timedelta(minutes=15)
    assert compute_retry_after(now + timedelta(seconds=30), window, now) == window
    assert describe_wait(compute_retry_after(now + timedelta(seconds=30), window, now)) == (
        "15 minutes")
    assert compute_retry_after(now - timedelta(minutes=5), window, now) == timedelta(minutes=10)
    assert compute_retry_after(now - window, window, now) == timedelta(seconds=1)


# 2. Control characters in ``next`` ------------------------------------------------------------


@pytest.mark.parametrize("target", [
    "/a\nb", "/a\rb", "/a\r\nSet-Cookie: x=1", "/a\tb", "/\t/evil.example", "/a\x00b",
    "/a\x7fb", "/a\x85b", "\n/settings",
])
def test_safe_next_refuses_control_characters(target):
    assert compute_safe_next(target, "/study") == "/study"


def test_safe_next_still_follows_local_paths():
    assert compute_safe_next("/settings?tab=a%0Ab", "/study") == "/settings?tab=a%0Ab"
    assert compute_safe_next("/questions/café", "/study") == "/questions/café"


# (A NUL is refused before any view runs: see input_guard.)
@pytest.mark.parametrize("encoded", ["%0A", "%0D", "%0D%0A", "%09", "%7F", "%C2%85"])
def test_login_with_a_control_character_in_next_goes_to_the_default(client, encoded):
    register(client, "walt")
    logout(client)
    page = client.get("/login")
    response = client.post(f"/login?next=/a{encoded}b", data={
        "csrf_token": csrf_token(page.text), "username": "walt", "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/study"


# Browsers read a backslash as a slash: to them, /\evil.example is //evil.example.
BACKSLASH_TARGETS = ["/\\evil.example", "/\\/evil.example", "/\\\\evil.example"]


@pytest.mark.parametrize("target", BACKSLASH_TARGETS)
def test_safe_next_refuses_backslashes(target):
    assert compute_safe_next(target, "/study") == "/study"


@pytest.mark.parametrize("target", BACKSLASH_TARGETS)
def test_login_with_a_backslash_in_next_goes_to_the_default(client, target):
    register(client, "walt")
    logout(client)
    page = client.get("/login")
    response = client.post("/login", query_string={"next": target}, data={
        "csrf_token": csrf_token(page.text), "username": "walt", "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/study"


# 3. A new session at login --------------------------------------------------------------------


def post_logout(client, token: str) -> int:
    return client.post("/logout", data={"csrf_token": token}).status_code


def test_login_issues_a_new_csrf_token(client):
    register(client, "vera")
    logout(client)
    page = client.get("/login")
    planted = csrf_token(page.text)
    with client.session_transaction() as before:
        planted_raw = before["csrf_token"]
    response = client.post("/login?next=/settings", data={
        "csrf_token": planted, "username": "vera", "password": PASSWORD})
    assert response.headers["Location"] == "/settings"
    with client.session_transaction() as after:
        assert after.get("csrf_token") != planted_raw
    assert post_logout(client, planted) == 400  # the token from before the login is dead
    assert client.get("/study").status_code == 200
    assert post_logout(client, csrf_token(client.get("/settings").text)) == 302


def test_register_issues_a_new_csrf_token(client):
    planted = csrf_token(client.get("/register").text)
    response = client.post("/register", data={
        "csrf_token": planted, "username": "uma", "password": PASSWORD, "confirm": PASSWORD})
    assert response.status_code == 302
    assert post_logout(client, planted) == 400
    assert client.get("/study").status_code == 200


def test_password_change_issues_a_new_csrf_token(client):
    register(client, "tess")
    before = csrf_token(client.get("/settings").text)
    assert change_password(client, PASSWORD).status_code == 303
    settings = client.get("/settings")
    assert settings.status_code == 200
    assert "Password changed" in settings.text  # the flash survives the renewal
    assert post_logout(client, before) == 400


# 4. Guessing the current password on the change-password form ---------------------------------


def test_wrong_current_passwords_are_throttled_like_failed_logins(app, client):
    register(client, "sam")
    for _ in range(5):
        assert change_password(client, "not it").status_code == 400
    blocked = change_password(client, "still not it")
    assert blocked.status_code == 429
    assert "Too many failed logins for this account" in blocked.text
    assert int(blocked.headers["Retry-After"]) > 0
    assert change_password(client, PASSWORD).status_code == 429  # even the right one waits
    failures = [a for a in stored_attempts(app) if a.username == "sam" and not a.succeeded]
    assert len(failures) == 5 and failures[0].address == "127.0.0.1"
    logout(client)
    assert login(client, "sam").status_code == 429  # the same limiter as the login form


def test_wrong_current_passwords_without_a_device_cookie_count_toward_the_address_limit(
        app, client):
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 3
    register(client, "rita")
    client.delete_cookie(DEVICE_COOKIE)  # signed in, but from no known device
    for _ in range(3):
        assert change_password(client, "not it").status_code == 400
    blocked = change_password(client, "not it")
    assert blocked.status_code == 429 and "from your address" in blocked.text


def test_a_known_device_is_not_held_by_its_address_limit(app, client):
    """Behind a NAT (or a proxy with the default hops) everyone shares one address: strangers
    failing there lock out other strangers, never a browser that has logged in to the account
    before, which only its own per-device limit holds."""
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 3
    register(client, "omar")
    logout(client)
    stranger = app.test_client()  # the same address as the owner
    for n in range(3):
        assert login(stranger, f"someone{n}", "a guess").status_code == 401
    held = login(stranger, "omar")
    assert held.status_code == 429 and "from your address" in held.text
    assert login(client, "omar").status_code == 302  # the owner's known device
    assert change_password(client, "a typo").status_code == 400  # checked, not held
    assert change_password(client, PASSWORD, "another long secret").status_code == 303
    page = client.get("/settings").text
    deleted = client.post("/settings/delete-account", data={
        "csrf_token": csrf_token(page), "password": "another long secret",
        "confirm_username": "omar"})
    assert deleted.status_code == 303
    assert login(app.test_client(), "someone", "a guess").status_code == 429  # still held


def test_a_known_devices_own_failures_do_not_count_toward_its_address(app, client):
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 3
    register(client, "pia")
    logout(client)
    for _ in range(4):
        assert login(client, "pia", "a typo").status_code == 401  # its own limit is 5
    assert login(app.test_client(), "someone", "a guess").status_code == 401


def test_throttled_password_change_ends_with_the_window(app, client, clock):
    register(client, "quin")
    for _ in range(5):
        change_password(client, "not it")
    assert change_password(client, PASSWORD).status_code == 429
    clock.advance(minutes=16)
    assert change_password(client, PASSWORD).status_code == 303
    logout(client)
    assert login(client, "quin", "a brand new secret").status_code == 302


def test_parallel_wrong_current_passwords_get_at_most_the_limit_of_checks(
        app, client, counted_checks):
    register(client, "pia")
    counted_checks.clear()
    token = csrf_token(client.get("/settings").text)
    cookie = client.get_cookie("session").value
    clients = [app.test_client() for _ in range(12)]
    for copy in clients:  # the one signed-in session, used from twelve connections at once
        copy.set_cookie("session", cookie)
    statuses: list[int] = []
    barrier = threading.Barrier(len(clients))

    def worker(copy, n: int) -> None:
        barrier.wait()
        response = copy.post("/settings/password", data={
            "csrf_token": token, "current": f"guess {n}", "new": "a brand new secret",
            "confirm": "a brand new secret"})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=worker, args=(copy, n)) for n, copy in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == len(clients)
    assert set(statuses) <= {400, 429}
    assert len(counted_checks) <= 5
    assert statuses.count(400) == len(counted_checks)


def test_change_password_service_refuses_when_throttled(app, client, clock):
    register(client, "otto")
    with app.app_context():
        user = accounts.load_account(db.session, 1)
        limits = LoginLimits(per_account=2)
        method = app.config["PASSWORD_HASH_METHOD"]
        for _ in range(2):
            with pytest.raises(InvalidCredentials):
                accounts.change_password(db.session, user, "wrong", "a new secret!",
                                         hash_method=method, address="a", now=clock(),
                                         limits=limits)
        with pytest.raises(LoginThrottled) as refused:
            accounts.change_password(db.session, user, PASSWORD, "a new secret!",
                                     hash_method=method, address="a",
                                     now=clock() + timedelta(minutes=1), limits=limits)
        assert refused.value.retry_after == timedelta(minutes=14)
        db.session.remove()


# 5. Device cookies: strangers cannot lock the owner out of a known device ---------------------


def device_cookie(client) -> str:
    cookie = client.get_cookie(DEVICE_COOKIE)
    assert cookie is not None, "no device cookie"
    return cookie.value


def test_a_login_sets_a_signed_httponly_device_cookie(app, client):
    register(client, "nina")
    first = device_cookie(client)
    logout(client)
    assert device_cookie(client) == first  # logging out keeps it: the device is still known
    response = login(client, "nina")
    [header] = [h for h in response.headers.getlist("Set-Cookie")
                if h.startswith(f"{DEVICE_COOKIE}=")]
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Max-Age=" in header
    assert device_cookie(client) != first  # a new nonce at every login
    failed = login(app.test_client(), "nina", "wrong password")
    assert not any(h.startswith(f"{DEVICE_COOKIE}=") for h in failed.headers.getlist("Set-Cookie"))


def test_strangers_failing_on_purpose_do_not_lock_out_a_known_device(app, client):
    register(client, "mona")
    logout(client)
    stranger = app.test_client()
    for _ in range(5):
        assert login(stranger, "mona", "a guess").status_code == 401
    blocked = login(stranger, "mona")
    assert blocked.status_code == 429 and "for this account." in blocked.text
    assert login(client, "mona").status_code == 302  # the owner's device is not locked out


def test_the_owners_login_from_a_known_device_does_not_reset_the_strangers_count(app, client):
    register(client, "nora")
    logout(client)
    stranger = app.test_client()
    for _ in range(4):
        assert login(stranger, "nora", "a guess").status_code == 401
    assert login(client, "nora").status_code == 302  # the owner, from a known device
    logout(client)
    assert login(stranger, "nora", "a fifth guess").status_code == 401
    assert login(stranger, "nora", "a sixth guess").status_code == 429  # not five more


def test_a_known_device_has_its_own_limit(app, client, clock):
    register(client, "lena")
    logout(client)
    for _ in range(5):
        assert login(client, "lena", "a typo").status_code == 401
    blocked = login(client, "lena")
    assert blocked.status_code == 429
    assert "Too many failed logins for this account on this device" in blocked.text
    assert int(blocked.headers["Retry-After"]) > 0
    assert login(app.test_client(), "lena", "a guess").status_code == 401  # counted apart
    clock.advance(minutes=16)
    assert login(client, "lena").status_code == 302
    with app.app_context():
        devices = db.session.scalars(select(LoginAttempt.device)).all()
    assert devices.count(None) == 1 and len({d for d in devices if d}) == 1


def test_device_cookies_for_another_account_or_forged_are_anonymous(app, client):
    register(client, "kim")
    logout(client)
    stranger = app.test_client()
    for _ in range(5):
        login(stranger, "kim", "a guess")
    kims = device_cookie(client)
    register(client, "joe")  # this client's cookie now names joe
    logout(client)
    assert login(client, "kim").status_code == 429
    other_key = URLSafeTimedSerializer("another key", salt="quizapp.device-cookie")
    for forged in ("forged", kims[:-2] + "xx", other_key.dumps(["kim", 1, "nonce"])):
        client.set_cookie(DEVICE_COOKIE, forged)
        assert login(client, "kim").status_code == 429
    client.set_cookie(DEVICE_COOKIE, kims)
    assert login(client, "kim").status_code == 302


def test_a_deleted_accounts_devices_are_strangers_to_a_new_account_of_its_name(app, client,
                                                                              clock):
    # Ids are never reused, and the device cookie names the account's id: a device the
    # deleted "ivy" had used gets no device budget of its own on the new "ivy".
    register(client, "ivy")
    old_device = app.test_client()
    assert login(old_device, "ivy").status_code == 302
    settings = client.get("/settings").text
    assert client.post("/settings/delete-account", data={
        "csrf_token": csrf_token(settings), "password": PASSWORD,
        "confirm_username": "ivy"}).status_code == 303
    newcomer = app.test_client()
    register(newcomer, "ivy", "another long password")
    logout(newcomer)
    clock.advance(seconds=1)  # after the old device's own (anonymous) successful login
    for _ in range(5):
        assert login(old_device, "ivy", "a guess").status_code == 401
    # Counted with the anonymous clients: the account is now locked for all of them, and the
    # old device is one of them; the newcomer's own device is not.
    assert login(app.test_client(), "ivy", "another long password").status_code == 429
    assert login(old_device, "ivy", "another long password").status_code == 429
    assert login(newcomer, "ivy", "another long password").status_code == 302


def test_failures_on_a_name_before_its_account_existed_lock_nobody_out(app, client, clock):
    # Guesses at a free name (here a deleted account's) are not this account's failures: they
    # must not lock out the person who takes the name next, even from a new device.
    register(client, "noa")
    settings = client.get("/settings").text
    assert client.post("/settings/delete-account", data={
        "csrf_token": csrf_token(settings), "password": PASSWORD,
        "confirm_username": "noa"}).status_code == 303
    stranger = app.test_client()
    for _ in range(5):
        assert login(stranger, "noa", "a guess").status_code == 401
    assert login(stranger, "noa", "a guess").status_code == 429  # the free name is throttled
    clock.advance(seconds=1)
    newcomer = app.test_client()
    register(newcomer, "noa", "another long password")
    logout(newcomer)
    assert login(app.test_client(), "noa", "another long password").status_code == 302
    # Failures after the account exists count as ever.
    clock.advance(seconds=1)
    for _ in range(5):
        assert login(stranger, "noa", "a guess").status_code == 401
    assert login(app.test_client(), "noa", "another long password").status_code == 429


def test_a_device_cookie_from_before_it_named_the_account_id_is_anonymous(app, client):
    register(client, "pia")
    logout(client)
    with app.test_request_context():
        legacy = current_serializer(DEVICE_SALT, timed=True).dumps(["pia", 1, "a nonce"])
    stranger = app.test_client()
    for _ in range(5):
        login(stranger, "pia", "a guess")
    client.set_cookie(DEVICE_COOKIE, legacy)
    assert login(client, "pia").status_code == 429  # no longer trusted: log in once to renew


def test_parallel_wrong_logins_from_one_device_get_at_most_its_limit(app, client,
                                                                     counted_checks):
    register(client, "hugo")
    counted_checks.clear()
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = 1000
    statuses = post_in_parallel(
        app, [{"username": "hugo", "password": f"guess {n}"} for n in range(12)],
        cookies={DEVICE_COOKIE: device_cookie(client)})
    assert set(statuses) <= {401, 429}
    assert len(counted_checks) <= 5
    assert statuses.count(401) == len(counted_checks)


def test_a_known_device_can_change_the_password_during_an_anonymous_lockout(app, client):
    register(client, "ivan")
    stranger = app.test_client()
    for _ in range(5):
        login(stranger, "ivan", "a guess")
    assert login(stranger, "ivan").status_code == 429
    assert change_password(client, PASSWORD).status_code == 303


def test_a_password_change_makes_other_devices_anonymous(app, client, clock):
    register(client, "gus")
    other = app.test_client()
    assert login(other, "gus").status_code == 302  # a second known device
    logout(other)
    assert change_password(client, PASSWORD, "a brand new secret").status_code == 303
    clock.advance(minutes=1)  # failures count from the last success on
    stranger = app.test_client()
    for _ in range(5):
        login(stranger, "gus", "a guess")
    assert login(other, "gus", "a brand new secret").status_code == 429
    logout(client)
    assert login(client, "gus", "a brand new secret").status_code == 302  # this one was renewed
