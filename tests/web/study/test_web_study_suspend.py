"""Suspend and resume (Anki's "Suspend"): a suspended item is neither shown nor counted, and
comes back with its schedule intact; per user; list study, the question list, Stats, Undo."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import delete, select, update
from webtest_support import (
    READABLE,
    csrf_token,
    rate_current,
    reach_first_skill,
    register,
    shown_key,
)

from quizapp.extensions import db
from quizapp.models import Item, ItemSuspension, Review, ReviewState, User
from quizapp.services import suspensions
from quizapp.services.errors import NotFound
from quizapp.services.study_queue import compute_queue
from quizapp.services.study_stats import compute_study_stats

SUSPEND_FORM = re.compile(r'action="/study/(suspend|resume)" class="inline-form suspend-form">\s*'
                          r'<input name="csrf_token" type="hidden" value="[^"]+">\s*'
                          r'<input name="item_id" type="hidden" value="(\d+)">')
FLASH_RESUME = re.compile(r'<div class="flash flash-info flash-suspended"><span>([^<]*)</span>'
                          r'.*?name="item_id" type="hidden" value="(\d+)"', re.S)


def item_id(app, key: str) -> int:
    with app.app_context():
        return db.session.scalar(select(Item.id).where(Item.key == key))


def user_id(app, username: str) -> int:
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username == username))


def counts(html: str) -> tuple[int, int]:
    """(due, new) of a study page's status bar."""
    due = re.search(r'class="count count-due"[^>]*><strong>(\d+)</strong>', html).group(1)
    new = re.search(r'class="count count-new"[^>]*><strong>(\d+)</strong>', html).group(1)
    return int(due), int(new)


def post(client, action: str, item: int | str, page_html: str | None = None, **fields):
    html = page_html if page_html is not None else client.get("/questions").text
    return client.post(f"/study/{action}", data={
        "csrf_token": csrf_token(html), "item_id": str(item), **fields})


def suspend_shown(client, html: str):
    """Press Suspend on a study page."""
    action, item = SUSPEND_FORM.search(html).groups()
    assert action == "suspend"
    return post(client, "suspend", item, html)


def state_of(app, username: str, key: str):
    """(due, FSRS state, version, learning, reps) of the user's state for the item, or None."""
    with app.app_context():
        row = db.session.scalar(select(ReviewState).where(
            ReviewState.user_id == user_id(app, username),
            ReviewState.item_id == item_id(app, key)))
        return None if row is None else (row.due, row.state, row.version, row.learning,
                                         row.reps)


def queue_of(app, username: str, clock):
    with app.app_context():
        user = db.session.get(User, user_id(app, username))
        return compute_queue(db.session, user, clock())


def test_suspend_on_a_study_page_goes_on_and_the_flash_takes_it_back(client, bank):
    register(client, "sam")
    page = client.get("/study").text
    assert shown_key(page) == "alpha-stride" and counts(page) == (0, 6)
    response = suspend_shown(client, page)
    assert response.status_code == 303 and response.headers["Location"] == "/study"
    page = client.get("/study").text
    # The next card, one new item fewer, and a message with a Resume button.
    assert shown_key(page) == "gamma-offset" and counts(page) == (0, 5)
    text, resumed = FLASH_RESUME.search(page).groups()
    assert text == "“Question alpha-stride” suspended."
    response = post(client, "resume", resumed, page, back="study")
    assert response.status_code == 303 and response.headers["Location"] == "/study"
    page = client.get("/study").text
    assert shown_key(page) == "alpha-stride" and counts(page) == (0, 6)
    # Never rated: it has no schedule to go back to, only its place among the new items.
    assert "“Question alpha-stride” resumed: it is back among your new items." in page


