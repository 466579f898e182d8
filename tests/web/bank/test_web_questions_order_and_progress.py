"""The question list's order menu (study order, title, most asked) and, signed in, each card's
progress and the "Yours" filter."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

from sqlalchemy import select, update
from webtest_support import logout, make_card, rate_current, register

from quizapp.extensions import db
from quizapp.models import Item, ReviewState
from quizapp.services.bank_import import import_cards

ROW_RE = re.compile(r'<li class="card-row">\s*<a class="card-link" href="/questions/([^"?]+)')
PROGRESS_RE = re.compile(r'<li class="card-row">\s*<a class="card-link" href="/questions/([^"?]+)'
                         r'.*?<span class="card-progress muted">([^<]*)</span>', re.S)


def listed(html: str) -> list[str]:
    return ROW_RE.findall(html)


def progress(html: str) -> dict[str, str]:
    return dict(PROGRESS_RE.findall(html))


TITLED = [  # (id, title, frequency), in the bank's own order by id within one level
    make_card("q1", title="reshape or view", frequency="rare"),
    make_card("q2", title="Alias of a slice", frequency="very-common"),
    make_card("q3", title="contiguous copies", frequency="common"),
    make_card("q4", title="Broadcast strides", frequency="very-common"),
    make_card("q5", title="expand is free", frequency="occasional"),
]


def load(app, clock, cards=TITLED):
    with app.app_context():
        import_cards(db.session, list(cards), clock())


def test_the_list_orders_by_title_or_most_asked_first(app, client, clock):
    load(app, clock)
    study = listed(client.get("/questions").text)
    assert sorted(study) == ["q1", "q2", "q3", "q4", "q5"]
    # Titles A to Z whatever their case.
    assert listed(client.get("/questions?sort=title").text) == ["q2", "q4", "q3", "q5", "q1"]
    # The most asked first; equally asked in the bank's own order.
    asked = listed(client.get("/questions?sort=asked").text)
    assert asked[2:] == ["q3", "q5", "q1"]
    assert asked[:2] == [key for key in study if key in ("q2", "q4")]
    # As the menu writes it, or typed with capitals.
    assert listed(client.get("/questions?sort=Title").text) == ["q2", "q4", "q3", "q5", "q1"]
    page = client.get("/questions?sort=asked").text
    assert '<strong aria-current="true">Most asked first</strong>' in page
    response = client.get("/questions?sort=newest")
    assert response.status_code == 400
    assert "Unknown order &#39;newest&#39;: use title, asked, or none." in response.text


def test_the_order_links_keep_the_filters_and_the_filter_form_keeps_the_order(
        app, client, clock):
    load(app, clock, [*TITLED, make_card("q6", level="middle", frequency="very-common")])
    page = client.get("/questions?level=junior&q=strides&page=1&sort=asked").text
    links = dict((label, href.replace("&amp;", "&")) for href, label in re.findall(
        r'<a href="([^"]+)">([^<]+)</a>', page.split('class="order-links"')[1].split("</p>")[0]))
    assert links == {"Study order": "/questions?level=junior&q=strides",
                     "Title, A to Z": "/questions?level=junior&q=strides&sort=title"}
    assert '<input type="hidden" name="sort" value="asked">' in page
    assert '<input type="hidden" name="sort"' not in client.get("/questions").text
    # One question: nothing to order.
    assert "order-links" not in client.get("/questions?q=broadcast").text


def test_the_order_is_kept_by_the_pager_search_and_the_way_back_from_a_card(app, client, clock):
    load(app, clock, [make_card(f"card-{n:02d}", title=f"T{99 - n:02d}") for n in range(30)])
    first = client.get("/questions?sort=title").text
    assert listed(first)[0] == "card-29"  # "T70" first
    next_link = re.search(r'href="([^"]+)">Next →', first).group(1).replace("&amp;", "&")
    assert parse_qs(urlsplit(next_link).query)["sort"] == ["title"]
    second = client.get(next_link).text
    assert listed(second) == [f"card-{n:02d}" for n in range(4, -1, -1)]
    # A card opened from the list leads back to the list in its order.
    link = re.search(r'href="(/questions/card-29[^"]*)"', first).group(1).replace("&amp;", "&")
    card = client.get(link).text
    assert 'href="/questions?sort=title">← Back to the list' in card


def test_signed_in_each_card_says_where_you_stand_and_yours_filters(app, client, clock):
    load(app, clock)
    register(client, "sam")
    for key in ("q3", "q5"):
        rate_current(client, 3, client.get(f"/study?card={key}").text)
    clock.advance(minutes=15)
    rate_current(client, 3, client.get("/study?card=q5").text)  # graduates: days away
    clock.advance(minutes=1)
    page = client.get("/questions").text
    shown = progress(page)
    assert shown["q1"] == shown["q2"] == shown["q4"] == "Not studied yet"
    assert shown["q3"] == "Due now"  # its 10-minute step is over
    assert re.fullmatch(r"Next review in \d+ days?", shown["q5"]), shown["q5"]
    # Rated today, q3 and q5 are still "not studied before today": a list being studied keeps
    # them through their learning steps, and so does the list page.
    assert set(listed(client.get("/questions?mine=new").text)) == {"q1", "q2", "q3", "q4", "q5"}
    assert set(listed(client.get("/questions?mine=studied").text)) == {"q3", "q5"}
    assert listed(client.get("/questions?mine=due").text) == ["q3"]
    assert listed(client.get("/questions?mine=due&sort=title").text) == ["q3"]
    due_page = client.get("/questions?mine=due").text
    assert "<title>Questions: due now · quizapp</title>" in due_page
    assert '<option value="due" selected>Due now</option>' in due_page
    response = client.get("/questions?mine=mastered")
    assert response.status_code == 400 and "Unknown progress filter" in response.text
    # Retired cards are not listed, studied or not.
    with app.app_context():
        db.session.execute(update(Item).where(Item.key == "q3").values(retired=True))
        db.session.commit()
    assert listed(client.get("/questions?mine=due").text) == []


def test_another_persons_progress_is_theirs_and_a_visitor_sees_none(app, client, clock):
    load(app, clock)
    register(client, "sam")
    rate_current(client, 3, client.get("/study?card=q1").text)
    logout(client)
    visitor = client.get("/questions?mine=studied").text
    assert len(listed(visitor)) == 5  # read only for a signed-in person
    assert 'name="mine"' not in visitor and "card-progress" not in visitor
    register(client, "kim")
    assert set(progress(client.get("/questions").text).values()) == {"Not studied yet"}
    assert listed(client.get("/questions?mine=studied").text) == []
    with app.app_context():
        (state,) = db.session.scalars(select(ReviewState)).all()
        assert state.reps == 1


def test_an_empty_progress_filter_offers_the_search_in_every_card(app, client, clock):
    load(app, clock)
    register(client, "sam")
    page = client.get("/questions?mine=due&q=broadcast").text
    assert "No question matches" in page
    assert re.search(r'Search “broadcast” in every level, concept and importance, whatever '
                     r'your progress</a> \(1 question\)', page)


def test_progress_shows_the_due_time_in_the_persons_words(app, client, clock):
    load(app, clock, TITLED[:1])
    register(client, "sam")
    rate_current(client, 4, client.get("/study?card=q1").text)  # Easy: days away
    with app.app_context():
        due = db.session.scalar(select(ReviewState.due))
    clock.advance(seconds=(due - clock()).total_seconds() - 3600)
    assert progress(client.get("/questions").text)["q1"] == "Next review in 1 hour"
    clock.advance(hours=1)
    assert progress(client.get("/questions").text)["q1"] == "Due now"


def test_days_away_are_study_days_as_the_rating_button_counted_them(app, client, clock):
    # Rated Easy late in the evening: the due time is the start of the Nth study day, N days
    # and some hours short of a whole N*24 hours away. The button, the status bar past its
    # echo minute and the list all say N days (counted by the hour, the list said N-1).
    load(app, clock, TITLED[:1])
    register(client, "sam")
    clock.advance(hours=14)  # 23:00 UTC, the account's zone without JavaScript
    page = client.get("/study?card=q1").text
    days = int(re.search(r'id="rate-4-when">due again in (\d+) days</span>', page).group(1))
    rate_current(client, 4, page)
    clock.advance(minutes=2)
    with app.app_context():
        due = db.session.scalar(select(ReviewState.due))
    assert due - clock() < timedelta(days=days - 0.5)  # by the hour it would read N-1 days
    assert progress(client.get("/questions").text)["q1"] == f"Next review in {days} days"
    assert f"comes back in {days} days." in client.get("/study").text
