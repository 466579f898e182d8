"""A puzzle's options as controls on the study page: picked without typing (and without
JavaScript), judged and logged as the typed letters would be; picks that disagree with the box
are asked about, and nothing is stored until a rating."""

from __future__ import annotations

import re

import pytest
from markupsafe import escape
from sqlalchemy import select
from webtest_support import (
    concepts_for,
    make_card,
    rate_current,
    reach_first_skill,
    register,
    study_token,
)

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import Review
from quizapp.puzzles.picking import NONE_PICK
from quizapp.services.bank_import import load_bank
from quizapp.web.study.tokens import DAMAGED

PICK_RE = re.compile(r'<input type="(radio|checkbox)" name="pick" value="([^"]+)"( checked)?>')
ONE_SKILL = {"choice": ("storage_index", "junior"), "bool": ("contiguous_after", "junior"),
             "choices": ("viewable_shapes", "principal"), "int": ("storage_index", "middle")}


def load_one_skill(app, clock, family: str, level: str) -> None:
    """A bank of one card and one skill (a bank needs a card), so the skill comes first or second."""
    spec = {**next(f for f in puzzles.families() if f["id"] == family), "levels": [level]}
    cards = [make_card("only-card")]
    with app.app_context():
        load_bank(db.session, cards, concepts_for(cards, [spec]), [spec], clock())


@pytest.fixture
def first_puzzle(app, client, clock, seeds, request):
    """(study page, puzzle) for a new user of a bank holding the one skill named by the test."""
    family, level = ONE_SKILL[request.param]
    load_one_skill(app, clock, family, level)
    register(client, "pat")
    page = reach_first_skill(client)
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    assert puzzle["answer_kind"] == request.param
    return page, puzzle


def answer(client, page: str, typed: str = "", picks: tuple[str, ...] = (), **extra: str):
    """The answer form as a browser sends it (GET), with no script to copy a pick into the box."""
    query = [("token", study_token(page)), ("hints_used", "0"), ("answer", typed)]
    query += [("pick", pick) for pick in picks]
    return client.get("/study/answer", query_string=query + list(extra.items()))


def stored_reviews(app) -> list[tuple[str, str | None, bool | None]]:
    """(item kind, answer, correct) of every review stored, oldest first."""
    with app.app_context():
        return [(review.item.kind, review.answer, review.correct)
                for review in db.session.scalars(select(Review).order_by(Review.id))]


@pytest.mark.parametrize("first_puzzle", ["choice"], indirect=True)
def test_a_choice_puzzle_offers_its_options_as_radio_buttons(client, first_puzzle) -> None:
    page, puzzle = first_puzzle
    offered = PICK_RE.findall(page)
    assert [(kind, value) for kind, value, _ in offered] == [
        ("radio", letter) for letter in "ABCD"[: len(puzzle["choices"])]]
    for letter, option in zip("ABCD", puzzle["choices"], strict=False):
        assert f'<span class="visually-hidden">{letter}. </span>{option}</span>' in page
    assert '<ol class="choices"' not in page  # listed once, as the controls
    assert not re.search(r'<input[^>]*name="answer"[^>]*required', page)  # a pick is enough
    assert "Or type it" in page


@pytest.mark.parametrize("first_puzzle", ["int"], indirect=True)
def test_a_typed_puzzle_has_no_options_to_pick(client, first_puzzle) -> None:
    page, _ = first_puzzle
    assert not PICK_RE.search(page) and "Or type it" not in page
    assert re.search(r'<input[^>]*name="answer"[^>]*required', page)
    refused = answer(client, page, "", ("A",))
    assert refused.status_code == 422 and "no options to pick" in refused.text


