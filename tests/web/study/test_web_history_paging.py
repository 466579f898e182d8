"""The review history in pages of 50, newest first, with Newer/Older links and a count line."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import insert, select
from webtest_support import counted_statements, login, rate_current, register

from quizapp.extensions import db
from quizapp.models import Item, Review, User

ROW_RE = re.compile(r'<tr data-review-id="(\d+)">')
MALFORMED = ["0", "-1", "", " ", "1 ", "+1", "1.0", "1e3", "0x10", "²", "١", "abc", "100001",
             "999999", "9" * 40, "' OR 1=1 --"]


def shown_ids(html: str) -> list[int]:
    return [int(found) for found in ROW_RE.findall(html)]


def add_reviews(app, clock, plan: list[str]) -> dict[str, list[int]]:
    """One review per name in ``plan``, a minute apart and in that order, on the bank's items in
    turn; returns each user's review ids, oldest first. Written straight to the table: rating
    113 items through the pages would only slow the test down."""
    with app.app_context():
        users = {user.username: user.id for user in db.session.scalars(select(User))}
        items = list(db.session.scalars(select(Item.id).order_by(Item.id)))
        ids: dict[str, list[int]] = {name: [] for name in users}
        for number, name in enumerate(plan):
            moment = clock() + timedelta(minutes=number)
            ids[name].append(db.session.execute(insert(Review).values(
                user_id=users[name], item_id=items[number % len(items)], reviewed_at=moment,
                rating=number % 4 + 1, was_new=False, state_after={}, due_after=moment,
                version_after=1, fsrs_log={})).inserted_primary_key[0])
        db.session.commit()
    return ids


@pytest.fixture
def history(app, client, bank, clock) -> dict[str, list[int]]:
    """sam with 113 reviews and tess with 20, their ids interleaved; the client is sam's."""
    register(app.test_client(), "tess")
    register(client, "sam")
    plan = ["sam"] * 113
    for slot in range(0, 100, 5):
        plan.insert(slot, "tess")
    return add_reviews(app, clock, plan)


def test_pages_of_50_newest_first_with_links_and_counts(client, history):
    newest_first = history["sam"][::-1]
    first = client.get("/study/history")
    assert first.status_code == 200
    assert shown_ids(first.text) == newest_first[:50]
    assert "Reviews 1–50 of 113" in first.text and "Page 1 of 3" in first.text
    assert 'href="/study/history?page=2">Older →' in first.text
    assert "Newer" not in first.text
    heads = re.findall(r"<th\b[^>]*>", first.text)  # each says it heads a column, as elsewhere
    assert len(heads) == 7 and all('scope="col"' in head for head in heads), heads
    assert shown_ids(client.get("/study/history?page=1").text) == newest_first[:50]

    second = client.get("/study/history?page=2").text
    assert shown_ids(second) == newest_first[50:100]
    assert "Reviews 51–100 of 113" in second and "Page 2 of 3" in second
    assert 'href="/study/history?page=1">← Newer' in second
    assert 'href="/study/history?page=3">Older →' in second

    third = client.get("/study/history?page=3").text
    assert shown_ids(third) == newest_first[100:] == history["sam"][12::-1]  # the 13 oldest
    assert "Reviews 101–113 of 113" in third and "Page 3 of 3" in third
    assert 'href="/study/history?page=2">← Newer' in third
    assert "Older" not in third


def test_another_users_reviews_never_appear(app, client, history):
    seen = [review_id for page in (1, 2, 3)
            for review_id in shown_ids(client.get(f"/study/history?page={page}").text)]
    assert sorted(seen) == history["sam"] and not set(seen) & set(history["tess"])
    tess = app.test_client()
    login(tess, "tess")
    page = tess.get("/study/history").text
    assert shown_ids(page) == history["tess"][::-1]
    assert "Reviews 1–20 of 20" in page and 'class="pager"' not in page


def test_a_page_past_the_end_shows_the_last_page_as_the_question_browser_does(client, history):
    for value in ("4", "100000"):
        page = client.get(f"/study/history?page={value}")
        assert page.status_code == 200
        assert shown_ids(page.text) == history["sam"][12::-1]
        assert "Reviews 101–113 of 113" in page.text and "Page 3 of 3" in page.text


@pytest.mark.parametrize("value", MALFORMED)
def test_a_malformed_or_out_of_range_page_is_a_400_with_the_message(client, history, value):
    response = client.get("/study/history", query_string={"page": value})
    assert response.status_code == 400, value
    assert "A page number is a whole number from 1 to 100000." in response.text


def test_a_page_costs_the_same_few_queries_however_long_the_history(app, client, history):
    """The count, the page's rows and one query for their items (after the session's user)."""
    client.get("/study/history")
    with counted_statements(app) as statements:
        assert client.get("/study/history?page=2").status_code == 200
    on_review = [s for s in statements if "FROM review" in s]
    assert len(on_review) == 2, statements
    assert len(statements) <= 5, statements


def test_an_empty_history_has_one_page_and_no_pager(client, bank):
    register(client, "sam")
    for value in ("1", "7"):
        page = client.get(f"/study/history?page={value}")
        assert page.status_code == 200
        assert "No reviews yet" in page.text and 'class="pager"' not in page.text


def test_a_short_history_has_no_pager(client, bank):
    register(client, "sam")
    rate_current(client, 3)
    page = client.get("/study/history").text
    assert len(shown_ids(page)) == 1
    assert "Reviews 1–1 of 1" in page and 'class="pager"' not in page


def test_the_history_needs_an_account(client, bank):
    response = client.get("/study/history?page=2")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
