"""Studying a card chosen on its question page ("Study it now"), ahead of the queue."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update
from webtest_support import PASSWORD, csrf_token, logout, rate_current, register, shown_key

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState, User
from quizapp.services.study_items import NO_SUCH_CARD, RETIRED_CARD


def reviews_of(app, username: str) -> list[Review]:
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        return list(db.session.scalars(select(Review).where(Review.user_id == user.id)
                                       .order_by(Review.id)))


def study_link(html: str) -> str | None:
    """The href of the card page's "Study it now" button, as the page writes it."""
    marker = 'class="study-it"><a class="button" href="'
    start = html.find(marker)
    return None if start < 0 else html[start + len(marker):html.index('"', start + len(marker))
                                       ].replace("&amp;", "&")


def test_a_card_page_offers_studying_it_and_its_link_shows_that_card(app, client, bank, clock):
    register(client, "sam")
    assert shown_key(client.get("/study").text) == "alpha-stride"  # the queue's head
    link = study_link(client.get("/questions/zeta-channels").text)
    assert link == "/study?card=zeta-channels"
    page = client.get(link)
    assert page.status_code == 200
    assert shown_key(page.text) == "zeta-channels"
    assert "ahead of your queue" in page.text
    assert "new to you, so rating it counts as one of today's new items" in page.text
    assert 'href="/questions/zeta-channels">Back to the question' in page.text
    clock.advance(seconds=5)
    response = rate_current(client, 3, page.text)
    assert response.status_code == 303 and response.headers["Location"] == "/study"
    (review,) = reviews_of(app, "sam")
    with app.app_context():
        assert db.session.get(Item, review.item_id).key == "zeta-channels"
    assert review.was_new and review.rating == 3 and review.duration_ms == 5000
    # Counted as one of today's new items, like any first rating; the queue carries on.
    after = client.get("/study").text
    assert shown_key(after) == "alpha-stride"
    assert "Good: “Question zeta-channels”" in after
    assert 'data-item-key="zeta-channels"' not in after


def test_a_card_not_yet_due_is_reviewed_early_from_its_current_state(app, client, bank, clock):
    register(client, "sam")
    rate_current(client, 3, client.get("/study?card=beta-view").text)  # learning step
    clock.advance(minutes=15)
    rate_current(client, 3, client.get("/study?card=beta-view").text)  # graduates: days away
    with app.app_context():
        state = db.session.scalar(select(ReviewState))
        before, due = state.state, state.due
    assert due - clock() > timedelta(days=1)
    clock.advance(hours=5)
    page = client.get("/study?card=beta-view").text
    assert shown_key(page) == "beta-view"
    assert "rating it now reviews it early" in page
    # The buttons show what an early review would schedule, and the rating does just that.
    expected = srs.preview_intervals(before, clock(), desired_retention=0.9,
                                     zone=srs.compute_zone(srs.DEFAULT_ZONE))
    assert srs.format_interval(expected[4]) in page
    rate_current(client, 4, page)
    review = reviews_of(app, "sam")[-1]
    assert review.state_before == before and review.was_review
    assert review.due_after == srs.review(before, 4, clock(), duration_ms=0,
                                          zone=srs.compute_zone(srs.DEFAULT_ZONE)).due
    # Once due, the note says so instead.
    clock.advance(seconds=(review.due_after - clock()).total_seconds() + 60)
    assert "It is due now." in client.get("/study?card=beta-view").text


def test_a_chosen_card_rated_twice_is_saved_once(app, client, bank):
    register(client, "sam")
    page = client.get("/study?card=gamma-offset").text
    assert rate_current(client, 3, page).status_code == 303
    second = rate_current(client, 3, page)
    assert second.status_code == 303
    assert "Not saved" in client.get("/study").text
    assert len(reviews_of(app, "sam")) == 1


def test_unknown_blank_and_retired_cards(app, client, bank):
    register(client, "sam")
    for key in ("no-such-card", "x" * 5000, "alpha-stride%00", "../study"):
        response = client.get("/study", query_string={"card": key})
        assert response.status_code == 404, key
        assert NO_SUCH_CARD.replace("'", "&#39;") in response.text
    # A skill's key is not a card's.
    assert client.get("/study?card=stride_of_view/junior").status_code == 404
    # Blank: the queue, as if the parameter were not there.
    assert shown_key(client.get("/study?card=%20").text) == "alpha-stride"
    with app.app_context():
        db.session.execute(update(Item).where(Item.key == "beta-view").values(retired=True))
        db.session.commit()
    response = client.get("/study?card=beta-view")
    assert response.status_code == 404 and RETIRED_CARD in response.text
    # Its page stays, without the button.
    page = client.get("/questions/beta-view").text
    assert "retired from the bank" in page and study_link(page) is None
    assert reviews_of(app, "sam") == []


def test_a_visitor_is_asked_to_log_in_and_lands_on_the_card(client, bank):
    register(client, "sam")
    logout(client)
    page = client.get("/questions/gamma-offset").text
    assert "Log in to study it" in page and "Study it now" not in page
    response = client.get(study_link(page))
    assert response.status_code == 302
    login_url = response.headers["Location"]
    assert login_url == "/login?next=%2Fstudy%3Fcard%3Dgamma-offset"
    form = client.get(login_url).text
    response = client.post(login_url, data={"csrf_token": csrf_token(form), "username": "sam",
                                            "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/study?card=gamma-offset"
    assert shown_key(client.get(response.headers["Location"]).text) == "gamma-offset"


def test_another_users_progress_is_neither_shown_nor_used(app, client, bank, clock):
    register(client, "sam")
    rate_current(client, 4, client.get("/study?card=delta-reshape").text)
    logout(client)
    register(client, "kim")
    page = client.get("/study?card=delta-reshape").text
    assert "new to you" in page  # kim's state, not sam's
    assert "You have reviewed this" not in client.get("/questions/delta-reshape").text