def test_suspended_due_and_learning_items_are_neither_shown_nor_counted(app, client, bank,
                                                                         clock):
    register(client, "sam")
    rate_current(client, 4)  # alpha-stride: Easy, in Review for days
    rate_current(client, 3)  # gamma-offset: Good, a 10-minute learning step
    clock.advance(days=30)  # both overdue
    assert counts(client.get("/study").text) == (2, 4)
    before = {key: state_of(app, "sam", key) for key in ("alpha-stride", "gamma-offset")}
    view = queue_of(app, "sam", clock)
    assert (view.due_left, view.item.key) == (2, "gamma-offset")
    assert post(client, "suspend", item_id(app, "gamma-offset")).status_code == 303
    view = queue_of(app, "sam", clock)  # the due learning step is passed over, not shown
    assert (view.due_left, view.item.key) == (1, "alpha-stride")
    assert post(client, "suspend", item_id(app, "alpha-stride")).status_code == 303
    page = client.get("/study").text
    assert counts(page) == (0, 4) and shown_key(page) == "beta-view"
    view = queue_of(app, "sam", clock)
    assert (view.due_left, view.due_held, view.new_left, view.new_held) == (0, 0, 4, 0)
    # Nothing in their rows or the log changed, and resuming puts both back as they were.
    assert {key: state_of(app, "sam", key) for key in before} == before
    for key in before:
        assert post(client, "resume", item_id(app, key)).status_code == 303
        assert (f"“Question {key}” resumed: it is back in your reviews where its schedule has "
                "it.") in client.get("/study").text
    assert {key: state_of(app, "sam", key) for key in before} == before
    view = queue_of(app, "sam", clock)
    assert (view.due_left, view.item.key) == (2, "gamma-offset")  # overdue: simply due


def test_suspended_items_are_left_out_of_the_held_counts_and_the_next_due_time(
        app, client, bank, clock):
    register(client, "sam")
    rate_current(client, 4)  # alpha-stride
    clock.advance(days=1)
    rate_current(client, 4)  # gamma-offset, a study day later: due a day after alpha-stride
    alpha, gamma = (state_of(app, "sam", key)[0] for key in ("alpha-stride", "gamma-offset"))
    assert alpha < gamma
    with app.app_context():
        db.session.execute(update(User).values(new_per_day=0, reviews_per_day=0))
        db.session.commit()
    view = queue_of(app, "sam", clock)
    assert view.item is None and view.new_held == 4 and view.next_due == alpha
    post(client, "suspend", item_id(app, "alpha-stride"))
    post(client, "suspend", item_id(app, "beta-view"))  # never rated
    view = queue_of(app, "sam", clock)
    assert view.item is None and view.new_held == 3 and view.next_due == gamma
    clock.now = gamma + timedelta(minutes=1)  # both due now, held by the review limit of 0
    view = queue_of(app, "sam", clock)
    assert (view.due_left, view.due_held) == (0, 1)
    post(client, "suspend", item_id(app, "gamma-offset"))
    view = queue_of(app, "sam", clock)
    assert (view.due_left, view.due_held, view.next_due) == (0, 0, None)
    assert "more are due" not in client.get("/study").text


def test_another_users_suspensions_do_not_touch_yours(app, client, bank):
    register(client, "sam")
    post(client, "suspend", item_id(app, "alpha-stride"))
    other = app.test_client()
    register(other, "kim")
    page = other.get("/study").text
    assert shown_key(page) == "alpha-stride" and counts(page) == (0, 6)
    assert ">Suspended</span>" not in other.get("/questions").text
    # And resuming it as kim does not resume it for sam.
    assert "was not suspended" in other.post(
        "/study/resume", data={"csrf_token": csrf_token(page), "item_id":
                               str(item_id(app, "alpha-stride"))},
        follow_redirects=True).text
    assert shown_key(client.get("/study").text) == "gamma-offset"


def test_study_these_skips_suspended_cards(app, client, bank):
    register(client, "sam")
    post(client, "suspend", item_id(app, "alpha-stride"))
    page = client.get("/study?list=level%3Djunior").text
    assert shown_key(page) == "gamma-offset"
    assert "2 of its cards are new or due" in page
    # Suspending from the list's page goes on with the list: its form carries the list.
    form = re.search(r'<form[^>]*action="/study/suspend".*?</form>', page, re.S).group(0)
    then_list = re.search(r'name="then_list" type="hidden" value="([^"]+)"', form).group(1)
    assert then_list == "level=junior"
    response = post(client, "suspend", item_id(app, "gamma-offset"), page, then_list=then_list)
    assert response.headers["Location"] == "/study?list=level%3Djunior"
    page = client.get(response.headers["Location"]).text
    assert shown_key(page) == "beta-view" and "1 of its cards is new or due" in page
    text, _ = FLASH_RESUME.search(page).groups()
    assert text == "“Question gamma-offset” suspended."


