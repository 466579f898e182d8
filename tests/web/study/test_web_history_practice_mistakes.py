""""My mistakes" (History, wrong answers only) lists wrong practice answers beside wrong
reviews, newest first and paged together, each marked practice and linked to its answer page;
the full review history stays reviews only."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select
from webtest_support import csrf_token, rate_current, reach_first_skill, register, study_token

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import PracticeAttempt, User
from quizapp.services.reviews import HISTORY_PER_PAGE
from quizapp.web.rendering.filters import format_answer

MISTAKES = "/study/history?result=wrong"


def wrong_answer(puzzle: puzzles.Puzzle) -> str:
    return next(candidate for candidate in ("(999, 998)", "12345", "no", "yes", "Z", "A", "B")
                if puzzles.check(puzzle, candidate)["error"] is None
                and not puzzles.check(puzzle, candidate)["correct"])


def practise(client, seeds, right: bool) -> str:
    """Answer one practice puzzle, right or wrong; the address of the kept answer."""
    page = client.get("/practice/puzzle?family=fresh_strides&level=junior").text
    family, level = re.search(r'data-item-key="practice:([^"/]+)/([^"]+)"', page).groups()
    puzzle = puzzles.deal(family, level, seeds.given[-1])
    answer = format_answer(puzzle.answer, puzzle.answer_kind) if right else wrong_answer(puzzle)
    sent = client.post("/practice/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": answer})
    assert sent.status_code == 303, sent.text
    return sent.headers["Location"].split("?")[0]


def test_wrong_practice_answers_are_listed_as_practice_with_their_page(app, client, skill_bank,
                                                                       clock, seeds):
    register(client, "pia")
    page = reach_first_skill(client)
    family, level = re.search(r'data-item-key="([^"/]+)/([^"]+)"', page).groups()
    wrong = wrong_answer(puzzles.deal(family, level, seeds.given[-1]))
    assert rate_current(client, 1, page, answer=wrong).status_code == 303
    clock.advance(minutes=1)
    missed = practise(client, seeds, right=False)
    clock.advance(minutes=1)
    practise(client, seeds, right=True)  # a right practice answer is no mistake

    history = client.get(MISTAKES).text
    assert "Wrong answers 1–2 of 2" in history and history.count("✗ wrong") == 2
    attempt_id = int(missed.rsplit("/", 1)[1])
    row = re.search(rf'<tr data-practice-id="{attempt_id}".*?</tr>', history, re.S).group(0)
    assert f'href="{missed}"' in row and '<span class="badge">practice</span>' in row
    assert "not rated" in row and "not scheduled" in row
    # Newest first: the practice miss (a minute later) comes before the review.
    assert history.index("data-practice-id") < history.index("data-review-id")
    assert "marked “practice”" in history
    assert client.get(missed).status_code == 200
    # Every review: reviews only, practice stays on its own pages.
    assert "data-practice-id" not in client.get("/study/history").text


def test_mistakes_page_across_reviews_and_practice(app, client, skill_bank, clock, seeds):
    register(client, "pia")
    page = reach_first_skill(client)
    family, level = re.search(r'data-item-key="([^"/]+)/([^"]+)"', page).groups()
    wrong = wrong_answer(puzzles.deal(family, level, seeds.given[-1]))
    assert rate_current(client, 1, page, answer=wrong).status_code == 303
    register(app.test_client(), "tess")
    with app.app_context():
        pia = db.session.scalar(select(User.id).where(User.username == "pia"))
        tess = db.session.scalar(select(User.id).where(User.username == "tess"))
        # One page of practice misses after the review, and one more before it.
        for index in range(HISTORY_PER_PAGE):
            db.session.add(PracticeAttempt(
                user_id=pia, family="fresh_strides", level="junior", seed=100 + index,
                answer="(1,)", correct=False, answered_at=clock() + timedelta(hours=1 + index)))
        db.session.add(PracticeAttempt(user_id=pia, family="fresh_strides", level="junior",
                                       seed=7, answer="(1,)", correct=False,
                                       answered_at=clock() - timedelta(hours=1)))
        db.session.add(PracticeAttempt(user_id=tess, family="fresh_strides",
                                       level="junior", seed=8, answer="(1,)", correct=False,
                                       answered_at=clock()))
        db.session.commit()
    first = client.get(MISTAKES).text
    total = HISTORY_PER_PAGE + 2
    assert f"Wrong answers 1–{HISTORY_PER_PAGE} of {total}" in first
    assert "data-review-id" not in first and first.count("data-practice-id") == HISTORY_PER_PAGE
    second = client.get(MISTAKES + "&page=2").text
    assert f"Wrong answers {HISTORY_PER_PAGE + 1}–{total} of {total}" in second
    assert second.index("data-review-id") < second.index("data-practice-id")
    assert second.count("data-practice-id") == 1
