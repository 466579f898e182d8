"""/practice and "My mistakes": puzzles outside the schedule (no review, state or queue moves),
answers kept once, hints, bad input refused in words, and the mistakes practised anew."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select
from webtest_support import (
    PASSWORD,
    csrf_token,
    rate_current,
    reach_first_skill,
    register,
    shown_key,
    study_token,
)

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import PracticeAttempt, QueuedItem, Review, ReviewState, User
from quizapp.services.practice import NO_MISTAKES
from quizapp.web.practice.forms import DAMAGED
from quizapp.web.rendering.filters import format_answer

WRONG = "(999, 998)"


def wrong_answer(puzzle: puzzles.Puzzle) -> str:
    """An answer the checker reads and judges wrong, whatever the puzzle's kind."""
    return next(candidate for candidate in (WRONG, "12345", "no", "yes", "Z", "A", "B")
                if puzzles.check(puzzle, candidate)["error"] is None
                and not puzzles.check(puzzle, candidate)["correct"])


def deal(client, query: str = "family=fresh_strides&level=junior"):
    page = client.get(f"/practice/puzzle?{query}")
    assert page.status_code == 200, page.text
    return page.text


def dealt_puzzle(page: str, seeds) -> puzzles.Puzzle:
    family, level = re.search(r'data-item-key="practice:([^"/]+)/([^"]+)"', page).groups()
    return puzzles.deal(family, level, seeds.given[-1])


def send(client, page: str, answer: str, **fields):
    return client.post("/practice/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": answer, **fields})


def schedule_of(app, username: str):
    """Everything a rating or the queue reads or writes for the user."""
    with app.app_context():
        user = db.session.scalar(select(User).where(User.username == username))
        states = [tuple(row) for row in db.session.execute(
            select(ReviewState.__table__).where(ReviewState.user_id == user.id)
            .order_by(ReviewState.id))]
        reviews = [tuple(row) for row in db.session.execute(
            select(Review.__table__).where(Review.user_id == user.id).order_by(Review.id))]
        queued = [tuple(row) for row in db.session.execute(select(QueuedItem.__table__))]
        return states, reviews, queued, (user.undo_count, user.last_undo_item_id)


def test_practice_moves_no_schedule_and_keeps_each_answer_once(app, client, skill_bank, seeds):
    register(client, "pia")
    for rating in (4, 3, 1):  # some states to leave alone
        rate_current(client, rating)
    before = schedule_of(app, "pia")
    head = shown_key(client.get("/study").text)

    page = deal(client)
    assert "nothing here is rated or scheduled" in page
    puzzle = dealt_puzzle(page, seeds)
    hinted = send(client, page, "", hint="1", hints_used="0")  # a hint without JavaScript
    assert hinted.status_code == 200 and 'id="hint-1" open' not in page
    assert re.search(r'data-hint open data-seen="1" id="hint-1"', hinted.text)
    right = format_answer(puzzle.answer, puzzle.answer_kind)
    sent = send(client, page, right, hints_used="1")
    assert sent.status_code == 303
    result = client.get(sent.headers["Location"]).text
    assert 'data-verdict="correct"' in result and "You opened 1 hint." in result
    assert puzzle.explanation.split()[0] in result  # the worked solution
    assert puzzle.traced and "Pictures of memory" in result  # with its pictures (shared macro)
    again = send(client, page, wrong_answer(puzzle))  # the same page sent again: the first answer stands
    assert again.headers["Location"] == sent.headers["Location"]

    wrong_page = deal(client, "level=middle")
    assert dealt_puzzle(wrong_page, seeds).level == "middle"
    wrong = send(client, wrong_page, wrong_answer(dealt_puzzle(wrong_page, seeds)),
                 level="middle")
    assert wrong.status_code == 303 and "level=middle" in wrong.headers["Location"]
    shown = client.get(wrong.headers["Location"]).text
    assert 'data-verdict="wrong"' in shown and 'href="/practice/puzzle?level=middle"' in shown

    assert schedule_of(app, "pia") == before
    assert shown_key(client.get("/study").text) == head
    with app.app_context():
        kept = db.session.execute(select(PracticeAttempt.level, PracticeAttempt.correct,
                                         PracticeAttempt.hints_used)
                                  .order_by(PracticeAttempt.id)).all()
    assert [tuple(row) for row in kept] == [("junior", True, 1), ("middle", False, 0)]


