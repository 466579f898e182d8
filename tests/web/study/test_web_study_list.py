"""Studying a question list ("Study these"): its new and due cards, one after another, in the
list's order, whatever the daily limits."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from sqlalchemy import select, update
from webtest_support import (
    csrf_token,
    post_settings,
    rate_current,
    register,
    shown_key,
    study_token,
)

from quizapp.extensions import db
from quizapp.models import Item, Review, ReviewState


def study_these(html: str) -> str:
    return re.search(r'<a class="button" href="([^"]+)">Study these</a>', html).group(1).replace(
        "&amp;", "&")


def rate_as_shown(client, rating: int, page: str):
    """Post the page's rating form as a browser would: with the list it carries, if any."""
    then = re.search(r'name="then_list" value="([^"]*)"', page)
    fields = {"then_list": then.group(1).replace("&amp;", "&")} if then else {}
    return rate_current(client, rating, page, **fields)


def reviewed_keys(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Item.key).join(Review, Review.item_id == Item.id)
                                       .order_by(Review.id)))


def test_a_list_is_studied_card_by_card_in_its_order_then_says_it_is_done(app, client, bank):
    register(client, "sam")
    listing = client.get("/questions?level=middle&sort=title&page=1").text
    link = study_these(listing)
    assert unquote(link) == "/study?list=level=middle&sort=title"  # no page number
    page = client.get(link).text
    assert shown_key(page) == "delta-reshape"  # "Question delta..." before "Question epsilon..."
    assert ("Studying a question list (<bdi>middle</bdi>): 2 of its cards are new or due, this one "
            "included.") in page
    # The status bar's counts are the queue's (6 new), not the list's: it says whose they are.
    assert re.search(r'<div class="study-status">\s*<span class="count count-whose">Your queue:'
                     r'</span>\s*<span class="count count-due"', page)
    assert "Your queue:" not in client.get("/study").text
    assert 'href="/questions?level=middle&amp;sort=title">Back to the list' in page
    assert 'name="then_list" value="level=middle&amp;sort=title"' in page
    rated = rate_as_shown(client, 4, page)
    assert rated.status_code == 303 and rated.headers["Location"] == link
    page = client.get(link).text
    assert shown_key(page) == "epsilon-expand" and "1 of its cards is new or due" in page
    # The status bar confirms the rating, as in the queue.
    assert "Easy: “Question delta-reshape”" in page
    rate_as_shown(client, 4, page)
    done = client.get(link)
    assert done.status_code == 200 and "Nothing left in this list" in done.text
    assert 'href="/questions?level=middle&amp;sort=title">Back to the list' in done.text
    assert reviewed_keys(app) == ["delta-reshape", "epsilon-expand"]


def test_a_learning_step_comes_back_to_the_list_once_it_is_due(app, client, bank, clock):
    register(client, "sam")
    link = "/study?list=level%3Djunior"
    first = client.get(link).text
    rate_as_shown(client, 1, first)  # Again: a minute away; the list goes on meanwhile
    assert shown_key(client.get(link).text) != shown_key(first)
    clock.advance(minutes=2)
    assert shown_key(client.get(link).text) == shown_key(first)  # due: first in list order
    # Easy on every card: none left, and the page says when the next falls due.
    for _ in range(3):
        rate_as_shown(client, 4, client.get(link).text)
    done = client.get(link).text
    assert "Nothing left in this list" in done
    assert re.search(r"The next one is due in [^:<]+: it comes back here then", done), (
        re.findall(r'<p class="lead">([^<]*)', done))


def test_the_daily_limits_do_not_hold_a_list_back_and_the_page_says_so(app, client, bank):
    register(client, "sam")
    post_settings(client, new_per_day="0")
    assert shown_key(client.get("/study").text) is None  # the queue has nothing today
    page = client.get("/study?list=all").text
    assert shown_key(page) == "alpha-stride"  # the whole bank in study order
    assert "go beyond today's new-item limit, which is used up" in page
    assert "6 of its cards are new or due" in page
    rate_current(client, 3, page)
    assert reviewed_keys(app) == ["alpha-stride"]


def test_a_visitor_has_no_study_these_and_bad_lists_get_a_clear_400(app, client, bank):
    assert "Study these" not in client.get("/questions").text
    assert client.get("/study?list=all").status_code == 302  # to the login page
    register(client, "sam")
    response = client.get("/study?list=level%3Dwizard")
    assert response.status_code == 400 and "Unknown level" in response.text
    # Parameters that are not the list's are dropped, not followed.
    page = client.get("/study?list=next%3D%2F%2Fevil.example%26level%3Dsenior").text
    assert shown_key(page) == "zeta-channels"
    assert 'value="level=senior"' in page and "evil" not in page