def test_the_question_list_labels_suspended_cards_and_filters_them(app, client, bank, clock):
    register(client, "sam")
    rate_current(client, 4)  # alpha-stride
    clock.advance(days=30)
    post(client, "suspend", item_id(app, "alpha-stride"))
    post(client, "suspend", item_id(app, "beta-view"))  # never rated
    page = client.get("/questions").text
    rows = dict(re.findall(r'href="/questions/([\w-]+)"[^>]*>[^<]*</a>.*?'
                           r'<span class="card-progress muted">([^<]*)</span>', page, re.S))
    assert rows["alpha-stride"] == "Suspended" and rows["beta-view"] == "Suspended"
    assert rows["gamma-offset"] == "Not studied yet"
    page = client.get("/questions?mine=suspended").text
    assert "2 questions" in page
    assert set(re.findall(r'class="card-link" href="/questions/([\w-]+)', page)) == {
        "alpha-stride", "beta-view"}
    assert '<option value="suspended" selected>Suspended</option>' in page
    # Study these would study none of them (a studied list leaves suspended cards out): the
    # list says how to bring one back instead of offering an empty list.
    assert 'href="/study?list=' not in page and "resume one" in page
    assert 'href="/study?list=' in client.get("/questions?mine=studied").text
    # Due now leaves a suspended card out, as the queue does.
    assert "No question matches" in client.get("/questions?mine=due").text


def test_a_card_page_suspends_and_resumes_it_and_study_it_now_still_shows_it(app, client,
                                                                             bank):
    register(client, "sam")
    page = client.get("/questions/beta-view").text
    assert SUSPEND_FORM.search(page).group(1) == "suspend"
    response = post(client, "suspend", item_id(app, "beta-view"), page, back="card")
    assert response.headers["Location"] == "/questions/beta-view"
    page = client.get("/questions/beta-view").text
    assert "You suspended this question" in page and "“Question beta-view” suspended." in page
    assert page.count("stays out of your reviews") == 1  # said once, by the page's own note
    assert SUSPEND_FORM.search(page).group(1) == "resume"
    # An explicit choice: Study it now shows it, and says it is suspended.
    study = client.get("/study?card=beta-view").text
    assert shown_key(study) == "beta-view" and "You suspended this card" in study
    assert SUSPEND_FORM.search(study).group(1) == "resume"
    rate_current(client, 3, study)
    assert state_of(app, "sam", "beta-view") is not None
    assert shown_key(client.get("/study").text) == "alpha-stride"  # still out of the queue
    response = post(client, "resume", item_id(app, "beta-view"), page, back="card")
    assert response.headers["Location"] == "/questions/beta-view"
    assert "You suspended this question" not in client.get("/questions/beta-view").text


def test_suspend_and_resume_on_a_card_page_keep_its_way_back_to_the_list(client, bank):
    """A card opened from a filtered list keeps "Back to the list" through Suspend and Resume:
    each form sends what the page carries, and the card page it leads to still has it."""
    register(client, "sam")
    page = client.get("/questions/beta-view?from=importance%3Dshould-know%26q%3Dview").text
    for action in ("suspend", "resume"):
        form = re.search(rf'<form method="post" action="/study/{action}".*?</form>', page, re.S)
        fields = dict(re.findall(r'name="([^"]+)" type="hidden" value="([^"]*)"', form.group(0)))
        response = client.post(f"/study/{action}", data={
            name: html.unescape(value) for name, value in fields.items()})
        assert response.status_code == 303
        assert response.headers["Location"] == (
            "/questions/beta-view?from=importance%3Dshould-know%26q%3Dview")
        page = client.get(response.headers["Location"]).text
        assert ('<a href="/questions?importance=should-know&amp;q=view">← Back to the list</a>'
                in page)