def test_practice_needs_a_login(client, skill_bank):
    for url in ("/practice", "/practice/puzzle", "/practice/answers/1",
                "/study/history?result=wrong"):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"], url


@pytest.mark.parametrize(("query", "message"), [
    ("level=wizard", "There is no level called “wizard”."),
    ("family=no_such_family", "There is no puzzle family called “no_such_family”."),
    ("family=fresh_strides&level=principal", "No puzzle family has puzzles at the levels"),
    ("mistakes=1", NO_MISTAKES),
    ("level=" + "&level=".join(["junior"] * 41), "too many levels or families"),
])
def test_a_bad_choice_is_refused_in_words(client, skill_bank, query, message):
    register(client, "pia")
    response = client.get(f"/practice/puzzle?{query}")
    assert response.status_code == 400
    assert message in response.text.replace("&#8220;", "“").replace("&#8221;", "”")


def test_damaged_and_unreadable_answers_keep_nothing(app, client, skill_bank, seeds):
    register(client, "pia")
    page = deal(client)
    damaged = send(client, page.replace(study_token(page), study_token(page)[:-3] + "xyz"), "3")
    assert damaged.status_code == 400 and DAMAGED.split(":")[0] in damaged.text
    too_long = send(client, page, "1" * 5000)
    assert too_long.status_code == 400 and "An answer is at most" in too_long.text
    empty = send(client, page, "  ")
    assert empty.status_code == 400 and "first." in empty.text
    unreadable = send(client, page, "hello")
    assert unreadable.status_code == 422 and 'id="answer-error"' in unreadable.text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PracticeAttempt)) == 0


def test_another_users_answer_is_not_found(app, client, skill_bank, seeds):
    register(client, "pia")
    page = deal(client)
    location = send(client, page, wrong_answer(dealt_puzzle(page, seeds))).headers["Location"]
    token = study_token(page)
    client.post("/logout", data={"csrf_token": csrf_token(page)})
    register(client, "quin")
    assert client.get(location).status_code == 404
    assert client.get("/practice/answers/999999").status_code == 404
    stolen = client.post("/practice/answer", data={
        "csrf_token": csrf_token(client.get("/practice").text), "token": token, "answer": "3"})
    assert stolen.status_code == 400


def answer_puzzles_wrong(client, seeds, count: int) -> list[str]:
    """Study to the first puzzle skill and answer it wrong (rated Again), ``count`` times."""
    keys = []
    for _ in range(count):
        page = reach_first_skill(client)
        keys.append(shown_key(page))
        family, level = keys[-1].split("/")
        wrong = wrong_answer(puzzles.deal(family, level, seeds.given[-1]))
        assert rate_current(client, 1, page, answer=wrong).status_code == 303
    return keys


def test_my_mistakes_lists_wrong_answers_and_practises_those_skills(app, client, skill_bank,
                                                                    clock, seeds):
    register(client, "pia")
    missed = answer_puzzles_wrong(client, seeds, 1)[0]
    rate_current(client, 4)  # a card: not a wrong answer
    history = client.get("/study/history?result=wrong").text
    assert "My mistakes" in history and "Wrong answers 1–1 of 1" in history
    assert history.count("✗ wrong") == 1 and "self-graded" not in history
    assert "self-graded" in client.get("/study/history").text
    assert 'href="/practice/puzzle?mistakes=1"' in history
    assert client.get("/study/history?result=maybe").status_code == 400

    with app.app_context():
        reviewed_seeds = set(db.session.scalars(select(Review.puzzle_seed)))
    for _ in range(3):
        page = deal(client, "mistakes=1")
        assert re.search(r'data-item-key="practice:([^"]+)"', page).group(1) == missed
        assert seeds.given[-1] not in reviewed_seeds  # a fresh puzzle, not the one missed
        assert "of your mistakes" in page
    assert "Practise my mistakes" in client.get("/practice").text


def test_deleting_the_account_takes_its_practice_answers_along(app, client, skill_bank, seeds):
    register(client, "pia")
    page = deal(client)
    assert send(client, page, wrong_answer(dealt_puzzle(page, seeds))).status_code == 303
    settings = client.get("/settings").text
    gone = client.post("/settings/delete-account", data={
        "csrf_token": csrf_token(settings), "password": PASSWORD, "confirm_username": "pia"})
    assert gone.status_code in (302, 303), gone.text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PracticeAttempt)) == 0