def test_a_forged_or_damaged_list_in_the_rating_form_saves_once_and_stays_on_the_site(
        app, client, bank):
    register(client, "sam")
    page = client.get("/study?list=level%3Djunior").text
    response = client.post("/study/rate", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "rating": "3",
        "then_list": "next=https://evil.example/&concept=view"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/study?list=concept%3Dview"
    page = client.get("/study?list=level%3Djunior").text
    response = client.post("/study/rate", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "rating": "3",
        "then_list": "x" * 401})
    assert response.status_code == 400 and "damaged" in response.text
    assert reviewed_keys(app) == ["alpha-stride"]


def undo_latest(client, page: str):
    """Press the status bar's Undo on ``page``, with the hidden fields it carries."""
    fields = dict(re.findall(r'<input (?:id="\w+" )?name="(review_id|review_token|then_list)" '
                             r'type="hidden" value="([^"]*)"', page))
    fields = {name: value.replace("&amp;", "&") for name, value in fields.items()}
    return client.post("/study/undo", data={"csrf_token": csrf_token(page), **fields})


def test_undo_while_studying_a_list_shows_the_undone_card_and_the_list_goes_on(
        app, client, bank, clock):
    register(client, "sam")
    link = "/study?list=level%3Djunior%26sort%3Dtitle"
    first = client.get(link).text
    rate_as_shown(client, 2, first)
    second = client.get(link).text
    assert shown_key(second) != shown_key(first)
    undone = undo_latest(client, second)
    assert undone.status_code == 303
    assert undone.headers["Location"] == (f"/study?card={shown_key(first)}&undone=1&seen=0"
                                          "&list=level%3Djunior%26sort%3Dtitle")
    again = client.get(undone.headers["Location"]).text
    assert shown_key(again) == shown_key(first)
    assert "Undone: “Question " in again and "chosen-note" not in again
    assert reviewed_keys(app) == []
    # Its rating leads back to the list, which goes on.
    assert rate_as_shown(client, 4, again).headers["Location"] == link
    assert shown_key(client.get(link).text) == shown_key(second)
    # Undo shows the undone card even when another of the list has come due first.
    clock.advance(days=30)
    before = client.get(link).text
    rate_as_shown(client, 4, before)
    page = client.get(link).text
    shown = undo_latest(client, page).headers["Location"]
    assert shown.startswith(f"/study?card={shown_key(before)}&undone=1")
    # After the list's last card too: the list-done page's Undo keeps the list.
    for _ in range(5):
        html = client.get(link).text
        if "Nothing left" in html:
            break
        rate_as_shown(client, 4, html)
    done = client.get(link).text
    assert "Nothing left in this list" in done
    assert "&list=level%3Djunior%26sort%3Dtitle" in undo_latest(client, done).headers["Location"]


def test_a_list_with_no_question_says_so(client, bank):
    register(client, "sam")
    page = client.get("/study?list=q%3Dquaternion").text
    assert "No question in this list" in page and "Its filters select no question now." in page
    assert "The list: <bdi>search “quaternion”</bdi>." in page


def test_the_note_names_the_list_being_studied(client, bank):
    """Two tabs studying two lists read alike unless the note says which list each is."""
    register(client, "sam")
    named = client.get("/study?list=" + quote("level=junior&importance=should-know&mine=new"
                                              "&q=  view   stride&sort=title")).text
    assert ("Studying a question list (<bdi>junior, should know, not studied before today; "
            "search “view stride”</bdi>): 1 of its cards is new or due") in named
    whole = client.get("/study?list=all").text
    assert "Studying the whole question bank: 6 of its cards are new or due" in whole
    assert "The list:" not in whole


def test_a_right_to_left_override_in_the_search_stays_inside_the_lists_name(client, bank):
    """U+202E in a crafted ?list= search turned the rest of the note round ("eud ro wen era");
    the name is isolated (<bdi>), so the note reads as written around it."""
    register(client, "sam")
    for link in ("/study?list=" + quote("q=view\u202e"), "/study?list=" + quote("q=\u202ezz")):
        page = client.get(link).text
        named = re.search(r"(?:list \(|The list: )<bdi>([^<]*)</bdi>", page)
        assert named and "\u202e" in named.group(1), link


def test_lists_filtered_by_progress_run_to_their_end(app, client, bank, clock):
    # These ended on a 500 once nothing was left.
    register(client, "sam")
    link = "/study?list=level%3Dmiddle%26mine%3Dnew"
    for _ in range(2):
        rate_as_shown(client, 4, client.get(link).text)  # Easy: days away
    for mine in ("new", "studied", "due"):
        done = client.get(f"/study?list=level%3Dmiddle%26mine%3D{mine}")
        assert done.status_code == 200, mine
        assert "Nothing left in this list" in done.text, mine
        assert re.search(r"The next one is due in \d+ days", done.text), mine
        # Days away, the card will have left a "not studied before today" list (re-test).
        leaves = "by then it has left this list" in done.text
        assert leaves == (mine == "new") and ("it comes back here then" in done.text) != leaves



