"""Practice sets on the web: make, preview, save, rename, delete, share, take (timed too),
score, print; bad input, CSRF and who may see or change what, on both databases."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from sets_support import SLUG_RE, puzzle_of, right_answer, shown_item, wrong_answer
from sqlalchemy import func, select
from webtest_support import csrf_token, login, logout, register

from quizapp.extensions import db
from quizapp.models import PracticeSet, SetAnswer, SetAttempt
from quizapp.services.bank_import import import_cards

# Two junior cards and two fresh-strides puzzles (tuple answers), five minutes.
PARAMS = {"levels": "junior", "families": "fresh_strides", "count": "4", "puzzles": "2",
          "seed": "77", "time_limit": "5", "title": "Junior strides"}


def preview(client, **changes):
    return client.get("/sets/new", query_string={**PARAMS, **changes})


def save(client, **changes) -> str:
    """Save a set as the signed-in client; its slug."""
    page = preview(client, **changes)
    assert page.status_code == 200, page.text
    response = client.post("/sets/new", data={
        "csrf_token": csrf_token(page.text), **PARAMS, **changes})
    assert response.status_code == 303, response.text
    match = SLUG_RE.search(response.location)
    assert match, response.location
    return match.group(1)


def start(client, slug: str) -> str:
    page = client.get(f"/sets/{slug}/take")
    response = client.post(f"/sets/{slug}/take", data={"csrf_token": csrf_token(page.text)})
    assert response.status_code == 303
    return response.location


def answer_current(client, attempt_url: str, *, right: bool = True):
    """Answer whatever the attempt shows: a puzzle rightly or wrongly, a card knew/didn't."""
    page = client.get(attempt_url)
    kind, key, position = shown_item(page.text)
    data = {"csrf_token": csrf_token(page.text), "position": str(position)}
    if kind == "card":
        data["grade"] = "knew" if right else "didnt"
    else:
        data["answer"] = right_answer(key) if right else wrong_answer(key)
    return kind, key, client.post(f"{attempt_url}/answer", data=data)


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_the_form_previews_the_first_items_and_draws_a_seed_when_none_is_given(
        client, skill_bank):
    empty = client.get("/sets/new")
    assert empty.status_code == 200
    assert '<a href="/sets" aria-current="page">Sets</a>' in empty.text  # the menu's entry
    assert 'name="count"' in empty.text and 'value="junior"' in empty.text
    assert 'id="preview-title"' not in empty.text
    page = preview(client)
    assert page.status_code == 200
    assert "4 items: 2 questions and 2 puzzles, seed <code>77</code>" in page.text
    assert page.text.count('class="set-item"') == 4
    assert page.text.count("Strides of a fresh tensor (junior)") == 2
    # The same parameters and seed preview the same items; another seed others.
    assert preview(client).text == page.text
    drawn = preview(client, seed="")
    seed = re.search(r'id="seed"[^>]* value="([0-9]+)"', drawn.text)
    assert seed and "drawn for you" in drawn.text
    again = preview(client, seed=seed.group(1))
    assert re.findall(r'<li class="set-item">.*?</li>', again.text, re.S) == re.findall(
        r'<li class="set-item">.*?</li>', drawn.text, re.S)
    # Signed out, saving asks for an account and comes back to this preview.
    assert "Saving a set needs an account" in page.text
    assert 'href="/login?next=' in page.text


