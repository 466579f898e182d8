"""What assistive technology reads: errors tied to their fields, headings, page titles, the
current page in the navigation, one element per id."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from webtest_support import (
    READABLE,
    csrf_token,
    post_settings,
    rate_current,
    reach_first_skill,
    register,
    study_token,
)

from quizapp.web.rendering.filters import format_spoken_interval

# A well-formed answer of each kind (right or wrong does not matter): it is judged, not refused.


def answer_puzzle(client, page: str, answer: str):
    return client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": answer,
        "hints_used": "0"})


def element_ids(html: str) -> Counter:
    return Counter(re.findall(r'\sid="([^"]+)"', html))


def input_tag(html: str, field_id: str) -> str:
    match = re.search(rf'<(?:input|select)[^>]*\sid="{field_id}"[^>]*>', html)
    assert match, field_id
    return match.group(0)


def test_settings_errors_are_tied_to_their_fields_and_the_first_takes_the_focus(client, bank):
    register(client, "sam")
    response = post_settings(client, desired_retention="5", new_per_day="-1")
    assert response.status_code == 400
    html = response.text
    retention, new = input_tag(html, "desired_retention"), input_tag(html, "new_per_day")
    for tag, field_id in ((retention, "desired_retention"), (new, "new_per_day")):
        assert 'aria-invalid="true"' in tag
        described = re.search(r'aria-describedby="([^"]+)"', tag).group(1).split()
        assert described == [f"{field_id}-help", f"{field_id}-error-1"]
        for target in described:
            assert f'id="{target}"' in html
    assert "autofocus" in retention and "autofocus" not in new  # only the first in error
    untouched = input_tag(html, "reviews_per_day")
    assert "aria-invalid" not in untouched and "autofocus" not in untouched
    assert re.search(r'aria-describedby="reviews_per_day-help"', untouched)


def test_a_register_error_without_a_hint_is_still_tied_to_its_field(client, bank):
    page = client.get("/register").text
    response = client.post("/register", data={
        "csrf_token": csrf_token(page), "username": "newcomer", "password": "long enough 1",
        "confirm": "something else"})
    assert response.status_code == 400
    tag = input_tag(response.text, "confirm")
    assert 'aria-invalid="true"' in tag and 'aria-describedby="confirm-error-1"' in tag
    assert 'id="confirm-error-1">The two passwords differ.' in response.text


def test_a_puzzle_answer_that_cannot_be_read_is_tied_to_the_answer_box(client, skill_bank):
    register(client, "sam")
    page = reach_first_skill(client)
    response = answer_puzzle(client, page, "zzz")
    assert response.status_code == 422
    tag = input_tag(response.text, "answer")
    assert 'aria-invalid="true"' in tag and 'aria-describedby="answer-error"' in tag
    assert 'id="answer-error" role="alert"' in response.text
    assert re.search(r"<title>Check your answer: Puzzle: [^<]+ · Study · quizapp</title>",
                     response.text)


def test_study_pages_have_headings_and_titles_of_their_own(client, skill_bank):
    register(client, "sam")
    card = client.get("/study").text
    assert re.search(r"<title>[^<]+ · Study · quizapp</title>", card)
    assert "<title>Study · quizapp</title>" not in card
    puzzle = reach_first_skill(client)
    title = re.search(r'<h1 class="puzzle-title">([^<]+)</h1>', puzzle)
    assert title, "the puzzle page has no h1"
    assert f"<title>Puzzle: {title.group(1)} · Study · quizapp</title>" in puzzle
    kind = re.search(r'data-answer-kind="(\w+)"', puzzle).group(1)
    answered = answer_puzzle(client, puzzle, READABLE[kind])
    assert answered.status_code == 200, kind  # judged (right or wrong): the verdict page
    assert re.search(r'<h2 class="verdict-title">(Correct|Not quite)</h2>', answered.text)
    assert re.search(rf"<title>(Correct|Not quite): {re.escape(title.group(1))} · Study",
                     answered.text)


@pytest.mark.parametrize("path, current", [("/study", "Study"), ("/study/history", "History"),
                                           ("/study/stats", "Stats"), ("/settings", "Settings"),
                                           ("/questions", "Questions"),
                                           ("/study/history?result=wrong", "History"),
                                           ("/progress", "Progress"), ("/practice", "Practice"),
                                           ("/practice/puzzle", "Practice")])
def test_the_navigation_marks_exactly_the_current_page(client, bank, path, current):
    register(client, "sam")
    html = client.get(path).text
    marked = re.findall(r'aria-current="page">([^<]+)</a>', html)
    assert marked == [current]


@pytest.mark.parametrize("path", ["/study", "/settings", "/study/history", "/study/stats"])
def test_no_id_is_used_twice_on_a_page(client, bank, path):
    register(client, "sam")
    rate_current(client, 3)  # so the study page has its Undo form too
    repeated = [name for name, count in element_ids(client.get(path).text).items() if count > 1]
    assert repeated == []


@pytest.mark.parametrize("label, spoken", [
    ("1m", "1 minute"), ("10m", "10 minutes"), ("45s", "45 seconds"), ("1h", "1 hour"),
    ("1d", "1 day"), ("8d", "8 days"), ("1mo", "1 month"), ("2.1mo", "2.1 months"),
    ("1.3y", "1.3 years"), ("1y", "1 year"), ("soon", "soon"), ("", "")])
def test_interval_labels_are_read_out_in_words(label, spoken):
    assert format_spoken_interval(label) == spoken


@pytest.mark.parametrize("form, focused", [
    ({"username": "newcomer", "password": "short", "confirm": "short"}, "password"),
    ({"username": "ab", "password": "short", "confirm": "short"}, "username"),
    ({"username": "newcomer", "password": "long enough 1", "confirm": "other"}, "confirm"),
])
def test_exactly_one_field_has_the_focus_after_a_refused_registration(client, bank, form,
                                                                        focused):
    page = client.get("/register").text
    assert re.findall(r'<input[^>]*\bautofocus\b[^>]*\bid="(\w+)"', page) == ["username"]
    response = client.post("/register", data={"csrf_token": csrf_token(page), **form})
    assert response.status_code == 400
    assert re.findall(r'<input[^>]*\bautofocus\b[^>]*\bid="(\w+)"', response.text) == [focused]


@pytest.mark.parametrize("field", ["desired_retention", "new_per_day", "reviews_per_day"])
def test_a_number_that_cannot_be_read_gets_one_message_not_two(client, bank, field):
    register(client, "sam")
    response = post_settings(client, **{field: "lots"})
    assert response.status_code == 400
    errors = re.findall(rf'id="{field}-error-\d+">([^<]+)<', response.text)
    assert len(errors) == 1 and errors[0].startswith("Use a "), errors
