"""Studying cards: queue order, daily limits, ratings with intervals, the log, and undo."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from webtest_support import (
    PASSWORD,
    change_password,
    csrf_token,
    login,
    post_settings,
    rate_current,
    register,
    shown_key,
    study_token,
)

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Review, ReviewState, User
from quizapp.web.rendering.filters import format_spoken_interval


def reviews_of(app, username: str) -> list[Review]:
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        return list(db.session.scalars(select(Review).where(Review.user_id == user.id)
                                       .order_by(Review.id)))


def set_limits(app, username: str, *, new: int | None = None, reviews: int | None = None):
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        if new is not None:
            user.new_per_day = new
        if reviews is not None:
            user.reviews_per_day = reviews
        db.session.commit()


def test_studying_needs_an_account(client, bank):
    response = client.get("/study")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    # A well-formed post (a real CSRF token) still needs an account, and saves nothing.
    token = csrf_token(client.get("/login").text)
    response = client.post("/study/rate", data={"csrf_token": token, "rating": "3"})
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_new_cards_come_in_bank_order_with_intervals_on_the_buttons(client, bank, clock):
    register(client, "sam")
    page = client.get("/study")
    assert page.status_code == 200
    assert shown_key(page.text) == "alpha-stride"
    expected = srs.preview_intervals(srs.new_state(clock()), clock(), desired_retention=0.9)
    for rating, delta in expected.items():
        label = srs.format_interval(delta)
        assert re.search(rf'value="{rating}"[^>]*>\s*<span class="rate-label">\w+</span>\s*'
                         rf'<span class="rate-interval">{re.escape(label)}</span>', page.text)
    assert "What does <strong>alpha-stride</strong> ask?" in page.text  # Markdown rendered
    assert 'class="highlight"' in page.text  # code highlighted
    assert "(3, 1)" in page.text  # recorded output shown


def test_a_rating_is_logged_with_time_duration_and_state(app, client, bank, clock):
    register(client, "sam")
    page = client.get("/study")
    clock.advance(seconds=7)
    response = rate_current(client, 3, page.text)
    assert response.status_code == 303 and response.headers["Location"] == "/study"
    (review,) = reviews_of(app, "sam")
    assert review.rating == 3 and review.reviewed_at == clock()
    assert review.duration_ms == 7000 and review.answer is None and review.correct is None
    assert review.was_new and review.state_before is None
    expected = srs.review(srs.new_state(clock()), 3, clock(), duration_ms=7000)
    assert review.due_after == expected.due
    follow = client.get("/study")
    # The page after the rating confirms it from the review log: the interval just set.
    label = format_spoken_interval(srs.format_interval(expected.due - clock()))
    assert last_rating(follow.text) == f"Good: “Question alpha-stride” comes back in {label}."
    assert shown_key(follow.text) == "gamma-offset"


def last_rating(html: str) -> str | None:
    found = re.search(r'<span class="last-rating"[^>]*>([^<]*)</span>', html)
    return found.group(1) if found else None


def test_the_last_rating_line_counts_down_to_the_due_time(client, bank, clock):
    register(client, "sam")
    assert last_rating(client.get("/study").text) is None  # nothing rated yet
    rate_current(client, 3)  # Good on a new card: its next learning step is 10 minutes away
    assert last_rating(client.get("/study").text).endswith("” comes back in 10 minutes.")
    clock.advance(minutes=4)
    assert last_rating(client.get("/study").text).endswith("” comes back in 6 minutes.")
    clock.advance(minutes=6)
    page = client.get("/study").text
    # Due now: the line no longer promises a time (limits or retirement decide what shows).
    assert last_rating(page) == "Good: “Question alpha-stride”."
    assert shown_key(page) == "alpha-stride"


@pytest.mark.parametrize("hour", [9, 22, 3])
def test_the_line_after_a_day_long_rating_repeats_the_buttons_label(client, bank, clock, hour):
    # Rated at 22:00 UTC, Easy's "8d" ends at 04:00 of the eighth study day on, 7 days and
    # 6 hours later, which the line said as "7 days".
    clock.advance(hours=(hour - clock().hour) % 24)
    register(client, "sam")
    page = client.get("/study").text
    easy = re.search(r'value="4"[^>]*>\s*<span class="rate-label">Easy</span>\s*'
                     r'<span class="rate-interval">([^<]+)</span>', page).group(1)
    assert easy.endswith("d")
    rate_current(client, 4, page)
    assert last_rating(client.get("/study").text).endswith(
        f" comes back in {format_spoken_interval(easy)}.")


def test_a_learning_step_ending_as_the_study_day_begins_is_confirmed_in_minutes(client, bank,
                                                                              clock):
    # Good's "10m" from 03:50:00 ends at 04:00:00 exactly, the next study day's first moment;
    # the line said "1 day", reading it as a day-long interval.
    clock.advance(hours=18, minutes=49)  # 03:49 UTC the next morning
    register(client, "sam")
    assert rate_current(client, 1).status_code == 303  # Again: a minute's step
    clock.advance(minutes=1)
    page = client.get("/study").text
    assert re.search(r'value="3"[^>]*>\s*<span class="rate-label">Good</span>\s*'
                     r'<span class="rate-interval">10m</span>', page)
    assert rate_current(client, 3, page).status_code == 303
    assert last_rating(client.get("/study").text).endswith(" comes back in 10 minutes.")


def test_rating_and_the_next_page_leave_the_session_cookie_alone(client, bank):
    """The confirmation comes from the database, so neither response re-signs the session."""
    register(client, "sam")
    page = client.get("/study")
    response = rate_current(client, 3, page.text)
    assert response.status_code == 303
    assert "Set-Cookie" not in response.headers
    follow = client.get("/study")
    assert "Set-Cookie" not in follow.headers
    assert "comes back in" in follow.text


def test_due_reviews_come_before_new_cards(client, bank, clock):
    register(client, "sam")
    rate_current(client, 1)  # alpha: Again -> due in a minute
    assert shown_key(client.get("/study").text) == "gamma-offset"
    clock.advance(minutes=2)
    page = client.get("/study")
    assert shown_key(page.text) == "alpha-stride"
    assert re.search(r"<strong>1</strong> due", page.text)


def test_daily_new_limit_then_the_next_day(app, client, bank, clock):
    register(client, "sam")
    set_limits(app, "sam", new=2)
    rate_current(client, 4)
    rate_current(client, 4)
    page = client.get("/study")
    assert "All done for now" in page.text and shown_key(page.text) is None
    assert "That is today's limit of 2 new items; more arrive tomorrow." in page.text
    assert "Today: 2 ratings — 2 new, 0 reviews, 0 learning steps." in page.text
    set_limits(app, "sam", new=0)
    assert "New items are off" in client.get("/study").text
    set_limits(app, "sam", new=2)
    clock.advance(days=1)
    page = client.get("/study")
    assert shown_key(page.text) == "beta-view"


def learn_every_card_then_return(app, client, clock, *, new: int, reviews: int) -> None:
    """Rate ``new`` new cards Easy (straight to Review, days away), then come back a month on,
    when all of them are due as reviews (and no new card is on offer)."""
    set_limits(app, "sam", new=new, reviews=reviews)
    for _ in range(new):
        rate_current(client, 4)
    clock.advance(days=30)
    set_limits(app, "sam", new=0)


def test_daily_review_limit(app, client, bank, clock):
    register(client, "sam")
    learn_every_card_then_return(app, client, clock, new=3, reviews=1)
    rate_current(client, 3)  # the one review allowed today
    page = client.get("/study")
    assert "All done for now" in page.text
    assert len(reviews_of(app, "sam")) == 4
    # Two are overdue but held back by the limit: the page says so, not "due now".
    assert "Your next review is due" not in page.text
    assert ("That is today's limit of 1 review. 2 more are due: they wait for tomorrow, "
            "or raise the limit in Daily limits.") in page.text
    assert "Today: 1 rating — 0 new, 1 review, 0 learning steps." in page.text
    set_limits(app, "sam", reviews=0)  # off: "tomorrow" would not bring them either
    assert ("Reviews are off: their daily limit is 0. 2 are due; raise the limit in Daily "
            "limits to review them.") in client.get("/study").text
    set_limits(app, "sam", reviews=2)
    assert shown_key(client.get("/study").text) is not None  # a raised limit releases one


def test_learning_steps_are_shown_over_the_review_limit_and_not_counted(app, client, bank,
                                                                        clock):
    register(client, "sam")
    learn_every_card_then_return(app, client, clock, new=3, reviews=1)
    lapsed = shown_key(client.get("/study").text)
    rate_current(client, 1)  # Again: today's one review; the card relearns in 10 minutes
    # Nothing else may be shown (two reviews are held), so the step is learned ahead: as in
    # Anki, learning steps pass the review limit.
    page = client.get("/study").text
    assert shown_key(page) == lapsed and "shown again early" in page
    clock.advance(minutes=10)
    page = client.get("/study").text
    assert shown_key(page) == lapsed
    assert "<strong>1</strong> due" in page
    rate_current(client, 3, page)  # Good: back in Review, days away
    page = client.get("/study").text
    assert shown_key(page) is None
    # the relearning step counted toward no limit
    assert "Today: 2 ratings — 0 new, 1 review, 1 learning step." in page
    assert "2 more are due: they wait for tomorrow" in page
    with app.app_context():
        flags = db.session.execute(select(Review.was_new, Review.was_review)
                                   .order_by(Review.id)).all()
    assert [tuple(map(bool, row)) for row in flags] == [(True, False)] * 3 + [
        (False, True), (False, False)]


def test_a_review_due_later_today_over_the_limit_is_not_promised(app, client, bank, clock):
    register(client, "sam")
    learn_every_card_then_return(app, client, clock, new=2, reviews=1)
    rate_current(client, 3)  # today's one review
    with app.app_context():  # the other review falls due later today (an offset changed)
        waiting = db.session.scalar(select(ReviewState).where(ReviewState.due <= clock()))
        waiting.due = clock() + timedelta(minutes=5)
        db.session.commit()
    page = client.get("/study").text
    assert shown_key(page) is None and "Your next review is due" not in page
    assert ("That is today's limit of 1 review. The next review falls due in 5 minutes; it waits for "
            "tomorrow, or raise the limit in Daily limits.") in page
    set_limits(app, "sam", reviews=0)
    assert ("Reviews are off: their daily limit is 0. The next review falls due in 5 minutes; raise "
            "the limit in Daily limits to review it.") in client.get("/study").text


def test_a_review_due_after_today_is_promised_even_over_the_limit(app, client, bank, clock):
    register(client, "sam")
    learn_every_card_then_return(app, client, clock, new=1, reviews=1)
    rate_current(client, 3)  # today's one review -> days away
    page = client.get("/study").text
    assert shown_key(page) is None and "today's limit of 1 review" not in page
    assert re.search(r"Your next review is due in [0-9.]+ (days|months?|years?)\.", page)


def test_an_earlier_days_rating_is_not_offered_for_undo(client, bank, clock):
    register(client, "sam")
    rate_current(client, 4)  # Easy: days away
    page = client.get("/study").text
    assert last_rating(page).startswith("Easy: ") and "data-undo-form" in page
    clock.advance(days=1)
    page = client.get("/study").text
    assert last_rating(page) is None and "data-undo-form" not in page


def test_learning_cards_are_shown_ahead_when_nothing_else_is_left(app, client, bank, clock):
    register(client, "sam")
    set_limits(app, "sam", new=1)
    rate_current(client, 3)  # Good on a new card: a 10-minute learning step
    page = client.get("/study")
    assert shown_key(page.text) == "alpha-stride" and "learning ahead" in page.text
    # The card is back before its 10 minutes: the line must not promise them.
    assert last_rating(page.text) == (
        "Good: “Question alpha-stride”; nothing else is due, so it is shown again early.")


def test_just_after_a_rating_the_line_repeats_the_buttons_label(client, bank, clock):
    register(client, "sam")
    page = client.get("/study").text
    hard = srs.preview_intervals(srs.new_state(clock()), clock(), desired_retention=0.9)[2]
    assert hard == timedelta(minutes=5, seconds=30)
    assert re.search(r'value="2"[^>]*>\s*<span class="rate-label">Hard</span>\s*'
                     r'<span class="rate-interval">6m</span>', page)
    rate_current(client, 2, page)
    clock.advance(seconds=1)  # 5m29s left would round to "5m"
    assert last_rating(client.get("/study").text).endswith(" comes back in 6 minutes.")
    clock.advance(seconds=59)  # a minute on, the line counts down from now: 4m30s
    assert last_rating(client.get("/study").text).endswith(" comes back in 5 minutes.")
    clock.advance(minutes=1)
    assert last_rating(client.get("/study").text).endswith(" comes back in 4 minutes.")


def test_double_submit_is_counted_once(app, client, bank):
    register(client, "sam")
    page = client.get("/study").text
    first = rate_current(client, 3, page)
    second = rate_current(client, 3, page)
    assert first.status_code == second.status_code == 303
    assert len(reviews_of(app, "sam")) == 1
    assert "Not saved: this item was rated or undone since this page was shown" in client.get(
        "/study").text


def test_a_page_from_before_an_undo_is_not_told_its_rating_stands(app, client, bank, clock):
    """Rated from a kept page, then undone (the version moves on): a rating from the older page
    was told "that earlier rating stands", of a rating undone."""
    register(client, "sam")
    first = client.get("/study").text
    rate_current(client, 1, first)  # Again: the card stays in learning steps
    clock.advance(minutes=2)
    kept = client.get("/study").text  # the same card, due again: version 1
    assert shown_key(kept) == shown_key(first)
    assert rate_current(client, 3, kept).status_code == 303
    page = client.get("/study").text
    review_id = re.search(r'name="review_id" type="hidden" value="(\d+)"', page).group(1)
    client.post("/study/undo", data={"csrf_token": csrf_token(page), "review_id": review_id})
    assert rate_current(client, 4, kept).status_code == 303
    shown = client.get("/study").text
    assert "rated or undone since this page was shown" in shown
    assert "earlier rating stands" not in shown
    assert [review.rating for review in reviews_of(app, "sam")] == [1]


def test_bad_ratings_and_tampered_tokens_are_refused(app, client, bank):
    register(client, "sam")
    page = client.get("/study").text
    data = {"csrf_token": csrf_token(page), "token": study_token(page)}
    assert client.post("/study/rate", data={**data, "rating": "5"}).status_code == 400
    assert client.post("/study/rate", data={**data, "rating": "x"}).status_code == 400
    # int() reads other scripts' digits ("٣" and "３" are 3); the form takes 0-9 only.
    for digits in ("٣", "３", "𝟑"):
        assert client.post("/study/rate", data={**data, "rating": digits}).status_code == 400
    assert client.post("/study/rate", data=data).status_code == 400
    forged = client.post("/study/rate", data={**data, "token": data["token"][:-3] + "abc",
                                              "rating": "3"})
    assert forged.status_code == 400 and "damaged" in forged.text
    assert "here is the queue" not in forged.text  # the error page shows no queue
    empty = client.post("/study/rate", data={**data, "token": "", "rating": "3"})
    assert empty.status_code == 400 and "damaged" in empty.text
    assert "Pick one of" in client.post("/study/rate", data={**data, "rating": "9"}).text
    missing_csrf = client.post("/study/rate", data={"token": data["token"], "rating": "3"})
    assert missing_csrf.status_code == 400
    assert reviews_of(app, "sam") == []


@pytest.mark.parametrize("path", ["/study/rate", "/study/answer", "/study/undo"])
@pytest.mark.parametrize("csrf", [None, "", "not-a-token", "forged"])
def test_study_posts_without_a_valid_csrf_token_change_nothing(app, client, bank, path, csrf):
    """The study forms leave CSRF to the app-wide check: it must refuse every bad token."""
    register(client, "sam")
    page = client.get("/study").text
    assert rate_current(client, 3, page).status_code == 303
    page = client.get("/study").text
    data = {"token": study_token(page), "rating": "3", "answer": "(1,)", "review_id": "1"}
    if csrf == "forged":
        data["csrf_token"] = csrf_token(page)[:-4] + "AAAA"
    elif csrf is not None:
        data["csrf_token"] = csrf
    response = client.post(path, data=data)
    assert response.status_code == 400 and "did not come from this site" in response.text
    assert len(reviews_of(app, "sam")) == 1


def test_a_token_from_another_account_is_refused(app, client, bank):
    register(client, "sam")
    sams_page = client.get("/study").text
    other = app.test_client()
    register(other, "tess")
    tess_page = other.get("/study").text
    response = other.post("/study/rate", data={
        "csrf_token": csrf_token(tess_page), "token": study_token(sams_page), "rating": "3"})
    assert response.status_code == 400 and "another account" in response.text
    assert reviews_of(app, "sam") == [] and reviews_of(app, "tess") == []


def undo(client, review_id: int):
    page = client.get("/study").text
    return client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                            "review_id": str(review_id)})


def test_undo_of_a_first_review_makes_the_card_new_again(app, client, bank):
    register(client, "sam")
    rate_current(client, 3)
    (review,) = reviews_of(app, "sam")
    response = undo(client, review.id)
    assert response.status_code == 303
    assert reviews_of(app, "sam") == []
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(ReviewState)) == 0
    assert shown_key(client.get("/study").text) == "alpha-stride"


def test_undo_restores_the_previous_state_exactly(app, client, bank, clock):
    register(client, "sam")
    rate_current(client, 4)  # alpha becomes a review card due in days
    with app.app_context():
        row = db.session.scalar(select(ReviewState))
        before = (row.state, row.due, row.reps, row.last_reviewed_at)
    clock.advance(days=30)
    page = client.get("/study").text
    assert shown_key(page) == "alpha-stride"
    rate_current(client, 1, page)
    latest = reviews_of(app, "sam")[-1]
    assert latest.rating == 1 and not latest.was_new
    assert undo(client, latest.id).status_code == 303
    with app.app_context():
        row = db.session.scalar(select(ReviewState))
        assert (row.state, row.due, row.reps, row.last_reviewed_at) == before
    assert len(reviews_of(app, "sam")) == 1
    # The first review is the latest now, but it belongs to a study day that has ended.
    assert undo(client, reviews_of(app, "sam")[0].id).status_code == 303
    assert "made on an earlier study day" in client.get("/study").text
    assert len(reviews_of(app, "sam")) == 1


def test_only_the_latest_review_can_be_undone(app, client, bank):
    register(client, "sam")
    rate_current(client, 3)
    rate_current(client, 3)
    first, second = reviews_of(app, "sam")
    response = undo(client, first.id)
    assert response.status_code == 303
    assert "most recent" in client.get("/study").text
    assert [r.id for r in reviews_of(app, "sam")] == [first.id, second.id]
    # Undos unwind in order within the day: the second, then the first.
    assert undo(client, second.id).status_code == 303
    assert undo(client, first.id).status_code == 303
    assert reviews_of(app, "sam") == []


def test_a_stale_undo_cannot_take_back_a_later_rating_that_came_after_an_undo(app, client, bank):
    """Tab A offers Undo of Y's rating; tab B undoes it and rates X: that rating gets a new
    id (never the undone one's), so tab A's Undo finds nothing and takes nothing back."""
    register(client, "sam")
    rate_current(client, 3)  # X
    rate_current(client, 3)  # Y
    _, second = reviews_of(app, "sam")
    tab_a = client.get("/study").text
    assert f'name="review_id" type="hidden" value="{second.id}"' in tab_a
    assert undo(client, second.id).status_code == 303  # tab B
    rate_current(client, 1)  # tab B rates again
    latest = reviews_of(app, "sam")[-1]
    assert latest.id > second.id
    stale = client.post("/study/undo", data={"csrf_token": csrf_token(tab_a),
                                             "review_id": str(second.id)})
    assert stale.status_code == 404 and "undone already" in stale.text
    assert reviews_of(app, "sam")[-1].id == latest.id  # the later rating is still there


def test_another_users_or_unknown_review_ids_get_404(app, client, bank):
    register(client, "sam")
    rate_current(client, 3)
    (sams_review,) = reviews_of(app, "sam")
    other = app.test_client()
    register(other, "tess")
    response = undo(other, sams_review.id)
    assert response.status_code == 404
    assert "not in your history" in response.text
    assert undo(other, 999_999).status_code == 404
    assert undo(other, 2**31 - 1).status_code == 404  # the largest id a column can hold
    assert undo(other, 2**31).status_code == 400  # PostgreSQL would refuse it: a 500 once
    assert undo(other, 2**62).status_code == 400
    assert undo(other, 0).status_code == 400
    assert len(reviews_of(app, "sam")) == 1


def test_history_lists_the_users_reviews_only(app, client, bank):
    register(client, "sam")
    rate_current(client, 2)
    other = app.test_client()
    register(other, "tess")
    assert "Question alpha-stride" in client.get("/study/history").text
    assert "Question alpha-stride" not in other.get("/study/history").text
    assert "No reviews yet" in other.get("/study/history").text


def test_history_shows_times_on_the_users_own_clock(app, client, bank, clock):
    """START is 09:00 UTC; a user at UTC-05:30 sees 03:30, and the column says which zone."""
    register(client, "sam")
    rate_current(client, 3)  # Good on a new card: due again 10 minutes later
    row = re.compile(r"<td class=\"nowrap\"[^>]*>(\d{4}-\d\d-\d\d \d\d:\d\d)</td>")
    page = client.get("/study/history").text
    assert "When (UTC)" in page and row.findall(page) == ["2025-03-03 09:00", "2025-03-03 09:10"]
    set_offset = post_settings(client, time_zone="UTC-05:30")
    assert set_offset.status_code == 303
    page = client.get("/study/history").text
    assert "When (UTC-05:30)" in page
    assert row.findall(page) == ["2025-03-03 03:30", "2025-03-03 03:40"]


def test_settings_change_retention_and_limits(app, client, bank, clock):
    register(client, "sam")
    response = post_settings(client, desired_retention="0.8", new_per_day="5",
                             reviews_per_day="50", time_zone="Europe/Paris")
    assert response.status_code == 303
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.desired_retention, user.new_per_day, user.reviews_per_day,
                user.time_zone) == (0.8, 5, 50, "Europe/Paris")
    study = client.get("/study").text
    expected = srs.preview_intervals(srs.new_state(clock()), clock(), desired_retention=0.8)
    assert srs.format_interval(expected[4]) in study


def test_settings_reject_out_of_range_values(app, client, bank):
    register(client, "sam")
    page = client.get("/settings").text
    for field, value in (("desired_retention", "1.5"), ("new_per_day", "-1"),
                         ("new_per_day", "٢٠"), ("reviews_per_day", "５０"),
                         ("desired_retention", "٠.٨"), ("desired_retention", "０.８"),
                         ("reviews_per_day", "lots"), ("time_zone", "Mars/Olympus_Mons"),
                         ("time_zone", "UTC+15:00"), ("time_zone", ""),
                         ("desired_retention", "0.955")):
        response = post_settings(client, page, **{field: value})
        assert response.status_code == 400, field
    # A third decimal would be saved, then shown rounded and saved back rounded unasked.
    assert "Use at most two decimals" in response.text and 'value="0.955"' in response.text
    for field in ("new_per_day", "reviews_per_day", "desired_retention"):
        # Empty is also what a browser posts for a number field holding "ten".
        empty = post_settings(client, page, **{field: "  "})
        assert empty.status_code == 400 and "Type a number, in digits." in empty.text
        assert "Not a valid" not in empty.text and "empty" not in empty.text, field
    for field, typed in (("new_per_day", "5.5"), ("reviews_per_day", "1e1"),
                         ("new_per_day", "ten")):  # WTForms' own words were "Not a valid …"
        response = post_settings(client, page, **{field: typed})
        assert response.status_code == 400 and "Use a whole number, in digits, e.g. 20." in (
            response.text), (field, typed)
    response = post_settings(client, page, desired_retention="0,85")
    assert "Use a number in digits, with a point for decimals, e.g. 0.9." in response.text
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.desired_retention, user.new_per_day) == (0.9, 20)


@pytest.mark.parametrize("typed", ["nan", "sNaN", "-snan", "Infinity", "-inf"])
def test_settings_refuse_retention_that_is_not_a_finite_number(app, client, bank, typed):
    register(client, "sam")
    response = post_settings(client, desired_retention=typed)
    assert response.status_code == 400
    # Words, as "ten" is, not a number out of range (test_web_number_fields.py).
    assert response.text.count(
        "Use a number in digits, with a point for decimals, e.g. 0.9.") == 1
    assert "Number must be between" not in response.text
    with app.app_context():
        assert db.session.scalar(select(User.desired_retention)) == 0.9


@pytest.mark.parametrize("typed, stored", [("0.7", 0.7), ("0.70", 0.7), ("0.99", 0.99)])
def test_settings_take_both_ends_of_the_retention_range(app, client, bank, typed, stored):
    register(client, "sam")
    response = post_settings(client, desired_retention=typed)
    assert response.status_code == 303, response.text
    with app.app_context():
        assert db.session.scalar(select(User.desired_retention)) == stored


@pytest.mark.parametrize("typed", ["0.69", "1.00", "0.991"])
def test_settings_refuse_retention_just_outside_the_range(app, client, bank, typed):
    register(client, "sam")
    response = post_settings(client, desired_retention=typed)
    assert response.status_code == 400
    with app.app_context():
        assert db.session.scalar(select(User.desired_retention)) == 0.9


def test_pages_that_save_progress_need_an_account(client, bank):
    for method, path in (("GET", "/study"), ("GET", "/study/history"), ("GET", "/settings"),
                         ("POST", "/study/answer"), ("POST", "/study/rate"),
                         ("POST", "/study/undo"), ("POST", "/settings/password")):
        # A valid CSRF token, so only the login check decides.
        token = csrf_token(client.get("/login").text)
        response = client.open(path, method=method, data={"csrf_token": token})
        assert response.status_code == 302, (method, path)
        assert "/login" in response.headers["Location"]


def home_stat(client, label: str) -> int:
    match = re.search(rf'<span class="stat-number">(\d+)</span><span class="stat-label">{label}<',
                      client.get("/").text)
    assert match, label
    return int(match.group(1))


def test_home_shows_todays_counts_to_a_logged_in_user(client, bank, clock):
    anonymous = client.get("/")
    assert "Create a free account" in anonymous.text
    register(client, "sam")
    rate_current(client, 4)
    assert (home_stat(client, "rated today"), home_stat(client, "new left today")) == (1, 5)
    rate_current(client, 1)  # a second new card: Again, a one-minute learning step
    clock.advance(minutes=1)
    rate_current(client, 1)  # its learning step: counts toward no limit, but it was a rating
    assert (home_stat(client, "rated today"), home_stat(client, "new left today"),
            home_stat(client, "due now")) == (3, 4, 0)  # its next step is a minute away


@pytest.mark.parametrize("path, page", [("/study/rate", "/study"), ("/study/undo", "/study"),
                                        ("/settings", "/settings")])
def test_a_form_posted_after_being_signed_out_elsewhere_says_so_and_leads_back(
        app, client, bank, path, page):
    """A POST-only URL is no place to come back to after logging in (it would be a 405): the
    login leads to the form's own page, and the message says nothing was saved."""
    register(client, "sam")
    rate_current(client, 3)
    study = client.get("/study").text
    other = app.test_client()
    login(other, "sam")
    assert change_password(other, PASSWORD).status_code == 303  # signs out every other login
    fields = {"/study/rate": {"token": study_token(study), "rating": "3"},
              "/study/undo": {"review_id": str(reviews_of(app, "sam")[0].id)},
              "/settings": {"desired_retention": "0.8", "new_per_day": "5",
                            "reviews_per_day": "50", "time_zone": "UTC"}}[path]
    response = client.post(path, data={"csrf_token": csrf_token(study), **fields})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/login?next=%2F{page[1:]}"
    login_page = client.get(response.headers["Location"]).text
    assert "You were signed out, so that was not saved." in login_page
    assert len(reviews_of(app, "sam")) == 1  # nothing rated twice, nothing undone
    back = client.post(response.headers["Location"], data={
        "csrf_token": csrf_token(login_page), "username": "sam", "password": "a brand new secret"})
    assert back.status_code == 302 and back.headers["Location"] == page
    assert client.get(page).status_code == 200


def test_a_page_asked_for_while_signed_out_is_where_login_leads(client, bank):
    response = client.get("/study/history?page=2")
    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=%2Fstudy%2Fhistory%3Fpage%3D2"
    assert "Log in to study" in client.get(response.headers["Location"]).text


def test_log_out_pressed_after_being_signed_out_elsewhere_just_says_so(app, client, bank):
    register(client, "sam")
    page = client.get("/study").text
    other = app.test_client()
    login(other, "sam")
    assert change_password(other, PASSWORD).status_code == 303
    response = client.post("/logout", data={"csrf_token": csrf_token(page)})
    assert response.status_code == 302 and response.headers["Location"] == "/login"
    login_page = client.get("/login").text
    assert "You are logged out." in login_page and "not saved" not in login_page


def test_a_stored_zone_this_server_does_not_know_is_kept_and_said_to_be_unknown(app, client,
                                                                                 bank):
    register(client, "sam")
    with app.app_context():
        user = db.session.scalar(select(User))
        user.time_zone = "America/Nowhere"  # e.g. from a machine with a newer zone database
        db.session.commit()
    page = client.get("/settings").text
    assert re.search(r'<option selected value="America/Nowhere">America/Nowhere \(unknown to '
                     r"this server, so UTC is used\)</option>", page)
    saved = post_settings(client, page, new_per_day="7", time_zone="America/Nowhere")
    assert saved.status_code == 303
    with app.app_context():
        assert db.session.scalar(select(User.time_zone)) == "America/Nowhere"
        assert db.session.scalar(select(User.new_per_day)) == 7
    rate_current(client, 3)  # so the history has a table with its zone in the heading
    assert "When (UTC)" in client.get("/study/history").text  # what the day is counted in
    other_unknown = post_settings(client, page, new_per_day="7", time_zone="Europe/Nowhere")
    assert other_unknown.status_code == 400 and "Pick a time zone from the list" in other_unknown.text


def zones_selected(page: str) -> list[str]:
    """The selected options of the time zone menu (Settings has other menus too)."""
    menu = re.search(r'<select[^>]*id="time_zone".*?</select>', page, re.S).group(0)
    return re.findall(r'<option selected value="([^"]+)"', menu)


def test_a_refused_zone_leaves_the_stored_one_selected(app, client, bank):
    register(client, "sam")
    with app.app_context():
        db.session.scalar(select(User)).time_zone = "Asia/Kolkata"
        db.session.commit()
    page = client.get("/settings").text
    response = post_settings(client, page, time_zone="Mars/Olympus_Mons")
    assert response.status_code == 400
    assert zones_selected(response.text) == ["Asia/Kolkata"]


def test_a_link_is_shown_and_saved_as_the_zone_it_names(app, client, bank):
    register(client, "sam")
    with app.app_context():
        db.session.scalar(select(User)).time_zone = "Asia/Calcutta"  # stored by an older version
        db.session.commit()
    page = client.get("/settings").text
    assert zones_selected(page) == ["Asia/Kolkata"]
    assert 'value="Asia/Calcutta"' not in page  # links are not offered beside their zone
    saved = post_settings(client, page, time_zone="US/Eastern")
    assert saved.status_code == 303
    with app.app_context():
        assert db.session.scalar(select(User.time_zone)) == "America/New_York"


def test_a_second_click_on_undo_is_told_the_rating_was_undone(app, client, bank):
    """Without JavaScript a slow second click on Undo posts the same form again: it found the
    review gone and showed a 404 saying "Nothing was undone" of an undo that had happened.
    The form carries a signed proof that the review was this user's,
    so the second post leads back to Study and says so; without the proof, or with another
    user's, an id that is not in the history is still a 404."""
    register(client, "sam")
    rate_current(client, 3)
    rate_current(client, 3)
    page = client.get("/study").text
    form = dict(re.findall(r'<input (?:id="\w+" )?name="(csrf_token|review_id|review_token)" '
                           r'type="hidden" value="([^"]*)"', page))
    assert set(form) == {"csrf_token", "review_id", "review_token"}
    first = client.post("/study/undo", data=form)
    second = client.post("/study/undo", data=form)
    assert first.status_code == second.status_code == 303
    assert "That rating was undone already" in client.get("/study").text
    assert len(reviews_of(app, "sam")) == 1  # one undo, not two
    unsigned = client.post("/study/undo", data={**form, "review_token": ""})
    assert unsigned.status_code == 404 and "not in your history" in unsigned.text
    other = app.test_client()
    register(other, "tess")
    theirs = client.post("/study/undo", data={**form, "review_id": "999999"})
    assert theirs.status_code == 404  # the proof names one review, not any
    tess_page = other.get("/study").text
    stolen = other.post("/study/undo", data={**form, "csrf_token": csrf_token(tess_page)})
    assert stolen.status_code == 404  # and one user
