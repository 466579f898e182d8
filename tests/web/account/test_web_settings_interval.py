"""Settings' maximum interval: saved, refused out of range, kept when a form lacks it, and
honoured by the rating buttons and the schedule a rating stores."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select, update
from webtest_support import SETTINGS, csrf_token, post_settings, rate_current, register

from quizapp import srs
from quizapp.extensions import db
from quizapp.models import Item, ReviewState, User

INTERVAL_RE = re.compile(
    r'<button[^>]*name="rating" value="(\d)"[^>]*>\s*<span class="rate-label">[^<]*</span>\s*'
    r'<span class="rate-interval">([^<]*)</span>')


def button_intervals(html: str) -> dict[int, str]:
    return {int(rating): label for rating, label in INTERVAL_RE.findall(html)}


def stored_maximum(app) -> int:
    with app.app_context():
        return db.session.scalar(select(User.maximum_interval_days))


def test_the_field_shows_the_default_and_a_save_changes_it(app, client, bank):
    register(client, "sam")
    page = client.get("/settings").text
    assert re.search(r'<label for="maximum_interval_days">Maximum interval, in days</label>', page)
    assert re.search(r'id="maximum_interval_days"[^>]*value="36500"', page)
    assert stored_maximum(app) == 36500
    saved = post_settings(client, page, maximum_interval_days="30")
    assert saved.status_code == 303
    assert stored_maximum(app) == 30
    assert re.search(r'id="maximum_interval_days"[^>]*value="30"', client.get("/settings").text)


def test_a_new_cards_buttons_and_its_stored_due_follow_the_cap(app, client, bank, clock):
    register(client, "sam")
    now = clock()
    uncapped = srs.preview_intervals(srs.new_state(now), now)
    assert button_intervals(client.get("/study").text)[4] == srs.format_interval(uncapped[4])
    assert uncapped[4].days > 2  # so a cap of 2 days changes Easy's button
    post_settings(client, maximum_interval_days="2")
    page = client.get("/study").text
    assert button_intervals(page) == {
        rating: srs.format_interval(interval) for rating, interval in srs.preview_intervals(
            srs.new_state(now), now, maximum_interval_days=2).items()}
    assert button_intervals(page)[4] == "2d"
    assert rate_current(client, 4, page).status_code == 303
    with app.app_context():
        due = db.session.scalar(select(ReviewState.due))
    assert due == srs.compute_day_start_after(now, 2, srs.compute_zone("UTC"))


def test_values_out_of_range_or_unreadable_are_refused_and_nothing_changes(app, client, bank):
    register(client, "sam")
    post_settings(client, maximum_interval_days="45")
    page = client.get("/settings").text
    for typed, message in (("0", "Number must be between 1 and 36500."),
                           ("36501", "Number must be between 1 and 36500."),
                           ("-3", "Number must be between 1 and 36500."),
                           ("30.5", "Use a whole number, in digits, e.g. 20."),
                           ("a month", "Use a whole number, in digits, e.g. 20."),
                           ("３０", "Use a whole number, in digits, e.g. 20."),
                           ("9" * 400, "Numbers here are at most 20 characters long."),
                           ("", "Type a number, in digits.")):
        refused = post_settings(client, page, maximum_interval_days=typed)
        assert refused.status_code == 400, typed
        assert message in refused.text, typed
        assert 'aria-invalid="true"' in refused.text
    assert stored_maximum(app) == 45


def test_both_ends_of_the_range_are_taken(app, client, bank):
    register(client, "sam")
    for typed in ("1", "36500"):
        assert post_settings(client, maximum_interval_days=typed).status_code == 303
        assert stored_maximum(app) == int(typed)


def test_a_form_without_the_field_keeps_the_stored_cap(app, client, bank):
    """A Settings page opened before the field existed (or a script) saves its other fields;
    the cap it never showed stays as stored."""
    register(client, "sam")
    post_settings(client, maximum_interval_days="60")
    page = client.get("/settings").text
    older_form = {name: value for name, value in SETTINGS.items()
                  if name != "maximum_interval_days"}
    saved = client.post("/settings", data={"csrf_token": csrf_token(page), **older_form,
                                           "new_per_day": "7"})
    assert saved.status_code == 303
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.new_per_day, user.maximum_interval_days) == (7, 60)


def rate_every_new_card_easy(client) -> int:
    rated = 0
    while 'name="rating"' in (page := client.get("/study").text):
        assert rate_current(client, 4, page).status_code == 303
        rated += 1
    return rated


def stored_dues(app) -> dict[int, tuple]:
    """item id -> (due column, the due inside the stored fsrs state, last review)."""
    with app.app_context():
        return {row.item_id: (row.due, srs.state_due(row.state), row.last_reviewed_at)
                for row in db.session.scalars(select(ReviewState))}


def test_bringing_forward_moves_the_dues_past_the_cap_and_says_how_many(app, client, bank,
                                                                         clock):
    register(client, "sam")
    rated = rate_every_new_card_easy(client)
    assert rated == len(bank)
    before = stored_dues(app)
    assert all(due > last + timedelta(days=3) for due, _, last in before.values())
    clock.advance(days=1)
    # Lowered without the box: the dates already set stay.
    assert post_settings(client, maximum_interval_days="3").status_code == 303
    assert stored_dues(app) == before
    saved = post_settings(client, maximum_interval_days="3", bring_forward="y")
    assert saved.status_code == 303
    page = client.get("/settings").text
    assert (f"{rated} items scheduled later than 3 days after their last review now come back "
            "by then (or now, if that day has passed).") in page
    after = stored_dues(app)
    utc = srs.compute_zone("UTC")
    for item_id, (due, state_due, last) in after.items():
        assert due == state_due == srs.compute_day_start_after(last, 3, utc), item_id
        assert last == before[item_id][2]
    # They are due when the cap says: not yet, then all of them.
    assert 'name="rating"' not in client.get("/study").text
    clock.now = max(due for due, _, _ in after.values())
    assert f"<strong>{rated}</strong> due" in client.get("/study").text
    # Nothing further out is left: a second save moves nothing and says so.
    post_settings(client, maximum_interval_days="3", bring_forward="y")
    assert ("No item was scheduled later than 3 days after its last review."
            in client.get("/settings").text)
    assert stored_dues(app) == after


def test_bringing_forward_leaves_another_users_schedule_alone(app, client, bank, clock):
    register(client, "sam")
    other = app.test_client()
    register(other, "tess")
    rate_every_new_card_easy(other)
    with app.app_context():
        tess_before = {row.id: row.due for row in db.session.scalars(select(ReviewState))}
    rate_every_new_card_easy(client)
    post_settings(client, maximum_interval_days="1", bring_forward="y")
    with app.app_context():
        tess = db.session.scalar(select(User).where(User.username == "tess"))
        assert {row.id: row.due for row in db.session.scalars(
            select(ReviewState).where(ReviewState.user_id == tess.id))} == tess_before


def test_the_count_brought_forward_is_of_items_that_come_back(app, client, bank, clock):
    """The message counts what Stats has in review: not an item that left the bank (it never
    comes back) nor one the user suspended (it comes back only once resumed). Both are still
    moved, so they keep the cap if they return. It counted all six as coming back by then."""
    register(client, "sam")
    rated = rate_every_new_card_easy(client)
    with app.app_context():
        db.session.execute(update(Item).where(Item.key == "alpha-stride").values(retired=True))
        db.session.commit()
        suspended = db.session.scalar(select(Item.id).where(Item.key == "beta-view"))
    page = client.get("/questions").text
    assert client.post("/study/suspend", data={"csrf_token": csrf_token(page),
                                               "item_id": str(suspended)}).status_code == 303
    assert "<span class=\"stat-number\">4</span><span class=\"stat-label\">in review" in (
        client.get("/study/stats").text)
    post_settings(client, maximum_interval_days="3", bring_forward="y")
    assert ("4 items scheduled later than 3 days after their last review now come back by "
            "then" in client.get("/settings").text)
    utc = srs.compute_zone("UTC")
    dues = stored_dues(app)
    assert len(dues) == rated
    assert all(due == srs.compute_day_start_after(last, 3, utc) for due, _, last in dues.values())


def test_the_study_pages_confirmation_follows_a_due_brought_forward(app, client, bank, clock):
    """The line confirming the latest rating says when the item comes back now: after an Easy
    rating (8 days) and a bring-forward to 3 days it said "comes back in 8 days" while the
    question's page and Stats had it 3 days out."""
    register(client, "sam")
    page = client.get("/study").text
    assert button_intervals(page)[4] == "8d"
    assert rate_current(client, 4, page).status_code == 303
    clock.advance(minutes=5)  # past the minute in which the line repeats the button's label
    assert "comes back in 8 days." in client.get("/study").text
    post_settings(client, maximum_interval_days="3", bring_forward="y")
    page = client.get("/study").text
    assert "comes back in 3 days." in page
    assert "in 8 days" not in page


def test_lowering_the_cap_without_the_box_says_what_stays_later(app, client, bank, clock):
    """Lowered without "Also bring forward", the save only said "Settings saved.": nothing told
    a person two weeks before an interview that items stay due weeks out. It now counts them
    and names the box; with nothing past the new cap, or the cap raised, it says nothing more."""
    register(client, "sam")
    rated = rate_every_new_card_easy(client)
    before = stored_dues(app)
    post_settings(client, maximum_interval_days="3")
    page = client.get("/settings").text
    assert (f"Settings saved. {rated} items stay due later than 3 days after their last "
            "review; tick “Also bring forward what is scheduled later than that” and save "
            "again to move them.") in page
    assert stored_dues(app) == before
    post_settings(client, maximum_interval_days="40")
    assert "stay due later" not in client.get("/settings").text
    post_settings(client, maximum_interval_days="30")
    assert "Settings saved.</" in client.get("/settings").text.replace("\n", "")
