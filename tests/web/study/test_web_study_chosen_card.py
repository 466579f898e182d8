"""Studying a card chosen on its question page ("Study it now"), ahead of the queue."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select, update
from webtest_support import (
    PASSWORD,
    counted_statements,
    csrf_token,
    logout,
    post_settings,
    rate_current,
    register,
    shown_key,
)

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState, User
from quizapp.services.store.study_items import RETIRED_CARD

NO_SUCH_CARD = "There is no question with that id to study."


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
    assert link == "/study?card=zeta-channels&seen=0"
    page = client.get(link)
    assert page.status_code == 200
    assert shown_key(page.text) == "zeta-channels"
    assert "Shown ahead of your queue, as you asked on its page." in page.text
    assert "new to you, so it counts as one of today's new items." in page.text
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
    assert re.search(r"It is due in \d days?, so this reviews it early\.", page)
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


def test_unknown_blank_and_retired_cards(app, client, skill_bank):
    register(client, "sam")
    for key in ("no-such-card", "ALPHA-STRIDE", "alpha_stride", "../study", "x" * 121):
        response = client.get("/study", query_string={"card": key})
        assert response.status_code == 404, key
        assert NO_SUCH_CARD in response.text
        assert 'href="/questions">Browse the questions</a>' in response.text
    # A skill's key is not a card's, though it names an item in the queue.
    with app.app_context():
        skill_key = db.session.scalar(select(Item.key).where(Item.kind == "skill"))
    assert client.get("/study", query_string={"card": skill_key}).status_code == 404
    assert client.get("/study", query_string={"card": "alpha\x00"}).status_code == 400
    # A key longer than the bank can hold is refused without asking the database for it.
    with counted_statements(app) as statements:
        assert client.get("/study", query_string={"card": "x" * 5000}).status_code == 404
    assert not any("item.key" in statement for statement in statements), statements
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
    assert "next due" not in page
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


def test_back_after_rating_a_chosen_card_does_not_offer_it_again(app, client, bank):
    register(client, "sam")
    link = study_link(client.get("/questions/delta-reshape").text)
    page = client.get(link).text
    assert rate_current(client, 3, page).status_code == 303
    # Back: the browser asks for the same link again (study pages are not cached).
    back = client.get(link)
    assert back.status_code == 303 and back.headers["Location"] == "/study"
    queue = client.get("/study").text
    assert "“Question delta-reshape” was rated or undone since you chose it" in queue
    assert shown_key(queue) == "alpha-stride"
    assert len(reviews_of(app, "sam")) == 1
    # Its page links at the new version: chosen again on purpose, it is shown.
    again = study_link(client.get("/questions/delta-reshape").text)
    assert again.endswith("&seen=1") and shown_key(client.get(again).text) == "delta-reshape"
    # A seen value that is no number is ignored, as a link without one.
    assert shown_key(client.get("/study?card=delta-reshape&seen=x").text) == "delta-reshape"


def test_undoing_a_chosen_rating_shows_that_card_again(app, client, bank):
    register(client, "sam")
    rate_current(client, 3, client.get("/study?card=epsilon-expand").text)
    queue = client.get("/study").text
    undone = client.post("/study/undo", data={
        "csrf_token": csrf_token(queue),
        "review_id": re.search(r'name="review_id" type="hidden" value="(\d+)"', queue).group(1),
        "review_token": re.search(r'name="review_token" type="hidden" value="([^"]+)"',
                                  queue).group(1)})
    assert undone.status_code == 303
    assert undone.headers["Location"] == "/study?card=epsilon-expand&undone=1&seen=0"
    page = client.get(undone.headers["Location"]).text
    assert shown_key(page) == "epsilon-expand"
    assert "Undone: “Question epsilon-expand” is back as it was before that rating." in page
    assert "chosen-note" not in page  # the flash says why it is here
    assert reviews_of(app, "sam") == []
    # Rated again, Back to that address does not offer it a third time.
    rate_current(client, 4, page)
    assert client.get(undone.headers["Location"]).status_code == 303
    assert len(reviews_of(app, "sam")) == 1


def test_over_the_new_limit_the_note_says_so(app, client, bank):
    register(client, "sam")
    post_settings(client, new_per_day="1")
    rate_current(client, 3)  # the day's one new item
    page = client.get("/study?card=zeta-channels").text
    assert ("It is new to you, so it counts as one of today's new items, over today's limit, "
            "which is used up.") in page
    rate_current(client, 3, page)
    (_, second) = reviews_of(app, "sam")
    assert second.was_new


def test_the_way_back_leads_to_the_list_the_card_was_opened_from(client, bank):
    register(client, "sam")
    card = client.get("/questions/beta-view?from=level%3Djunior%26sort%3Dtitle").text
    link = study_link(card)
    assert link == "/study?card=beta-view&seen=0&from=level%3Djunior%26sort%3Dtitle"
    page = client.get(link).text
    back = re.search(r'<a href="([^"]+)">Back to the question</a>', page).group(1)
    assert back.replace("&amp;", "&") == "/questions/beta-view?from=level%3Djunior%26sort%3Dtitle"
    # Only the list's own parameters travel.
    crafted = client.get("/study?card=beta-view&from=next%3D%2F%2Fevil.example%26level%3Dmiddle")
    back = re.search(r'<a href="([^"]+)">Back to the question</a>', crafted.text).group(1)
    assert back.replace("&amp;", "&") == "/questions/beta-view?from=level%3Dmiddle"


def test_a_new_account_made_from_the_login_page_lands_on_the_card(client, bank):
    response = client.get("/study?card=gamma-offset&seen=0")
    login_page = client.get(response.headers["Location"]).text
    register_link = re.search(r'href="(/register[^"]*)">Create an account', login_page).group(1)
    register_link = register_link.replace("&amp;", "&")
    assert register_link == "/register?next=/study?card%3Dgamma-offset%26seen%3D0"
    form = client.get(register_link).text
    assert 'href="/login?next=/study?card%3Dgamma-offset%26seen%3D0">Log in' in form
    action = re.search(r'<form method="post" action="([^"]+)"', form).group(1)
    created = client.post(action.replace("&amp;", "&"), data={
        "csrf_token": csrf_token(form), "username": "newbie", "password": PASSWORD,
        "confirm": PASSWORD})
    assert created.status_code == 302
    assert created.headers["Location"] == "/study?card=gamma-offset&seen=0"
    # An address elsewhere is not followed.
    client.post("/logout", data={"csrf_token": csrf_token(client.get("/questions").text)})
    form = client.get("/register?next=https://evil.example/").text
    created = client.post("/register?next=https://evil.example/", data={
        "csrf_token": csrf_token(form), "username": "other", "password": PASSWORD,
        "confirm": PASSWORD})
    assert created.headers["Location"] == "/study"


def test_odd_seen_and_from_values_are_ignored_never_a_500(client, bank):
    register(client, "sam")
    for seen in ("²", "١", "٣٤", "0" * 40, "-1", " 1", "1e3", "０", "\u00b9\u00b2"):
        response = client.get("/study", query_string={"card": "alpha-stride", "seen": seen})
        assert response.status_code == 200, seen
        assert shown_key(response.text) == "alpha-stride"
    for came_from in ("%", "a=b=c", "level=" + "x" * 300, "\u202e", "&&&", "level=middle&" * 50):
        response = client.get("/study", query_string={"card": "alpha-stride", "from": came_from})
        assert response.status_code == 200, came_from


def test_log_in_to_study_it_lands_on_the_card_for_someone_who_studied_it(client, bank):
    # The signed-out link said seen=0, so a returning learner whose
    # card was at another version was sent to the queue.
    register(client, "sam")
    rate_current(client, 3, client.get("/study?card=beta-view").text)
    logout(client)
    link = study_link(client.get("/questions/beta-view").text)
    assert link == "/study?card=beta-view"
    login_url = client.get(link).headers["Location"]
    form = client.get(login_url).text
    response = client.post(login_url, data={"csrf_token": csrf_token(form), "username": "sam",
                                            "password": PASSWORD})
    page = client.get(response.headers["Location"]).text
    assert shown_key(page) == "beta-view"