@pytest.mark.parametrize("first_puzzle", ["choice"], indirect=True)
def test_each_pick_alone_is_judged_as_its_letter_and_logged_when_rated(app, client,
                                                                      first_puzzle) -> None:
    page, puzzle = first_puzzle
    before = len(stored_reviews(app))  # the card's rating, if the card came first
    for letter in "ABCD"[: len(puzzle["choices"])]:
        result = answer(client, page, "", (letter,))
        assert result.status_code == 200
        expected = puzzles.check(puzzle, letter)["correct"]
        assert ('data-verdict="correct"' in result.text) == expected, letter
        assert f"<dt>You answered</dt><dd><code>{letter}</code></dd>" in result.text
    assert len(stored_reviews(app)) == before  # checking writes nothing
    wrong = next(c for c in "ABCD" if c.lower() != puzzle["answer"])
    result = answer(client, page, "", (wrong,))
    assert rate_current(client, 1, result.text, answer=wrong).status_code == 303
    assert stored_reviews(app)[-1] == ("skill", wrong, False)


@pytest.mark.parametrize("first_puzzle", ["bool"], indirect=True)
def test_yes_and_no_are_buttons_too(client, first_puzzle) -> None:
    page, puzzle = first_puzzle
    assert [value for _, value, _ in PICK_RE.findall(page)] == ["yes", "no"]
    right = "yes" if puzzle["answer"] else "no"
    assert 'data-verdict="correct"' in answer(client, page, "", (right,)).text
    wrong = "no" if puzzle["answer"] else "yes"
    assert 'data-verdict="wrong"' in answer(client, page, "", (wrong,)).text
    both = answer(client, page, "", ("yes", "no"))
    assert both.status_code == 422 and "Pick one option only" in both.text


@pytest.mark.parametrize("first_puzzle", ["choices"], indirect=True)
def test_ticked_boxes_are_one_answer_and_none_of_them_is_a_box(client, first_puzzle) -> None:
    page, puzzle = first_puzzle
    offered = [(kind, value) for kind, value, _ in PICK_RE.findall(page)]
    letters = [value for kind, value in offered if value != NONE_PICK]
    assert offered == [("checkbox", v) for v in letters] + [("checkbox", NONE_PICK)]
    right = [letter.upper() for letter in puzzle["answer"]] or [NONE_PICK]
    result = answer(client, page, "", tuple(reversed(right)))
    assert 'data-verdict="correct"' in result.text
    assert f"<dd><code>{', '.join(right)}</code></dd>" in result.text
    mixed = answer(client, page, "", (letters[0], NONE_PICK))
    assert mixed.status_code == 422 and "cannot go with another option" in mixed.text


@pytest.mark.parametrize("first_puzzle", ["choice"], indirect=True)
def test_a_pick_and_a_different_typed_answer_are_asked_about_and_both_kept(app, client,
                                                                          first_puzzle) -> None:
    page, _ = first_puzzle
    response = answer(client, page, "c", ("A",))
    assert response.status_code == 422
    assert "You picked A but typed “c”: clear the box, or pick what you typed." in response.text
    assert 'value="A" checked>' in response.text and 'value="c"' in response.text
    assert 'name="token" type="hidden" value="' + study_token(page) in response.text  # same puzzle
    agreeing = answer(client, page, "a", ("A",))  # what the page's script sends: pick and box
    assert agreeing.status_code == 200 and "<dd><code>a</code></dd>" in agreeing.text
    assert all(kind == "card" for kind, _, _ in stored_reviews(app))


@pytest.mark.parametrize("first_puzzle", ["choice"], indirect=True)
def test_nothing_picked_or_typed_asks_for_either_and_damaged_picks_are_refused(
        client, first_puzzle) -> None:
    page, _ = first_puzzle
    empty = answer(client, page, "  ")
    assert empty.status_code == 400 and "Pick an option, or type the answer, first." in empty.text
    assert answer(client, page, "", ("Z",)).status_code == 422
    for damaged in (("A",) * 9, ("A" * 11,)):
        response = answer(client, page, "", damaged)
        assert response.status_code == 400 and DAMAGED in response.text