@pytest.mark.parametrize(("field", "value", "message"), [
    ("count", "0", "The number of items must be between 1 and 100, not 0."),
    ("count", "101", "The number of items must be between 1 and 100, not 101."),
    ("count", "ten", "The number of items must be a whole number, not &#39;ten&#39;."),
    ("puzzles", "5", "The number of puzzles must be between 0 and the number of items (4), not 5."),
    ("time_limit", "241", "The time limit must be between 1 and 240 minutes, not 241."),
    ("time_limit", "0", "The time limit must be between 1 and 240 minutes, not 0."),
    ("seed", "1.5", "The seed must be a whole number, not &#39;1.5&#39;."),
    ("seed", str(2**63), "The seed must be between"),
    ("levels", "wizard", "Unknown level &#39;wizard&#39;"),
    ("concepts", "telepathy", "Unknown concept &#39;telepathy&#39;"),
    ("families", "nope", "Unknown puzzle family &#39;nope&#39;"),
    ("title", "x" * 201, "The title must be at most 200 characters, not 201."),
])
def test_every_parameter_is_bounded_with_a_message_and_the_form_keeps_what_was_typed(
        client, skill_bank, field, value, message):
    page = preview(client, **{field: value})
    assert page.status_code == 400
    assert message in page.text
    assert page.text.startswith("<!doctype html>") and "<title>Error: " in page.text
    # What was typed in the other fields is kept, and the bad value too (text fields).
    assert 'value="Junior strides"' in page.text or field == "title"
    if field in ("count", "puzzles", "time_limit", "seed"):
        assert f'value="{value}"' in page.text
    assert 'class="set-item"' not in page.text


def test_a_set_the_bank_cannot_fill_says_how_many_it_can(client, skill_bank):
    # One senior card in the bank, no puzzle asked for.
    page = preview(client, levels="senior", families="", count="3", puzzles="0")
    assert page.status_code == 422
    assert "The bank cannot fill this set" in page.text
    assert "it can have 1 item at most" in page.text
    assert 'value="3"' in page.text  # the count typed is kept


def test_saving_needs_an_account_and_a_csrf_token(app, client, skill_bank):
    refused = client.post("/sets/new", data=PARAMS)
    assert refused.status_code in (302, 400)
    assert count(app, PracticeSet) == 0
    register(client, "owner")
    page = preview(client)
    assert client.post("/sets/new", data=PARAMS).status_code == 400  # no CSRF token
    assert client.post("/sets/new", data={**PARAMS, "csrf_token": "forged"}).status_code == 400
    assert count(app, PracticeSet) == 0
    bad = client.post("/sets/new", data={"csrf_token": csrf_token(page.text),
                                         **PARAMS, "count": "0"})
    assert bad.status_code == 400 and "between 1 and 100" in bad.text
    assert count(app, PracticeSet) == 0


def test_a_saved_set_has_a_permanent_unguessable_address_anyone_can_open(app, client,
                                                                          skill_bank):
    register(client, "owner")
    slug = save(client)
    assert len(slug) >= 22  # 16 random bytes, 128 bits
    page = client.get(f"/sets/{slug}")
    assert page.status_code == 200
    assert "Junior strides" in page.text and page.text.count('class="set-item"') == 4
    assert "Rename" in page.text and "Delete this set" in page.text
    for format_ in ("json", "csv", "md", "apkg"):
        assert f"/sets/{slug}/download.{format_}" in page.text
    # The items are the preview's, frozen.
    previewed = re.findall(r'<h3 class="set-item-title">(.*?)</h3>', preview(client).text)
    assert re.findall(r'<h3 class="set-item-title">(.*?)</h3>', page.text) == previewed
    # Signed out, and as another account: readable, not changeable.
    logout(client)
    visitor = client.get(f"/sets/{slug}")
    assert visitor.status_code == 200 and "Delete this set" not in visitor.text
    assert "to add it to your reviews" in visitor.text
    register(client, "other")
    other = client.get(f"/sets/{slug}")
    assert other.status_code == 200 and "Rename" not in other.text
    token = csrf_token(other.text)
    assert client.post(f"/sets/{slug}/rename", data={"csrf_token": token,
                                                     "title": "Mine now"}).status_code == 404
    assert client.post(f"/sets/{slug}/delete", data={"csrf_token": token}).status_code == 404
    with app.app_context():
        assert db.session.scalar(select(PracticeSet.title)) == "Junior strides"


