"""A card's page shows the signed-in user's record with it (Anki's card info): every review
counted, lapses, time spent, and FSRS's stability, difficulty and chance of recall now."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from fsrs import Card, Scheduler
from sqlalchemy import select
from webtest_support import csrf_token, rate_current, register, shown_key

from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState
from quizapp.services import item_record

RECORD = "Your record with this question"


def figure(page: str, name: str) -> str:
    """The text of the record's line named ``name`` (tags dropped)."""
    match = re.search(rf"<dt>{re.escape(name)}</dt><dd>(.*?)</dd>", page, re.S)
    assert match, f"no {name!r} line in the record"
    return re.sub(r"<[^>]+>", "", match.group(1))


def listed_ratings(page: str) -> list[str]:
    table = page[page.index('class="table history record-reviews"'):]
    table = table[:table.index("</table>")]
    return re.findall(r'class="rating-chip rate-\d">(\w+)<', table)


def rate_card(client, key: str, rating: int, seconds: float) -> None:
    """Rate ``key`` through its Study it now page, ``seconds`` after the page was shown."""
    page = client.get(f"/study?card={key}").text
    assert shown_key(page) == key
    client.application.config["CLOCK"].advance(seconds=seconds)
    assert rate_current(client, rating, page).status_code == 303


@pytest.fixture
def lapsed(app, client, bank, clock):
    """alpha-stride rated Again (a first step, not a lapse), Good, Good (into review), Again
    when due (a lapse), Good; each shown for 8 seconds. Returns the stored state."""
    register(client, "rae")
    for rating, wait in ((1, dict(minutes=1)), (3, dict(minutes=10)), (3, {}), (1, None),
                         (3, dict(minutes=10))):
        if wait is None:  # back when it is due, at 10:00 on its day
            with app.app_context():
                due = db.session.scalar(select(ReviewState.due))
            clock.advance(seconds=(due - clock()).total_seconds() + 6 * 3600)
        rate_card(client, "alpha-stride", rating, 8)
        if wait:
            clock.advance(**wait)
    with app.app_context():
        return db.session.scalar(select(ReviewState.state))


def test_the_record_counts_every_review_and_the_lapse_and_reads_fsrs(app, client, lapsed,
                                                                     clock):
    clock.advance(days=3)  # 10:10 + 3 days: three study days since the last review (UTC)
    page = client.get("/questions/alpha-stride").text
    assert RECORD in page
    assert figure(page, "Reviews").startswith("5 (first 2025-03-03 09:00, latest ")
    assert figure(page, "Lapses").startswith("1 ")  # the first-step Again is not a lapse
    assert listed_ratings(page) == ["Good", "Again", "Good", "Good", "Again"]  # newest first
    assert figure(page, "Time spent") == "40 s in all, 8 s a review"
    card = Card.from_dict(lapsed)
    assert figure(page, "Stage").startswith("review; due ")
    assert figure(page, "Stability").startswith(f"{card.stability:.1f} days")
    assert figure(page, "Difficulty") == f"{card.difficulty:.1f} of 10"
    counted = Card.from_dict(lapsed)
    counted.last_review = clock() - timedelta(days=3)
    chance = Scheduler(enable_fuzzing=False).get_card_retrievability(counted, clock())
    assert chance < 0.99  # three days on, the chance has fallen: the figure says something
    assert figure(page, "Chance you recall it now").startswith(
        f"{chance * 100:.0f}% (FSRS's estimate; 3 days since your latest review)")


def test_only_the_newest_reviews_are_listed_and_the_rest_are_counted(client, lapsed,
                                                                     monkeypatch):
    monkeypatch.setattr(item_record, "RECORD_REVIEWS_SHOWN", 2)
    page = client.get("/questions/alpha-stride").text
    assert figure(page, "Reviews").startswith("5 ")
    assert listed_ratings(page) == ["Good", "Again"]
    assert "3 earlier reviews not listed here" in page
    assert figure(page, "Chance you recall it now").startswith(
        "100% (FSRS's estimate; your latest review was today)")


def test_no_record_for_a_visitor_a_card_never_rated_or_another_users_card(app, client,
                                                                          lapsed):
    assert RECORD not in client.get("/questions/beta-view").text  # never rated by rae
    other = app.test_client()
    register(other, "otto")
    page = other.get("/questions/alpha-stride").text
    assert "alpha-stride" in page and RECORD not in page
    assert RECORD not in app.test_client().get("/questions/alpha-stride").text


def test_an_undone_rating_leaves_the_record(app, client, lapsed):
    with app.app_context():
        newest = db.session.scalar(select(Review.id).order_by(Review.id.desc()))
    page = client.get("/study").text
    assert client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                            "review_id": str(newest)}).status_code == 303
    record = client.get("/questions/alpha-stride").text
    assert figure(record, "Reviews").startswith("4 ")
    assert listed_ratings(record) == ["Again", "Good", "Good", "Again"]
    assert figure(record, "Stage").startswith("relearning; due ")


def test_a_retired_card_keeps_its_record_without_a_schedule(app, client, lapsed):
    with app.app_context():
        db.session.scalar(select(Item).where(Item.key == "alpha-stride")).retired = True
        db.session.commit()
    page = client.get("/questions/alpha-stride").text
    assert figure(page, "Reviews").startswith("5 ")
    assert "<dt>Stage</dt>" not in page and "<dt>Stability</dt>" not in page


def test_the_reviews_table_names_itself_and_marks_its_column_headers(client, bank, clock):
    # As the app's other tables (Stats, suspended items): each header cell says it heads a
    # column, so the association holds for readers that do not infer it from <thead>.
    register(client, "tia")
    rate_card(client, "alpha-stride", 3, 5)
    page = client.get("/questions/alpha-stride").text
    table = page[page.index('class="table history record-reviews"'):]
    table = table[:table.index("</table>")]
    assert "<caption>Your review of it</caption>" in table
    heads = re.findall(r"<th\b[^>]*>", table)
    assert len(heads) == 4 and all('scope="col"' in head for head in heads), heads
