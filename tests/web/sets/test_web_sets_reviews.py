"""Add to my reviews: a set's cards and puzzle skills come first among the user's new items;
those already studied keep their schedule."""

from __future__ import annotations

import re

from sqlalchemy import select
from test_web_sets import save
from webtest_support import csrf_token, post_settings, rate_current, register, shown_key

from quizapp.extensions import db
from quizapp.models import Item, QueuedItem, ReviewState, User
from quizapp.services import practice_sets as sets
from quizapp.services.set_reviews import compute_item_keys

NEW_COUNT = re.compile(r'class="count count-new"[^>]*><strong>([0-9]+)</strong>')


def set_keys(app, slug: str) -> list[tuple[str, str]]:
    with app.app_context():
        return compute_item_keys(sets.load_set(db.session, slug))


def add(client, slug: str):
    page = client.get(f"/sets/{slug}")
    return client.post(f"/sets/{slug}/reviews", data={"csrf_token": csrf_token(page.text)},
                       follow_redirects=True)


def test_the_sets_items_come_first_among_new_ones_and_studied_ones_keep_their_schedule(
        app, client, skill_bank):
    register(client, "learner")
    # Middle cards and puzzles: the queue would start with the junior cards.
    slug = save(client, levels="middle", families="", count="4", puzzles="2")
    keys = set_keys(app, slug)
    assert {kind for kind, _ in keys} == {"card", "skill"}
    first_before = shown_key(client.get("/study").text)
    assert first_before not in {key for _, key in keys}
    # One of the set's cards is studied first: it keeps its schedule.
    studied = next(key for kind, key in keys if kind == "card")
    page = client.get(f"/study?card={studied}")
    rate_current(client, 3, page.text)
    with app.app_context():
        before = db.session.scalar(select(ReviewState.due).join(Item).where(Item.key == studied))
    done = add(client, slug)
    assert "Added 3 items to your reviews" in done.text
    assert "1 item you have studied already keep their schedule" in done.text
    shown = []
    for _ in range(3):
        page = client.get("/study").text
        shown.append(shown_key(page))
        rate_current(client, 4, page)
    assert shown == [key for _, key in keys if key != studied]
    with app.app_context():
        after = db.session.scalar(select(ReviewState.due).join(Item).where(Item.key == studied))
    assert after == before
    again = add(client, slug)
    assert "Nothing new to add" in again.text


def test_added_items_below_the_new_items_level_are_brought_in_and_counted(app, client,
                                                                          skill_bank):
    register(client, "senior")
    post_settings(client, new_from_level="senior", new_per_day="999")
    slug = save(client, levels="junior", families="", count="2", puzzles="0")
    keys = [key for _, key in set_keys(app, slug)]
    page = client.get("/study").text
    assert shown_key(page) not in keys
    new_before = int(NEW_COUNT.search(page).group(1))
    add(client, slug)
    page = client.get("/study").text
    assert shown_key(page) == keys[0]
    assert int(NEW_COUNT.search(page).group(1)) == new_before + 2
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == "senior"))
        assert db.session.scalar(select(QueuedItem.position).where(
            QueuedItem.user_id == user.id).order_by(QueuedItem.position)) == 0


def test_adding_needs_an_account_and_a_csrf_token(app, client, skill_bank):
    register(client, "owner")
    slug = save(client)
    assert client.post(f"/sets/{slug}/reviews").status_code == 400
    client.post("/logout", data={"csrf_token": csrf_token(client.get("/sets").text)})
    assert client.post(f"/sets/{slug}/reviews").status_code in (302, 400)
    with app.app_context():
        assert db.session.scalars(select(QueuedItem)).all() == []