def test_unknown_slugs_are_404_on_every_route(client, skill_bank):
    register(client, "owner")
    token = csrf_token(client.get("/sets").text)
    for path in ("/sets/nosuchsetatall00000000", "/sets/x/print", "/sets/x/take",
                 "/sets/x/attempts/1", "/sets/x/download.json", "/sets/" + "y" * 300):
        assert client.get(path).status_code == 404, path
    for path in ("/sets/x/rename", "/sets/x/delete", "/sets/x/take", "/sets/x/attempts/1/answer",
                 "/sets/x/attempts/1/finish", "/sets/x/reviews"):
        assert client.post(path, data={"csrf_token": token, "title": "t"}).status_code == 404, path


def test_the_owner_renames_and_deletes(app, client, skill_bank):
    register(client, "owner")
    slug = save(client)
    page = client.get(f"/sets/{slug}")
    empty = client.post(f"/sets/{slug}/rename", data={"csrf_token": csrf_token(page.text),
                                                      "title": "   "})
    assert empty.status_code == 400 and "Type a title for the set." in empty.text
    long = client.post(f"/sets/{slug}/rename", data={"csrf_token": csrf_token(page.text),
                                                     "title": "t" * 201})
    assert long.status_code == 400 and 'value="' + "t" * 201 + '"' in long.text
    assert "Your attempts" not in long.text
    assert client.post(f"/sets/{slug}/rename", data={"title": "No token"}).status_code == 400
    renamed = client.post(f"/sets/{slug}/rename", data={"csrf_token": csrf_token(page.text),
                                                        "title": "  Before  the interview "})
    assert renamed.status_code == 303
    assert "Before the interview" in client.get(f"/sets/{slug}").text
    start(client, slug)
    refused = client.post(f"/sets/{slug}/rename", data={"csrf_token": csrf_token(page.text),
                                                         "title": ""})
    assert refused.status_code == 400 and "Your attempts" in refused.text  # the page as it was
    assert client.post(f"/sets/{slug}/delete", data={}).status_code == 400
    deleted = client.post(f"/sets/{slug}/delete", data={"csrf_token": csrf_token(page.text)})
    assert deleted.status_code == 303
    assert client.get(f"/sets/{slug}").status_code == 404
    assert count(app, PracticeSet) == 0 and count(app, SetAttempt) == 0


def test_taking_a_set_scores_it_and_the_result_explains_every_item(app, client, skill_bank):
    register(client, "taker")
    slug = save(client, time_limit="")
    attempt_url = start(client, slug)
    first = client.get(attempt_url)
    assert "Item 1 of 4" in first.text and "Time left" not in first.text
    outcomes = []
    for right in (False, True, True, False):
        kind, key, response = answer_current(client, attempt_url, right=right)
        assert response.status_code == 303
        outcomes.append((kind, key, right))
    assert sorted(kind for kind, _, _ in outcomes) == ["card", "card", "puzzle", "puzzle"]
    result = client.get(attempt_url)
    assert "Your result: <span data-score>2</span> of 4 right" in result.text
    for kind, key, right in outcomes:
        if kind == "puzzle":
            typed = right_answer(key) if right else wrong_answer(key)
            assert f"<code>{typed}</code>" in result.text
    assert result.text.count('data-result="correct"') == 2
    assert result.text.count('data-result="wrong"') == 2
    assert "Why" in result.text and "/explorer?expr=torch." in result.text
    listed = client.get("/sets")
    assert "Junior strides" in listed.text and "2 of 4 right" in listed.text
    with app.app_context():
        attempt = db.session.scalar(select(SetAttempt))
        assert attempt.score == 2 and attempt.finished_at is not None
        assert attempt.user_id is not None