def test_puzzle_skills_are_suspended_from_their_page_and_resumed_from_the_list(
        app, client, skill_bank):
    register(client, "sam")
    page = reach_first_skill(client)
    key = shown_key(page)
    assert suspend_shown(client, page).status_code == 303
    listed = client.get("/study/suspended").text
    assert "Puzzle skill" in listed and "Never rated" in listed
    # Where to suspend one from: its study page or its own, found under Puzzles.
    assert ("Questions and puzzle skills are suspended from their study page or their own page "
            '(puzzle skills are listed under <a href="/puzzles">Puzzles</a>)') in listed
    # Every row's button is named with its item, not just "Resume".
    title = re.search(r'<tr data-item-id="\d+">\s*<td><a href="/puzzles/[^"]+">([^<]+)</a>',
                      listed).group(1)
    assert f'aria-label="Resume “{title}”"' in listed
    action, item = SUSPEND_FORM.search(listed).groups()
    assert action == "resume" and int(item) == item_id(app, key)
    response = post(client, "resume", item, listed, back="suspended")
    assert response.headers["Location"] == "/study/suspended"
    assert "Nothing is suspended" in client.get("/study/suspended").text
    assert shown_key(client.get("/study").text) == key


def test_stats_counts_suspended_items_apart(app, client, bank):
    register(client, "sam")
    rate_current(client, 4)  # alpha-stride, in review
    post(client, "suspend", item_id(app, "alpha-stride"))
    post(client, "suspend", item_id(app, "beta-view"))
    page = client.get("/study/stats").text
    figures = dict((label, int(number)) for number, label in re.findall(
        r'<span class="stat-number">(\d+)</span><span class="stat-label">([^<]+)</span>', page))
    assert figures == {"new, never rated": 4, "in learning steps": 0, "in review": 0,
                       "suspended": 2}
    assert 'href="/study/suspended"' in page


def test_bad_requests_are_refused_in_words_and_repeats_are_harmless(app, client, skill_bank):
    register(client, "sam")
    page = client.get("/study").text
    alpha = item_id(app, "alpha-stride")
    missing = client.post("/study/suspend", data={"item_id": str(alpha)})
    assert missing.status_code == 400 and "expired" in missing.text
    assert post(client, "suspend", 999999).status_code == 404
    for bad in ("", "abc", "0", "-1", str(2**40)):
        response = post(client, "suspend", bad, page)
        assert response.status_code == 400 and "Nothing was changed" in response.text, bad
    assert post(client, "resume", 999999).status_code == 404
    elsewhere = post(client, "suspend", alpha, back="elsewhere")
    assert elsewhere.status_code == 400 and "a page to go back to" in elsewhere.text
    with app.app_context():
        db.session.execute(update(Item).where(Item.key == "beta-view").values(retired=True))
        db.session.commit()
    retired = post(client, "suspend", item_id(app, "beta-view"))
    assert retired.status_code == 404 and "left the bank" in retired.text
    # Twice: one row, and the second says so; resuming twice likewise.
    assert post(client, "suspend", alpha).status_code == 303
    again = post(client, "suspend", alpha)
    assert again.status_code == 303
    assert "was suspended already" in client.get(again.headers["Location"]).text
    with app.app_context():
        assert len(db.session.scalars(select(ItemSuspension)).all()) == 1
    assert post(client, "resume", alpha).status_code == 303
    again = post(client, "resume", alpha)
    assert "was not suspended" in client.get(again.headers["Location"]).text


@pytest.mark.parametrize("path", ["/study/suspend", "/study/resume"])
def test_signed_out_posts_lead_to_the_login_page(app, client, bank, path):
    token = csrf_token(client.get("/login").text)
    response = client.post(path, data={"csrf_token": token,
                                       "item_id": str(item_id(app, "alpha-stride"))})
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert client.get("/study/suspended").status_code == 302


