"""A puzzle in the review history opens again: what was asked, the answer given, the solution,
dealt from the logged seed; never another user's, and honest when the puzzle has changed."""

from __future__ import annotations

import re

from markupsafe import escape
from sqlalchemy import select, update
from webtest_support import csrf_token, rate_current, reach_first_skill, register, study_token

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.markup.markdown import render_markdown_inline
from quizapp.models import Review, Skill
from quizapp.services.reviewed_puzzles import NOT_A_PUZZLE
from quizapp.web.rendering.filters import format_answer

PUZZLE_LINK = re.compile(r'<a href="(/study/history/(\d+))" title="See this puzzle again')


def answer_first_puzzle_wrong(client, seeds) -> tuple[dict, str]:
    """Study to the first puzzle, answer it wrong and rate it Again; the puzzle and the answer."""
    page = reach_first_skill(client)
    family, level = re.search(r'data-item-key="([^"]+)"', page).group(1).split("/")
    puzzle = puzzles.generate(family, level, seeds.given[-1])
    wrong = next(candidate for candidate in ("(999, 998)", "12345", "no", "yes", "Z", "A", "B")
                 if puzzles.check(puzzle, candidate)["error"] is None
                 and not puzzles.check(puzzle, candidate)["correct"])
    result = client.post("/study/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": wrong,
        "hints_used": "0"})
    assert 'data-verdict="wrong"' in result.text
    assert rate_current(client, 1, result.text, answer=wrong).status_code == 303
    return puzzle, wrong


def test_a_puzzle_in_the_history_opens_with_the_answer_given_and_the_solution(
        client, skill_bank, seeds):
    register(client, "pat")
    puzzle, wrong = answer_first_puzzle_wrong(client, seeds)
    history = client.get("/study/history").text
    links = PUZZLE_LINK.findall(history)
    assert len(links) == 1  # the puzzle's row only: the cards rated before it link to their pages
    page = client.get(links[0][0])
    assert page.status_code == 200
    text = page.text
    assert f"<dt>You answered</dt><dd><code>{escape(wrong)}</code></dd>" in text
    solution = escape(format_answer(puzzle["answer"], puzzle["answer_kind"]))
    assert f"<dt>Answer</dt><dd><code>{solution}</code></dd>" in text
    assert "✗ wrong" in text and 'class="rating-chip rate-1">Again<' in text
    assert "<summary>Why</summary>" in text and "has changed since" not in text
    # The checker's words, as rendered, less what the worked steps below already say.
    feedback = puzzles.omit_said(puzzles.check(puzzle, wrong)["feedback"], puzzle["explanation"])
    if feedback:
        assert f'<p class="verdict-note">{render_markdown_inline(feedback)}</p>' in text
    else:
        assert 'class="verdict-note"' not in text
    assert 'name="rating"' not in text and "<form" not in text.split("<main", 1)[1].split(
        "</main>")[0]  # a look back: nothing to rate or answer here


def test_only_your_own_puzzle_reviews_open_and_bad_ids_are_404s(app, client, skill_bank, seeds):
    register(client, "pat")
    answer_first_puzzle_wrong(client, seeds)
    with app.app_context():
        puzzle_id = db.session.scalar(select(Review.id).where(Review.puzzle_seed.is_not(None)))
        card_id = db.session.scalar(select(Review.id).where(Review.puzzle_seed.is_(None)))
    assert client.get(f"/study/history/{puzzle_id}").status_code == 200
    for review_id in (card_id, puzzle_id + 1000, 2**31 - 1):
        response = client.get(f"/study/history/{review_id}")
        assert response.status_code == 404, review_id
        assert escape(NOT_A_PUZZLE) in response.text
    assert client.get(f"/study/history/{2**31}").status_code == 404  # past the column: no 500
    other = app.test_client()
    register(other, "sam")
    response = other.get(f"/study/history/{puzzle_id}")
    assert response.status_code == 404 and escape(NOT_A_PUZZLE) in response.text
    visitor = app.test_client()
    response = visitor.get(f"/study/history/{puzzle_id}")
    assert response.status_code == 302 and response.headers["Location"].startswith("/login")


def test_a_puzzle_judged_otherwise_now_says_it_has_changed(app, client, skill_bank, seeds):
    register(client, "pat")
    answer_first_puzzle_wrong(client, seeds)
    with app.app_context():  # as if the code had changed: the logged verdict no longer matches
        db.session.execute(update(Review).where(Review.puzzle_seed.is_not(None))
                           .values(correct=True))
        db.session.commit()
    link = PUZZLE_LINK.search(client.get("/study/history").text).group(1)
    text = client.get(link).text
    assert "the puzzle has changed since, so it may not be the one you were asked" in text


def test_a_puzzle_the_running_code_cannot_make_says_so(app, client, skill_bank, seeds):
    register(client, "pat")
    _, wrong = answer_first_puzzle_wrong(client, seeds)
    with app.app_context():
        skill_id = db.session.scalar(select(Review.item_id).where(Review.puzzle_seed.is_not(None)))
        db.session.execute(update(Skill).where(Skill.item_id == skill_id)
                           .values(family="a-family-no-longer-made"))
        db.session.commit()
    link = PUZZLE_LINK.search(client.get("/study/history").text).group(1)
    page = client.get(link)
    assert page.status_code == 200
    assert "This puzzle cannot be dealt again" in page.text
    assert f"<code>{escape(wrong)}</code>" in page.text
