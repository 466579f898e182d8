"""Settings lists the account's signed-in sessions (browser, when signed in, last seen) and signs
out any one, or every other; a password change signs out every other session, as it says."""

from __future__ import annotations

import re

from webtest_support import PASSWORD, change_password, csrf_token, login, register

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1"


def session_rows(client) -> list[str]:
    page = client.get("/settings").text
    table = page.split('<table class="table sessions">', 1)[1].split("</table>", 1)[0]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
            for row in table.split("<tr>")[2:]]


def end_urls(client) -> list[str]:
    return re.findall(r'action="(/settings/sessions/\d+/end)"', client.get("/settings").text)


def test_settings_lists_each_session_and_signs_out_one_or_every_other(app, clock):
    laptop = app.test_client()
    laptop.environ_base["HTTP_USER_AGENT"] = FIREFOX
    register(laptop, "sara")
    clock.advance(minutes=5)
    phone = app.test_client()
    phone.environ_base["HTTP_USER_AGENT"] = PHONE
    assert login(phone, "sara").status_code == 302
    clock.advance(minutes=30)
    third = app.test_client()
    third.environ_base["HTTP_USER_AGENT"] = ""  # sends none
    assert login(third, "sara").status_code == 302
    rows = session_rows(laptop)
    assert rows[0] == f"{FIREFOX} (this session) 2025-03-03 09:00 now"
    assert rows[1] == "Unknown browser 2025-03-03 09:35 2025-03-03 09:35 Sign out"
    assert rows[2] == f"{PHONE} 2025-03-03 09:05 2025-03-03 09:05 Sign out"
    # A request renews "last seen" once it is ten minutes old.
    clock.advance(minutes=11)
    assert phone.get("/settings").status_code == 200
    assert session_rows(laptop)[1] == f"{PHONE} 2025-03-03 09:05 2025-03-03 09:46 Sign out"

    page = laptop.get("/settings").text
    phone_end = end_urls(laptop)[0]
    ended = laptop.post(phone_end, data={"csrf_token": csrf_token(page)})
    assert ended.status_code == 303
    assert phone.get("/settings").status_code == 302  # signed out on the server
    assert len(session_rows(laptop)) == 2
    assert laptop.post(phone_end, data={"csrf_token": csrf_token(page)}).status_code == 404
    assert laptop.post(phone_end).status_code == 400  # no CSRF token: nothing ended

    ended = laptop.post("/settings/sessions/end-others", data={"csrf_token": csrf_token(page)})
    assert ended.status_code == 303
    assert "1 other session is signed out." in laptop.get("/settings").text
    assert third.get("/settings").status_code == 302
    assert session_rows(laptop) == [f"{FIREFOX} (this session) 2025-03-03 09:00 now"]


def test_another_accounts_session_cannot_be_ended(app):
    owner, other = app.test_client(), app.test_client()
    register(owner, "tom")
    register(other, "uma")
    token = csrf_token(owner.get("/settings").text)
    # tom has no other session: every id, uma's included and his own, gets the same 404.
    for login_id in range(1, 5):
        response = owner.post(f"/settings/sessions/{login_id}/end", data={"csrf_token": token})
        assert response.status_code == 404
    assert other.get("/settings").status_code == 200  # uma is still signed in
    assert owner.get("/settings").status_code == 200


def test_a_password_change_signs_out_every_other_session_and_the_list_says_so(app, client):
    register(client, "vera")
    elsewhere = app.test_client()
    assert login(elsewhere, "vera").status_code == 302
    assert len(session_rows(client)) == 2
    assert "Changing the password signs out every session" in client.get("/settings").text
    assert change_password(client, PASSWORD).status_code == 303
    assert elsewhere.get("/settings").status_code == 302
    assert len(session_rows(client)) == 1