def test_an_unreadable_puzzle_answer_is_sent_back_with_what_was_typed(app, client, skill_bank):
    register(client, "taker")
    slug = save(client, levels="junior", count="1", puzzles="1")
    attempt_url = start(client, slug)
    page = client.get(attempt_url)
    _, _, position = shown_item(page.text)
    response = client.post(f"{attempt_url}/answer", data={
        "csrf_token": csrf_token(page.text), "position": str(position), "answer": "banana"})
    assert response.status_code == 422
    assert "Could not read" in response.text and 'value="banana"' in response.text
    empty = client.post(f"{attempt_url}/answer", data={
        "csrf_token": csrf_token(page.text), "position": str(position), "answer": " "})
    assert empty.status_code == 422 and "Type an answer first" in empty.text
    damaged = client.post(f"{attempt_url}/answer", data={
        "csrf_token": csrf_token(page.text), "position": "x", "answer": "1"})
    assert damaged.status_code == 400
    assert client.post(f"{attempt_url}/answer", data={
        "position": str(position), "answer": "(1,)"}).status_code == 400  # no CSRF token
    assert count(app, SetAnswer) == 0


def test_a_second_answer_to_one_item_does_not_count_twice(app, client, skill_bank):
    register(client, "taker")
    slug = save(client)
    attempt_url = start(client, slug)
    page = client.get(attempt_url)
    kind, key, position = shown_item(page.text)
    data = {"csrf_token": csrf_token(page.text), "position": str(position),
            "grade": "knew", "answer": right_answer(key) if kind == "puzzle" else ""}
    assert client.post(f"{attempt_url}/answer", data=data).status_code == 303
    again = client.post(f"{attempt_url}/answer", data=data, follow_redirects=True)
    assert "answered already" in again.text
    assert count(app, SetAnswer) == 1


def test_a_timed_attempt_past_its_deadline_counts_only_what_came_in_time(app, client, clock,
                                                                        skill_bank):
    register(client, "taker")
    slug = save(client)  # 5 minutes
    attempt_url = start(client, slug)
    page = client.get(attempt_url)
    assert "Time left: <strong data-time-left>5 min</strong>" in page.text
    assert "Answer by <time" in page.text and "2025-03-03 09:05" in page.text
    answer_current(client, attempt_url, right=True)
    clock.advance(minutes=4)
    late_page = client.get(attempt_url)
    assert "Time left: <strong data-time-left>1 min</strong>" in late_page.text
    clock.advance(minutes=1, seconds=1)
    _, _, position = shown_item(late_page.text)
    late = client.post(f"{attempt_url}/answer", data={
        "csrf_token": csrf_token(late_page.text), "position": str(position), "grade": "knew",
        "answer": "(1,)"}, follow_redirects=True)
    assert "Time was up before that answer arrived" in late.text
    assert "Your result: <span data-score>1</span> of 4 right" in late.text
    assert "when the time ran out" in late.text
    with app.app_context():
        attempt = db.session.scalar(select(SetAttempt))
        assert attempt.finished_at == attempt.deadline and attempt.score == 1
    assert count(app, SetAnswer) == 1


def test_attempts_are_visible_to_their_taker_only(app, make_app, client, skill_bank):
    register(client, "owner")
    slug = save(client)
    attempt_url = start(client, slug)
    logout(client)
    assert client.get(attempt_url).status_code == 404  # a visitor
    register(client, "other")
    assert client.get(attempt_url).status_code == 404
    page = client.get(f"/sets/{slug}")
    token = csrf_token(page.text)
    assert client.post(f"{attempt_url}/answer", data={
        "csrf_token": token, "position": "0", "grade": "knew"}).status_code == 404
    assert client.post(f"{attempt_url}/finish", data={"csrf_token": token}).status_code == 404
    assert "2 of 4" not in client.get("/sets").text
    logout(client)
    login(client, "owner")
    assert client.get(attempt_url).status_code == 200
    # Another set's address does not reach this attempt either.
    other_slug = save(client, seed="78")
    assert client.get(attempt_url.replace(slug, other_slug)).status_code == 404