@pytest.mark.parametrize("first_puzzle", ["choice"], indirect=True)
@pytest.mark.parametrize(("typed", "picks"), [("c", ("A",)), ("  ", ())])
def test_a_refused_answer_puts_the_focus_on_the_box_in_error(client, first_puzzle, typed,
                                                           picks) -> None:
    """Without JavaScript nothing else focuses it: the page opened at its top, the error
    below the options, and a keyboard user tabbed past the menu and every option to reach it."""
    page, _ = first_puzzle
    assert 'autofocus' not in page  # a fresh puzzle with options: a tap screen keeps its keyboard
    refused = answer(client, page, typed, picks)
    assert refused.status_code in (400, 422)
    box = re.search(r'<input[^>]*\bid="answer"[^>]*>', refused.text).group(0)
    assert " autofocus " in box and 'aria-invalid="true"' in box, box


@pytest.mark.parametrize("first_puzzle", ["int"], indirect=True)
def test_a_wrong_answer_is_not_sent_to_hints_the_result_does_not_show(client,
                                                                     first_puzzle) -> None:
    """A wrong answer with no feedback of its own got "Try the hints", on a result page (and
    a history entry) that shows no hint: it points to the explanation shown below instead."""
    page, puzzle = first_puzzle
    result = answer(client, page, str(puzzle["answer"] + 50))  # not off by one: no own note
    assert result.status_code == 200 and 'data-verdict="wrong"' in result.text
    assert "data-hint" not in result.text  # the hints stay on the question's page
    verdict = re.search(r'<div class="verdict .*?</div>', result.text, re.S).group(0)
    assert "hint" not in verdict.lower(), verdict
    assert "<summary>Why</summary>" in result.text and "below" in verdict


@pytest.mark.parametrize("first_puzzle", ["choice"], indirect=True)
def test_the_result_marks_the_pick_and_the_answer_in_words(client, first_puzzle) -> None:
    page, puzzle = first_puzzle
    right = puzzle["answer"].upper()
    wrong = next(letter for letter in "ABCD"[: len(puzzle["choices"])] if letter != right)
    result = answer(client, page, "", (wrong,)).text
    items = re.findall(r"<li(?: class=\"([^\"]*)\")?><span class=\"choice-text\">.*?</li>", result,
                       re.S)
    assert len(items) == len(puzzle["choices"])
    marks = dict(zip("ABCD", items, strict=False))
    assert marks[right] == "choice-right" and marks[wrong].strip() == "choice-picked"
    assert all(not mark for letter, mark in marks.items() if letter not in (right, wrong))
    assert result.count('<span class="choice-flag">the answer</span>') == 1
    assert result.count('<span class="choice-flag">your pick</span>') == 1
    both = answer(client, page, "", (right,)).text
    assert both.count('<span class="choice-flag">your pick, the answer</span>') == 1


def test_feedback_shows_its_code_as_code(app, client, clock, seeds) -> None:
    """Wrong-answer feedback names code in backticks (error_raised: "That is what
    `x.narrow(1, 5, 0)` does"), which the result page showed as typed."""
    load_one_skill(app, clock, "error_raised", "senior")
    register(client, "pat")
    page = reach_first_skill(client)
    puzzle = puzzles.generate("error_raised", "senior", seeds.given[-1])
    wrong, feedback = next((letter, puzzles.check(puzzle, letter)["feedback"])
                           for letter in "ABCD" if "`" in puzzles.check(puzzle, letter)["feedback"])
    verdict = re.search(r'<div class="verdict[^>]*>.*?</div>', answer(client, page, wrong).text,
                        re.S).group(0)
    assert "`" not in verdict
    # The verdict keeps what the worked steps do not say ("That is what `x.narrow(...)` does").
    said = puzzles.omit_said(feedback, puzzle["explanation"])
    assert "`" in said
    assert re.sub(r"`([^`]*)`", r"<code>\1</code>", str(escape(said))) in verdict