def test_a_card_first_rated_today_stays_in_a_not_studied_yet_list_through_its_steps(
        app, client, bank, clock):
    # Rated Again, it left the list for good.
    register(client, "sam")
    link = "/study?list=level%3Djunior%26mine%3Dnew"
    first = client.get(link).text
    key = shown_key(first)
    assert "3 of its cards are new or due" in first
    rate_as_shown(client, 1, first)  # Again: a minute away
    clock.advance(minutes=2)
    again = client.get(link).text
    assert shown_key(again) == key and "3 of its cards are new or due" in again
    # Studied before today, a card is no longer "not studied yet" there.
    clock.advance(days=1)
    assert key not in [shown_key(client.get(link).text)]


def test_with_nothing_due_a_step_ending_soon_is_learned_ahead(app, client, bank, clock):
    register(client, "sam")
    link = "/study?list=concept%3Dstorage-offset"
    rate_as_shown(client, 3, client.get(link).text)  # Good: a 10-minute step
    page = client.get(link).text
    assert shown_key(page) == "gamma-offset"
    assert "learning ahead" in page


def test_a_card_retired_while_its_list_is_studied_is_not_saved_and_the_list_goes_on(
        app, client, bank):
    register(client, "sam")
    link = "/study?list=level%3Dmiddle"
    page = client.get(link).text
    key = shown_key(page)
    with app.app_context():
        db.session.execute(update(Item).where(Item.key == key).values(retired=True))
        db.session.commit()
    response = rate_as_shown(client, 3, page)
    assert response.status_code == 303 and response.headers["Location"] == link
    after = client.get(link).text
    assert "Not saved: that card has left the question bank since its page was shown." in after
    assert shown_key(after) not in (None, key)
    assert reviewed_keys(app) == []


def test_a_visitor_is_offered_to_log_in_to_study_a_shared_list(client, bank):
    page = client.get("/questions?level=middle&sort=asked").text
    assert "Log in to study these" in page
    response = client.get(study_these(page.replace("Log in to study these", "Study these")))
    assert response.status_code == 302
    assert response.headers["Location"] == (
        "/login?next=%2Fstudy%3Flist%3Dlevel%253Dmiddle%2526sort%253Dasked")
    # Sorted by how often asked, each row says so.
    assert page.count('<span class="badge frequency">asked: common</span>') == 2


def test_a_nul_inside_a_carried_list_is_dropped_never_a_500(app, client, bank):
    # A 500 on PostgreSQL, past the request's own NUL check.
    register(client, "sam")
    for text in ("concept%3D%2500", "q%3D%2500", "level%3Djunior%26q%3Da%2500b"):
        response = client.get(f"/study?list={text}")
        assert response.status_code == 200, text
    page = client.get("/study?list=level%3Djunior").text
    response = rate_as_shown(client, 3, page.replace('value="level=junior"',
                                                      'value="level=junior&amp;concept=%00"'))
    assert response.status_code == 303 and response.headers["Location"] == (
        "/study?list=level%3Djunior")
    assert client.get(response.headers["Location"]).status_code == 200


def test_a_tab_in_a_lists_search_is_a_space_so_study_these_keeps_the_search(client, bank):
    """The list page read "view\tstride" as two words, but its Study these dropped the search as
    a control character and studied the whole bank (re-test)."""
    register(client, "sam")
    listing = client.get("/questions?q=view%09stride").text
    link = study_these(listing)
    assert unquote(link) == "/study?list=q=view stride".replace(" ", "+")
    page = client.get(link).text
    assert "Studying a question list (<bdi>search “view stride”</bdi>)" in page


def test_a_review_due_soon_is_not_learned_ahead_only_a_step_is(app, client, bank, clock):
    # Due at a study day's start, it would count toward the day before.
    register(client, "sam")
    link = "/study?list=concept%3Dstorage-offset"
    rate_as_shown(client, 4, client.get(link).text)  # Easy: in Review, days away
    with app.app_context():
        due = db.session.scalar(select(ReviewState.due))
    clock.advance(seconds=(due - clock()).total_seconds() - 600)  # ten minutes before
    page = client.get(link).text
    assert "Nothing left in this list" in page and "learning ahead" not in page
    clock.advance(minutes=11)
    assert shown_key(client.get(link).text) == "gamma-offset"