def test_a_visitor_takes_a_set_and_the_result_is_kept_in_the_session_only(app, client, clock,
                                                                          skill_bank):
    register(client, "owner")
    slug = save(client, time_limit="")
    logout(client)
    take_page = client.get(f"/sets/{slug}/take")
    assert "kept in this browser's session only" in take_page.text
    attempt_url = start(client, slug)
    for _ in range(4):
        answer_current(client, attempt_url, right=True)
    result = client.get(attempt_url)
    assert "Your result: <span data-score>4</span> of 4 right" in result.text
    assert "this result is kept in this browser's session only" in result.text
    assert "4 of 4 right" in client.get("/sets").text
    with app.app_context():
        assert db.session.scalar(select(SetAttempt.user_id)) is None
    stranger = app.test_client()
    assert stranger.get(attempt_url).status_code == 404
    assert "4 of 4 right" not in stranger.get("/sets").text
    # Two days on, the next visitor's start deletes it (no session can hold it any more).
    clock.advance(days=2, seconds=1)
    start(stranger, slug)
    assert client.get(attempt_url).status_code == 404
    assert count(app, SetAttempt) == 1


def test_finishing_early_counts_the_rest_as_wrong(app, client, skill_bank):
    register(client, "taker")
    slug = save(client)
    attempt_url = start(client, slug)
    answer_current(client, attempt_url, right=True)
    page = client.get(attempt_url)
    assert client.post(f"/sets/{slug}/take", data={}).status_code == 400  # no CSRF token
    assert count(app, SetAttempt) == 1
    assert client.post(f"{attempt_url}/finish", data={}).status_code == 400
    finished = client.post(f"{attempt_url}/finish", data={"csrf_token": csrf_token(page.text)},
                           follow_redirects=True)
    assert "Your result: <span data-score>1</span> of 4 right" in finished.text
    assert finished.text.count('data-result="unanswered"') == 3
    retake = start(client, slug)
    assert retake != attempt_url and "Item 1 of 4" in client.get(retake).text


def test_the_print_view_has_the_questions_then_the_answer_key_and_no_navigation(
        client, skill_bank):
    register(client, "owner")
    slug = save(client)
    logout(client)
    page = client.get(f"/sets/{slug}/print")
    assert page.status_code == 200
    assert "<nav" not in page.text and "Log in" not in page.text
    questions, key = page.text.split('<section class="sheet-key"')
    assert questions.count('class="sheet-item"') == 4 and key.count('class="sheet-item"') == 4
    assert "Answer key" in key and "Answer:" not in questions
    assert 'class="highlight"' in page.text  # code highlighted by Pygments
    assert "sets_print.css" in page.text
    css = client.get("/static/sets_print.css").text
    assert ".sheet-key { break-before: page;" in css


def test_the_print_view_counts_minutes_in_words_a_person_would_write(client, skill_bank):
    register(client, "owner")
    one = save(client, time_limit="1")
    five = save(client, time_limit="5", seed="78")
    assert "4 items · 1 minute · seed 77" in client.get(f"/sets/{one}/print").text
    assert "4 items · 5 minutes · seed 78" in client.get(f"/sets/{five}/print").text


def test_every_download_is_the_saved_set_under_its_current_title(app, client, skill_bank):
    register(client, "owner")
    slug = save(client)
    page = client.get(f"/sets/{slug}")
    client.post(f"/sets/{slug}/rename", data={"csrf_token": csrf_token(page.text),
                                              "title": "Renamed set"})
    logout(client)  # a link is enough to download
    shown = re.findall(r'data-item-key="([^"]+)"', client.get(f"/sets/{slug}/print").text)
    downloads = {}
    for format_, media in (("json", "application/json"), ("csv", "text/csv"),
                           ("md", "text/markdown"), ("apkg", "application/apkg")):
        response = client.get(f"/sets/{slug}/download.{format_}")
        assert response.status_code == 200, format_
        assert response.mimetype == media
        assert response.headers["Content-Type"].count("charset") <= 1, response.headers
        assert response.headers["Content-Disposition"] == (
            f'attachment; filename="{slug}.{format_}"')
        downloads[format_] = response.data
    document = json.loads(downloads["json"])
    assert document["seed"] == 77 and document["parameters"]["title"] == "Renamed set"
    assert [item["key"] for item in document["items"]] == shown
    assert downloads["csv"].decode().startswith("#separator:Comma")
    assert "Renamed set" in downloads["md"].decode()
    with zipfile.ZipFile(io.BytesIO(downloads["apkg"])) as package:
        assert any(name.startswith("collection.anki") for name in package.namelist())
    assert client.get(f"/sets/{slug}/download.pdf").status_code == 404
    assert client.get(f"/sets/{slug}/download.").status_code == 404


