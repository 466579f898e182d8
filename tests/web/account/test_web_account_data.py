"""Your data on the Settings page: the review log and schedule as CSV (the person's own rows,
streamed, safe to open in a spreadsheet), and deleting the account (password and typed name,
throttled like a login, everything of theirs goes, the client is signed out)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from sqlalchemy import func, insert, select, update
from webtest_support import (
    PASSWORD,
    concepts_for,
    csrf_token,
    login,
    make_card,
    rate_current,
    reach_first_skill,
    register,
    shown_key,
)

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import ItemSuspension, LoginAttempt, LoginSession, Review, ReviewState, User
from quizapp.services.account_data import neutralize_cell
from quizapp.services.bank_import import load_bank

REVIEWS_URL = "/settings/reviews.csv"
SCHEDULE_URL = "/settings/schedule.csv"
DELETE_URL = "/settings/delete-account"
HEADER = ["reviewed_at_utc", "item_key", "item_kind", "item_title", "rating", "duration_ms",
          "answer", "correct", "was_new"]


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.get_data(as_text=True), newline="")))


def study_one(client, clock, rating: int, seconds: float) -> str:
    """Open the study page, think ``seconds``, rate; the key of the item rated."""
    page = client.get("/study").text
    clock.advance(seconds=seconds)
    assert rate_current(client, rating, page).status_code == 303
    return shown_key(page)


def user_id(app, username: str) -> int | None:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username == username))


def owned_counts(app, owner: int) -> dict[str, int]:
    with app.app_context():
        counts = {model.__tablename__: db.session.scalar(
            select(func.count()).select_from(model).where(model.user_id == owner))
            for model in (Review, ReviewState, LoginSession, ItemSuspension)}
        counts["user"] = db.session.scalar(
            select(func.count()).select_from(User).where(User.id == owner))
        return counts


def delete_account(client, password: str = PASSWORD, username: str = "sam", **extra):
    page = client.get("/settings").text
    return client.post(DELETE_URL, data={"csrf_token": csrf_token(page), "password": password,
                                         "confirm_username": username, **extra})


def test_the_review_log_downloads_oldest_first_with_every_column(app, client, bank, clock):
    register(client, "sam")
    first = study_one(client, clock, 1, 12)  # Again: back in a minute
    second = study_one(client, clock, 3, 4.5)
    clock.advance(minutes=2)
    again = study_one(client, clock, 4, 7)
    assert again == first  # its learning step came back
    response = client.get(REVIEWS_URL)
    assert response.status_code == 200
    assert response.mimetype == "text/csv" and response.mimetype_params["charset"] == "utf-8"
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="quizapp-reviews-sam-2025-03-03.csv"')
    assert response.headers.getlist("Cache-Control") == ["no-store"]
    assert read_csv(response) == [
        HEADER,
        ["2025-03-03T09:00:12Z", first, "card", f"Question {first}", "Again", "12000", "", "",
         "yes"],
        ["2025-03-03T09:00:16Z", second, "card", f"Question {second}", "Good", "4500", "", "",
         "yes"],
        ["2025-03-03T09:02:23Z", first, "card", f"Question {first}", "Easy", "7000", "", "",
         "no"],
    ]
    assert response.get_data(as_text=True).startswith(",".join(f'"{name}"' for name in HEADER) + "\r\n")


def test_the_settings_page_says_how_many_reviews_the_file_holds(client, bank, clock):
    register(client, "sam")
    assert "Download your reviews (CSV, 0 rows)" in client.get("/settings").text
    study_one(client, clock, 3, 5)
    page = client.get("/settings").text
    assert "(CSV, 1 row)" in page and "your review log (1 rating) at once" in page
    study_one(client, clock, 3, 5)
    page = client.get("/settings").text
    assert f'href="{REVIEWS_URL}" download>Download your reviews (CSV, 2 rows)' in page
    # Both files are offered alike, as buttons.
    assert f'<a class="button" href="{SCHEDULE_URL}" download>Download your schedule' in page
    assert "what you suspended and your review log (2 ratings) at once" in page


def test_another_users_reviews_never_appear(app, client, bank, clock):
    register(client, "sam")
    tess = app.test_client()
    register(tess, "tess")
    study_one(client, clock, 3, 5)
    for _ in range(3):
        study_one(tess, clock, 2, 5)
    sam_rows = read_csv(client.get(REVIEWS_URL))[1:]
    tess_rows = read_csv(tess.get(REVIEWS_URL))[1:]
    assert [row[4] for row in sam_rows] == ["Good"]
    assert [row[4] for row in tess_rows] == ["Hard"] * 3
    assert len(read_csv(client.get(SCHEDULE_URL))) == 1 + 1
    assert len(read_csv(tess.get(SCHEDULE_URL))) == 1 + 3


def test_a_visitor_is_sent_to_log_in(client, bank):
    for url in (REVIEWS_URL, SCHEDULE_URL):
        response = client.get(url)
        assert response.status_code == 302
        assert response.headers["Location"].startswith("/login?next=")


@pytest.mark.parametrize("text, shown", [
    ("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("a=b", "a=b"), ("(2, 3)", "(2, 3)"), ("", ""),
    (None, ""),
    # Whitespace before the formula: spreadsheets skip it (LibreOffice, Google Sheets, Excel
    # on a pasted cell), so the first character that is not whitespace decides.
    ("\n=1+1", "'\n=1+1"), (" =1+1", "' =1+1"), ("  \n -2", "'  \n -2"),
    ("\u00a0@x", "'\u00a0@x"), ("\u3000+1", "'\u3000+1"), (" a", " a"), ("\n", "\n")])
def test_cells_a_spreadsheet_would_run_get_an_apostrophe(text, shown):
    assert neutralize_cell(text) == shown


def test_formulas_in_titles_and_answers_are_neutralised_and_text_is_quoted(app, client, clock):
    cards = [make_card("formula-eq", title="=HYPERLINK(\"http://evil.example\",\"x\")"),
             make_card("formula-at", title="@SUM(A1:A9)"),
             make_card("quoted", title='Say "hi", then\nbye')]
    with app.app_context():
        families = puzzles.families()
        load_bank(db.session, cards, concepts_for(cards, families), families, clock())
    register(client, "sam")
    page = reach_first_skill(client)
    assert rate_current(client, 1, page, answer="=cmd|' /C calc'!A0").status_code == 303
    rows = read_csv(client.get(REVIEWS_URL))[1:]
    titles = {row[1]: row[3] for row in rows}
    assert titles["formula-eq"] == "'=HYPERLINK(\"http://evil.example\",\"x\")"
    assert titles["formula-at"] == "'@SUM(A1:A9)"
    assert titles["quoted"] == 'Say "hi", then\nbye'  # quoted by the csv module, kept whole
    skill_row = rows[-1]
    assert skill_row[2] == "skill" and skill_row[6] == "'=cmd|' /C calc'!A0"
    assert skill_row[7] == ""  # an answer that is no answer at all: correctness unknown
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)
    # Every cell is quoted, so a spreadsheet splitting on ";" keeps "x;=1+1" one cell.
    assert rate_current(client, 1, answer="x;=1+1").status_code == 303
    text = client.get(REVIEWS_URL).get_data(as_text=True)
    assert text.startswith('"reviewed_at_utc","item_key","item_kind","item_title","rating",')
    assert '"x;=1+1",' in text


def test_a_long_log_is_streamed_in_chunks(app, client, bank, clock):
    register(client, "sam")
    study_one(client, clock, 3, 5)
    owner = user_id(app, "sam")
    with app.app_context():
        template = db.session.scalars(select(Review)).one()
        columns = {column.key: getattr(template, column.key)
                   for column in Review.__table__.columns if column.key != "id"}
        db.session.execute(insert(Review), [{**columns, "answer": "x" * 40}] * 3000)
        db.session.commit()
    response = client.get(REVIEWS_URL, buffered=False)
    assert response.is_streamed
    chunks = list(response.response)
    assert len(chunks) > 5
    text = "".join(chunk if isinstance(chunk, str) else chunk.decode() for chunk in chunks)
    assert len(read_csv_text(text)) == 1 + 3001
    response.close()
    assert owned_counts(app, owner)["review"] == 3001


def read_csv_text(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_the_schedule_lists_each_rated_item_with_its_fsrs_state(app, client, bank, clock):
    register(client, "sam")
    key = study_one(client, clock, 3, 5)
    response = client.get(SCHEDULE_URL)
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="quizapp-schedule-sam-2025-03-03.csv"')
    header, row = read_csv(response)
    assert header == ["item_key", "item_kind", "item_title", "due_utc", "fsrs_state",
                      "stability_days", "difficulty", "reps", "last_reviewed_at_utc",
                      "suspended"]
    with app.app_context():
        state = db.session.scalars(select(ReviewState)).one()
        due = state.due.strftime("%Y-%m-%dT%H:%M:%SZ")
        stability, difficulty = state.state["stability"], state.state["difficulty"]
    assert row == [key, "card", f"Question {key}", due, "Learning", f"{stability:.4f}",
                   f"{difficulty:.4f}", "1", "2025-03-03T09:00:05Z", "no"]
    # A suspended item's due time waits for its resumption: the file says it is suspended.
    page = client.get(f"/questions/{key}").text
    client.post("/study/suspend", data={"csrf_token": csrf_token(page), "item_id": state.item_id})
    assert read_csv(client.get(SCHEDULE_URL))[1][-1] == "yes"


def test_deleting_the_account_removes_everything_of_theirs_and_signs_out(app, client, bank,
                                                                          clock):
    register(client, "sam")
    tess = app.test_client()
    register(tess, "tess")
    for _ in range(3):
        study_one(client, clock, 3, 5)
    study_one(tess, clock, 3, 5)
    login(app.test_client(), "sam")  # a second device's login goes too
    page = client.get("/study").text  # and what sam suspended
    shown = re.search(r'name="item_id" type="hidden" value="(\d+)"', page).group(1)
    assert client.post("/study/suspend", data={"csrf_token": csrf_token(page),
                                               "item_id": shown}).status_code == 303
    sam, tess_id = user_id(app, "sam"), user_id(app, "tess")
    assert owned_counts(app, sam) == {"review": 3, "review_state": 3, "login_session": 2,
                                      "item_suspension": 1, "user": 1}
    tess_before = owned_counts(app, tess_id)
    old_cookie = client.get_cookie("session").value
    response = delete_account(client)
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert owned_counts(app, sam) == {"review": 0, "review_state": 0, "login_session": 0,
                                      "item_suspension": 0, "user": 0}
    assert owned_counts(app, tess_id) == tess_before
    assert "Your account and its 3 reviews were deleted." in client.get("/").text
    assert client.get("/settings").status_code == 302
    stale = app.test_client()
    stale.set_cookie("session", old_cookie)
    assert stale.get("/study").status_code == 302  # the deleted login's cookie is dead
    assert tess.get("/study").status_code == 200


def test_the_remember_and_device_cookies_are_removed(app, client, bank):
    register(client, "sam")
    client.post("/logout", data={"csrf_token": csrf_token(client.get("/settings").text)})
    login(client, "sam", remember="y")
    assert client.get_cookie("remember_token") is not None
    assert client.get_cookie("quizapp_device") is not None
    remembered = client.get_cookie("remember_token").value
    assert delete_account(client).status_code == 303
    assert client.get_cookie("remember_token") is None
    assert client.get_cookie("quizapp_device") is None
    replay = app.test_client()
    replay.set_cookie("remember_token", remembered)
    assert replay.get("/study").status_code == 302


def test_the_same_username_can_be_registered_again(app, client, bank, clock):
    register(client, "sam")
    study_one(client, clock, 3, 5)
    old_id = user_id(app, "sam")
    assert delete_account(client, username="  SAM ").status_code == 303  # typed as at login
    response = register(client, "sam")
    assert response.status_code == 302 and response.headers["Location"] == "/study"
    # A new account with a new id (never the deleted one's, which open pages and puzzle seeds
    # still name, on SQLite too: 1f7b3d9e5a20): nothing of the old one is back.
    assert user_id(app, "sam") > old_id
    assert owned_counts(app, user_id(app, "sam")) == {"review": 0, "review_state": 0,
                                                      "login_session": 1, "item_suspension": 0,
                                                      "user": 1}
    assert read_csv(client.get(REVIEWS_URL)) == [HEADER]


def refused_field_error(html: str, field_id: str) -> str:
    match = re.search(rf'<p class="error" id="{field_id}-error-1">([^<]+)</p>', html)
    assert match, field_id
    return match.group(1)


def test_a_wrong_password_deletes_nothing_and_counts_as_a_failed_login(app, client, bank,
                                                                       clock):
    register(client, "sam")
    study_one(client, clock, 3, 5)
    sam = user_id(app, "sam")
    before = owned_counts(app, sam)
    for _ in range(app.config["LOGIN_LIMIT_PER_ACCOUNT"]):
        response = delete_account(client, password="not my password")
        assert response.status_code == 400
        assert refused_field_error(response.text, "delete_password") == "The password is not right."
        assert 'aria-invalid="true"' in response.text
    with app.app_context():
        failed = db.session.scalar(select(func.count()).select_from(LoginAttempt).where(
            LoginAttempt.username == "sam", LoginAttempt.succeeded.is_(False)))
    assert failed == app.config["LOGIN_LIMIT_PER_ACCOUNT"]
    throttled = delete_account(client)  # even the right password waits
    assert throttled.status_code == 429
    assert int(throttled.headers["Retry-After"]) > 0
    assert "Too many failed logins" in refused_field_error(throttled.text, "delete_password")
    assert owned_counts(app, sam) == before
    clock.advance(minutes=16)
    assert delete_account(client).status_code == 303


def test_a_wrong_username_deletes_nothing(app, client, bank, clock):
    register(client, "sam")
    study_one(client, clock, 3, 5)
    sam = user_id(app, "sam")
    before = owned_counts(app, sam)
    for typed in ("tess", "sam2", ""):
        response = delete_account(client, username=typed)
        assert response.status_code == 400
        assert "Error: Settings" in response.text  # the page's title says so
        error = refused_field_error(response.text, "confirm_username")
        assert error in ("Type your username, sam, to confirm.", "Type your username.")
    assert owned_counts(app, sam) == before


def test_a_post_without_its_csrf_token_deletes_nothing(app, client, bank, clock):
    register(client, "sam")
    study_one(client, clock, 3, 5)
    sam = user_id(app, "sam")
    before = owned_counts(app, sam)
    for token in ({}, {"csrf_token": "forged"}):
        response = client.post(DELETE_URL, data={"password": PASSWORD,
                                                 "confirm_username": "sam", **token})
        assert response.status_code == 400
        assert "<h1>Settings</h1>" in response.text
        assert "This form has expired or did not come from this site." in response.text
    assert owned_counts(app, sam) == before
    assert client.get("/study").status_code == 200


def test_a_signed_out_post_is_sent_back_to_the_settings_page(client, bank):
    page = client.get("/login").text
    response = client.post(DELETE_URL, data={"csrf_token": csrf_token(page),
                                             "password": PASSWORD, "confirm_username": "sam"})
    assert response.status_code == 302
    assert "next=%2Fsettings" in response.headers["Location"]



def test_a_stored_zone_this_server_does_not_know_still_downloads(app, client, bank, clock):
    # As every page, the file counts such an account's day in UTC (compute_user_zone); the
    # filename's date was read with the bare zone lookup, and the download was a 500.
    register(client, "sam")
    with app.app_context():
        db.session.execute(update(User).where(User.username == "sam")
                           .values(time_zone="Mars/Olympus_Mons"))
        db.session.commit()
    response = client.get(REVIEWS_URL)
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == (
        'attachment; filename="quizapp-reviews-sam-2025-03-03.csv"')
