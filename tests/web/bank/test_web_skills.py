"""The puzzle skills: listed by level with each user's progress, a page per skill with an
example and the user's record, and Study it now for a skill (``/study?skill=``)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlalchemy import select
from webtest_support import READABLE, csrf_token, rate_current, register, shown_key

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import Review, Skill
from quizapp.services import skill_browser
from quizapp.services.items import SKILL_KEYS

SKILL = "fresh_strides/middle"
SKILL_URL = "/puzzles/fresh_strides/middle"
ROW_RE = re.compile(r'<li class="card-row" data-skill-key="([^"]+)">(.*?)</li>', re.S)


def listed(page: str) -> dict[str, str]:
    """Each listed skill's key and its row's text."""
    return {key: " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split())
            for key, row in ROW_RE.findall(page)}


def offered_keys(app) -> list[str]:
    """The skills the queue offers, in the order it brings them in (an oracle apart from the
    page's query: every skill row, filtered by hand)."""
    with app.app_context():
        rows = db.session.execute(select(Skill.key, Skill.retired, Skill.new_order, Skill.id)
                                  .order_by(Skill.new_order, Skill.id)).all()
    return [row.key for row in rows if not row.retired and row.key in SKILL_KEYS]


def study_skill(client, key: str = SKILL, seen: int = 0):
    """Study it now on the skill, answer its puzzle and rate it Good: the rating's response."""
    page = client.get(f"/study?skill={key}&seen={seen}").text
    assert shown_key(page) == key
    kind = re.search(r'data-answer-kind="(\w+)"', page).group(1)
    result = client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": re.search(
            r'id="token" name="token" type="hidden" value="([^"]+)"', page).group(1),
        "answer": READABLE[kind], "hints_used": "0"})
    assert result.status_code == 200
    return rate_current(client, 3, result.text, answer=READABLE[kind])


def test_the_list_has_every_offered_skill_by_level_in_the_queues_order(app, client,
                                                                        skill_bank):
    page = client.get("/puzzles").text
    rows = listed(page)
    assert list(rows) == offered_keys(app) and len(rows) > 20
    assert f"{len(rows)} puzzle skills" in page
    headings = re.findall(r'<h2 id="level-(\w+)">', page)
    assert headings == ["junior", "middle", "senior", "principal"]
    for key, text in rows.items():
        assert key.split("/")[1] in text  # its level badge
        assert "Not studied yet" not in text  # a visitor has no progress to show


def test_a_user_sees_progress_in_the_list(app, client, skill_bank):
    register(client, "pia")
    assert all(text.endswith("Not studied yet")
               for text in listed(client.get("/puzzles").text).values())
    assert study_skill(client).status_code == 303
    rows = listed(client.get("/puzzles").text)
    assert rows[SKILL].endswith("Next review in 10 minutes")
    assert sum(text.endswith("Not studied yet") for text in rows.values()) == len(rows) - 1


def test_a_skill_page_shows_its_example_and_study_it_now(client, skill_bank):
    page = client.get(SKILL_URL).text
    example = puzzles.generate("fresh_strides", "middle", skill_browser.EXAMPLE_SEED)
    code = example["code"].splitlines()[0]
    assert all(part in unescape(re.sub(r"<[^>]+>", "", page))
               for part in re.findall(r"\w+", code))
    assert "Log in to study it" in page and "Your record" not in page
    register(client, "pia")
    page = client.get(SKILL_URL).text
    assert f'href="/study?skill={SKILL}&amp;seen=0">Study it now</a>' in page
    assert 'name="back" type="hidden" value="skill"' in page  # its Suspend comes back here


def test_study_it_now_deals_the_skill_ahead_of_the_queue_then_the_queue_goes_on(app, client,
                                                                               skill_bank):
    register(client, "pia")
    head = shown_key(client.get("/study").text)
    assert head != SKILL
    page = client.get(f"/study?skill={SKILL}&seen=0").text
    assert shown_key(page) == SKILL
    assert "Dealt ahead of your queue, as you asked on its page. It is new to you" in page
    assert f'<a href="{SKILL_URL}">Back to the puzzle skill</a>' in page
    response = study_skill(client)
    assert response.status_code == 303 and response.location.endswith("/study")
    assert shown_key(client.get("/study").text) == head
    with app.app_context():
        keys = db.session.scalars(select(Skill.key).join(Review, Review.item_id == Skill.id))
        assert list(keys) == [SKILL]
    # Back to the link with its old version: rated since, so the queue, saying why.
    again = client.get(f"/study?skill={SKILL}&seen=0", follow_redirects=True).text
    assert "was rated or undone since you chose it" in again and shown_key(again) == head


def test_the_skill_page_shows_the_record_after_a_rating(client, skill_bank):
    register(client, "pia")
    study_skill(client)
    page = client.get(SKILL_URL).text
    assert "Your record with this puzzle skill" in page
    assert re.search(r"<dt>Reviews</dt><dd>1 \(first ", page)
    assert re.search(r"<dt>Chance you solve one now</dt><dd>100% ", page)
    assert "You have reviewed this 1 time; next due in 10 minutes." in page


@pytest.mark.parametrize("url", ["/puzzles/none_such/junior", "/puzzles/fresh_strides/guru",
                                 "/puzzles/" + "x" * 300 + "/junior"])
def test_an_unknown_skill_is_a_404_in_words(client, skill_bank, url):
    response = client.get(url)
    assert response.status_code == 404
    assert skill_browser.UNKNOWN_SKILL in unescape(response.text)


@pytest.mark.parametrize("key", ["none_such/junior", "fresh_strides", "x" * 300, "",
                                 "fresh_strides/middle/1"])