def test_a_saved_set_keeps_its_items_when_the_bank_changes_and_labels_a_retired_card(
        app, client, clock, skill_bank):
    register(client, "owner")
    slug = save(client)
    before = client.get(f"/sets/{slug}").text
    titles = re.findall(r'<h3 class="set-item-title">(.*?)</h3>', before)
    keys = re.findall(r'data-item-key="([^"]+)"', client.get(f"/sets/{slug}/print").text)
    card_key = next(key for key in keys if "/" not in key)
    with app.app_context():
        import_cards(db.session, [card for card in skill_bank if card.id != card_key],
                     clock.advance(days=1))
    after = client.get(f"/sets/{slug}").text
    assert re.findall(r'<h3 class="set-item-title">(.*?)</h3>', after) == titles
    assert after.count('<span class="badge retired">retired</span>') == 1
    assert "retired from the bank" in client.get(f"/sets/{slug}/print").text


def test_a_puzzle_with_options_is_answered_by_its_pick_alone(app, client, skill_bank):
    """Options are picked as on the study pages, without JavaScript: the pick is the answer."""
    register(client, "picker")
    slug = save(client, levels="principal", families="viewable_shapes", count="2",
                puzzles="2", time_limit="")
    attempt_url = start(client, slug)
    for right in (True, False):
        page = client.get(attempt_url)
        _, key, position = shown_item(page.text)
        assert 'type="checkbox" name="pick"' in page.text
        answer = puzzle_of(key)["answer"]  # the letters of every option that applies
        letters = "abcdefgh"[:len(puzzle_of(key)["choices"])]
        picks = answer if right else [letter for letter in letters if letter not in answer]
        response = client.post(f"{attempt_url}/answer", data={
            "csrf_token": csrf_token(page.text), "position": str(position), "pick": picks,
            "answer": ""})
        assert response.status_code == 303
    result = client.get(attempt_url)
    assert "Your result: <span data-score>1</span> of 2 right" in result.text
    beyond = client.post(f"{attempt_url}/answer", data={
        "csrf_token": csrf_token(result.text), "position": "50", "answer": "A"})
    assert beyond.status_code == 400


def test_set_pages_use_no_id_twice_and_tie_errors_to_their_fields(client, skill_bank):
    register(client, "owner")
    slug = save(client)
    attempt_url = start(client, slug)
    bad = preview(client, count="0", seed="x")
    pages = [bad.text, preview(client).text, client.get(f"/sets/{slug}").text,
             client.get(f"/sets/{slug}/take").text, client.get(attempt_url).text,
             client.get(f"/sets/{slug}/print").text, client.get("/sets").text]
    client.post(f"{attempt_url}/finish", data={"csrf_token": csrf_token(pages[2])})
    pages.append(client.get(attempt_url).text)
    for html in pages:
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    # Each refused field says why next to it, and the first one in error takes the focus.
    assert re.search(r'aria-describedby="count-help count-error-1"[^>]*aria-invalid="true"'
                     r'[^>]*autofocus', bad.text)
    assert 'id="count-error-1">The number of items must be between 1 and 100' in bad.text
    assert 'id="seed-error-1">The seed must be a whole number' in bad.text