def test_undo_after_suspending_another_item_takes_back_the_rating(app, client, bank):
    register(client, "sam")
    rate_current(client, 3)  # alpha-stride
    page = client.get("/study").text
    assert shown_key(page) == "gamma-offset"
    suspend_shown(client, page)  # gamma-offset: not a rating, so Undo still takes back alpha's
    page = client.get("/study").text
    review = re.search(r'name="review_id" type="hidden" value="(\d+)"', page).group(1)
    token = re.search(r'name="review_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                                "review_id": review, "review_token": token})
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/study?card=alpha-stride")
    assert state_of(app, "sam", "alpha-stride") is None
    with app.app_context():
        assert db.session.scalars(select(Review)).all() == []
        assert len(db.session.scalars(select(ItemSuspension)).all()) == 1  # gamma stays out


def test_undoing_the_rating_of_an_item_suspended_since_keeps_it_suspended(app, client, bank):
    register(client, "sam")
    rate_current(client, 4)  # alpha-stride
    before = state_of(app, "sam", "alpha-stride")
    post(client, "suspend", item_id(app, "alpha-stride"))
    page = client.get("/study").text
    assert "it is suspended, so it comes back only once you resume it" in page
    review = re.search(r'name="review_id" type="hidden" value="(\d+)"', page).group(1)
    token = re.search(r'name="review_token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.post("/study/undo", data={"csrf_token": csrf_token(page),
                                                "review_id": review, "review_token": token})
    # The rating is taken back (the card is new again), the suspension stands: the card is not
    # shown again, and the message says why.
    assert before is not None and state_of(app, "sam", "alpha-stride") is None
    assert response.status_code == 303 and response.headers["Location"] == "/study"
    page = client.get("/study").text
    assert "stays out of your reviews until you resume it" in page
    assert shown_key(page) == "gamma-offset" and counts(page) == (0, 5)


def test_a_result_page_shown_again_after_suspend_says_the_skill_is_suspended(app, client,
                                                                              skill_bank):
    # Suspend on a puzzle's result page, then Back: the result page comes again (a GET), and
    # a rating there is still saved; it says so, and its button resumes.
    register(client, "sam")
    page = reach_first_skill(client)
    kind = re.search(r'data-answer-kind="(\w+)"', page).group(1)
    query = {"token": re.search(r'name="token" type="hidden" value="([^"]+)"', page).group(1),
             "answer": READABLE[kind],
             "hints_used": "0"}
    result = client.get("/study/answer", query_string=query)
    assert result.status_code == 200 and "You suspended this puzzle skill" not in result.text
    assert SUSPEND_FORM.search(result.text).group(1) == "suspend"
    suspend_shown(client, result.text)
    again = client.get("/study/answer", query_string=query)
    assert again.status_code == 200
    assert "You suspended this puzzle skill: a rating here is saved" in again.text
    assert SUSPEND_FORM.search(again.text).group(1) == "resume"


def test_the_coming_weeks_forecast_leaves_suspended_items_out(app, client, bank, clock):
    register(client, "sam")
    rate_current(client, 1)  # alpha-stride, Again: a learning step due today
    rate_current(client, 3)  # beta-view, Good: another step due today

    def forecast() -> list[int]:
        with app.app_context():
            user = db.session.get(User, user_id(app, "sam"))
            return [day.count for day in compute_study_stats(db.session, user, clock()).forecast]

    assert forecast()[0] == 2
    post(client, "suspend", item_id(app, "alpha-stride"))
    assert forecast()[0] == 1
    post(client, "resume", item_id(app, "alpha-stride"))
    assert forecast()[0] == 2


def test_a_suspend_racing_the_accounts_deletion_is_not_reported_as_a_repeat(app, client, bank,
                                                                            clock):
    # The account went between the request's login check and its insert: the foreign key
    # refuses the row, and that is no "suspended already".
    register(client, "sam")
    gone, alpha = user_id(app, "sam"), item_id(app, "alpha-stride")
    with app.app_context():
        db.session.execute(delete(User).where(User.id == gone))
        db.session.commit()
        with pytest.raises(NotFound):
            suspensions.suspend_item(db.session, SimpleNamespace(id=gone), alpha, clock())
        assert db.session.scalars(select(ItemSuspension)).all() == []