def test_study_it_now_on_an_unknown_skill_is_a_404_in_words(client, skill_bank, key):
    register(client, "pia")
    response = client.get("/study", query_string={"skill": key})
    assert response.status_code == 404
    assert "There is no puzzle skill with that name to study" in unescape(response.text)


def test_a_retired_skill_keeps_its_page_and_record_but_is_not_studied(app, client,
                                                                      skill_bank):
    register(client, "pia")
    study_skill(client)
    with app.app_context():
        db.session.scalar(select(Skill).where(Skill.key == SKILL)).retired = True
        db.session.commit()
    page = client.get(SKILL_URL).text
    assert "no longer in the bank" in page and "Study it now" not in page
    assert "Your record with this puzzle skill" in page and "<dt>Stage</dt>" not in page
    assert SKILL not in listed(client.get("/puzzles").text)
    response = client.get(f"/study?skill={SKILL}")
    assert response.status_code == 404 and "no longer in the bank" in unescape(response.text)


def test_suspend_and_resume_on_the_skill_page_come_back_to_it(client, skill_bank):
    register(client, "pia")
    page = client.get(SKILL_URL).text
    item_id = re.search(r'name="item_id" type="hidden" value="(\d+)"', page).group(1)
    form = {"csrf_token": csrf_token(page), "item_id": item_id, "back": "skill"}
    response = client.post("/study/suspend", data=form)
    assert response.status_code == 303 and response.location.endswith(SKILL_URL)
    page = client.get(SKILL_URL).text
    assert "You suspended this puzzle skill" in page
    assert listed(client.get("/puzzles").text)[SKILL].endswith("Suspended")
    # The list of suspended items leads to the skill's page, where it can be resumed.
    assert f'<a href="{SKILL_URL}">Strides of a fresh tensor (middle)</a>' in client.get(
        "/study/suspended").text
    response = client.post("/study/resume", data=form)
    assert response.location.endswith(SKILL_URL)
    assert "You suspended" not in client.get(SKILL_URL).text


def test_the_menu_names_the_puzzles_page(client, skill_bank):
    page = client.get("/puzzles").text
    assert '<a href="/puzzles" aria-current="page">Puzzles</a>' in page
    assert '<a href="/puzzles" >Puzzles</a>' in client.get("/questions").text


def undo_form(page: str) -> dict[str, str]:
    """The hidden fields of the status bar's Undo form on a study page."""
    form = re.search(r'<form method="post" action="/study/undo".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'name="([^"]+)" type="hidden" value="([^"]*)"', form))


def test_undoing_a_study_it_now_rating_deals_the_skill_again(app, client, skill_bank):
    """As a card chosen on its page is shown again after Undo: the queue's head is another
    item, which the flash's "is back as it was" did not name."""
    register(client, "pia")
    head = shown_key(client.get("/study").text)
    assert head != SKILL
    assert study_skill(client).status_code == 303
    response = client.post("/study/undo", data=undo_form(client.get("/study").text))
    assert response.status_code == 303
    page = client.get(response.location).text
    assert shown_key(page) == SKILL
    assert "Undone: “Strides of a fresh tensor (middle)” is back" in unescape(page)
    assert "Dealt ahead of your queue" not in page  # the flash says why it is shown
    assert study_skill(client).status_code == 303  # rated anew, then the queue goes on
    assert shown_key(client.get("/study").text) == head
    # Undone while a question list is studied: the list goes on (it holds no skills).
    page = client.get("/study?list=level%3Djunior").text
    response = client.post("/study/undo", data=undo_form(page))
    assert response.location == "/study?list=level%3Djunior"


def test_a_suspended_skill_dealt_by_study_it_now_says_so_and_offers_resume(client, skill_bank):
    register(client, "pia")
    page = client.get(SKILL_URL).text
    item_id = re.search(r'name="item_id" type="hidden" value="(\d+)"', page).group(1)
    client.post("/study/suspend", data={"csrf_token": csrf_token(page), "item_id": item_id,
                                        "back": "skill"})
    page = client.get(f"/study?skill={SKILL}&seen=0").text
    assert shown_key(page) == SKILL
    assert "You suspended this puzzle skill: a rating here is saved" in page
    actions = page[page.index('<div class="item-actions">'):]
    assert 'action="/study/resume"' in actions and 'action="/study/suspend"' not in actions


def test_a_skill_pages_title_names_its_level_once(client, skill_bank):
    """The skill's title already ends with its level, which the page title repeated."""
    page = client.get(SKILL_URL).text
    assert "<title>Puzzle: Strides of a fresh tensor (middle) · quizapp</title>" in page


@pytest.mark.parametrize("answer", ["", "hello there"], ids=["empty", "unreadable"])
def test_an_unreadable_answer_to_a_study_it_now_puzzle_shows_that_puzzle_again(client,
                                                                               skill_bank,
                                                                               answer):
    """The page re-rendered with the error showed the queue's head (a card) instead: the
    puzzle chosen, and what was typed, were gone."""
    register(client, "pia")
    assert shown_key(client.get("/study").text) != SKILL
    page = client.get(f"/study?skill={SKILL}&seen=0").text
    token = re.search(r'id="token" name="token" type="hidden" value="([^"]+)"', page).group(1)
    response = client.get("/study/answer", query_string={"token": token, "answer": answer,
                                                         "hints_used": "0"})
    assert response.status_code in (400, 422)
    assert shown_key(response.text) == SKILL
    assert f'name="token" type="hidden" value="{token}"' in response.text  # the same puzzle
    if answer:
        assert 'value="hello there"' in response.text
