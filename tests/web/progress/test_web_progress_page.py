"""/progress: every figure checked against a plain computation from the review log and the
practice answers, the page's charts and tables, and the few queries it takes."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from fsrs import Card, Scheduler
from sqlalchemy import select, update
from webtest_support import (
    csrf_token,
    executed_statements,
    rate_current,
    register,
    shown_key,
    study_token,
)

from quizapp import puzzles
from quizapp.extensions import db
from quizapp.models import Item, ItemConcept, PracticeAttempt, Review, Skill, User
from quizapp.services.progress import compute_progress
from quizapp.web.rendering.filters import format_answer

ZONE = "America/New_York"
EASY, GOOD, AGAIN = 4, 3, 1


def user_named(name: str) -> User:
    return db.session.scalar(select(User).where(User.username == name))


def right_answer(page: str, seeds) -> str:
    family, level = shown_key(page).split("/")
    puzzle = puzzles.deal(family, level, seeds.given[-1])
    return format_answer(puzzle.answer, puzzle.answer_kind)


def study_some(client, seeds, ratings) -> None:
    """Rate whatever the queue shows with each rating; a puzzle is answered right when rated
    above Again and with a wrong answer when rated Again."""
    for rating in ratings:
        page = client.get("/study").text
        fields = {}
        if 'data-item-kind="skill"' in page:
            fields["answer"] = right_answer(page, seeds) if rating > AGAIN else "(999, 998)"
        assert rate_current(client, rating, page, **fields).status_code == 303


def practise(client, seeds, family: str, level: str, right: bool) -> None:
    page = client.get(f"/practice/puzzle?family={family}&level={level}").text
    puzzle = puzzles.deal(family, level, seeds.given[-1])
    answer = format_answer(puzzle.answer, puzzle.answer_kind) if right else "(999, 998)"
    sent = client.post("/practice/answer", data={
        "csrf_token": csrf_token(page), "token": study_token(page), "answer": answer,
        "family": family, "level": level})
    assert sent.status_code == 303, sent.text


def study_date(moment: datetime) -> date:
    return (moment.astimezone(ZoneInfo(ZONE)).replace(tzinfo=None) - timedelta(hours=4)).date()


def expected_figures(user_id: int, now: datetime):
    """The figures the plain way: a loop over the review log, the items and the practice
    answers, with fsrs's own retrievability at the study days since each last review."""
    reviews = list(db.session.scalars(select(Review).where(Review.user_id == user_id)
                                      .order_by(Review.id)))
    last = {review.item_id: review for review in reviews}
    items = list(db.session.scalars(select(Item).where(Item.retired.is_(False))))
    tags = {}
    for link in db.session.scalars(select(ItemConcept)):
        tags.setdefault(link.item_id, []).append(link.concept)
    scheduler = Scheduler()
    concepts: dict[str, list] = {}
    levels: dict[str, list] = {}
    for item in items:
        recall = None
        review = last.get(item.id)
        if review is not None and review.state_after["state"] == 2:  # fsrs State.Review
            card = Card.from_dict(review.state_after)
            days = (study_date(now) - study_date(review.reviewed_at)).days
            card.last_review = now - timedelta(days=days)
            recall = scheduler.get_card_retrievability(card, now)
        for name in tags.get(item.id, []):
            concepts.setdefault(name, []).append(recall)
        levels.setdefault(item.level, []).append(recall)
    families = {skill.id: skill.family for skill in db.session.scalars(select(Skill))}
    accuracy: dict[str, list[bool]] = {}
    for review in reviews:
        if review.correct is not None and now - review.reviewed_at < timedelta(days=30):
            accuracy.setdefault(families[review.item_id], []).append(review.correct)
    for attempt in db.session.scalars(select(PracticeAttempt)
                                      .where(PracticeAttempt.user_id == user_id)):
        accuracy.setdefault(attempt.family, []).append(attempt.correct)
    per_day: dict[date, int] = {}
    for review in reviews:
        per_day[study_date(review.reviewed_at)] = per_day.get(study_date(review.reviewed_at), 0) + 1
    day, streak = study_date(now), 0
    if not per_day.get(day):
        day -= timedelta(days=1)
    while per_day.get(day):
        streak, day = streak + 1, day - timedelta(days=1)
    return concepts, levels, accuracy, per_day, streak


def summarise(groups: dict[str, list]) -> dict[str, tuple]:
    out = {}
    for name, recalls in groups.items():
        known = [r for r in recalls if r is not None]
        out[name] = (len(recalls), len(known), round(sum(known) / len(known), 9) if known else None)
    return out


def test_progress_figures_match_the_review_log(app, client, skill_bank, clock, seeds):
    register(client, "ada_l")
    with app.app_context():
        db.session.execute(update(User).where(User.username == "ada_l").values(time_zone=ZONE))
        db.session.commit()
    # Six study days with a gap on the fourth; times around New York's midnight and its
    # 04:00 turn (START is 09:00 UTC, 04:00 EST).
    for offset_hours, ratings in [(0, [EASY, EASY, GOOD]), (19, [EASY, AGAIN]),
                                  (24, [EASY, EASY]), (72, [GOOD, EASY, EASY]),
                                  (95.5, [EASY]), (96.5, [AGAIN, EASY])]:
        clock.now = datetime(2025, 3, 3, 9, 5, tzinfo=clock.now.tzinfo) + timedelta(
            hours=offset_hours)
        study_some(client, seeds, ratings)
    practise(client, seeds, "fresh_strides", "junior", right=True)
    practise(client, seeds, "fresh_strides", "junior", right=False)
    now = clock.advance(hours=2)
    with app.app_context():
        user = user_named("ada_l")
        with executed_statements(app) as statements:
            report = compute_progress(db.session, user, now)
        assert len(statements) <= 5
        concepts, levels, accuracy, per_day, streak = expected_figures(user.id, now)
    assert sum(1 for recalls in levels.values() for r in recalls if r is not None) >= 5
    got = {row.name: (row.items, row.in_review, None if row.recall is None
                      else round(row.recall, 9)) for row in report.concepts}
    assert got == summarise(concepts)
    assert {row.name: (row.items, row.in_review, None if row.recall is None
                       else round(row.recall, 9)) for row in report.levels} == summarise(levels)
    assert [row.name for row in report.levels] == [
        level for level in puzzles.LEVELS if level in levels]
    assert {row.family: (row.answers, row.right) for row in report.accuracy} == {
        family: (len(marks), sum(marks)) for family, marks in accuracy.items()}
    assert {day.day: day.reviews for day in report.calendar.days if day.reviews} == per_day
    assert report.streak.current == streak == 2

    page = client.get("/progress")
    assert page.status_code == 200
    text = page.text
    assert text.count('role="img"') == 4  # concepts, levels, accuracy, the calendar
    for row in report.concepts:
        assert (f'<th scope="row">{row.name}</th><td class="num nowrap">{row.in_review} of '
                f"{row.items}</td>") in text
    assert f'data-streak="{streak}"' in text
    for day, count in per_day.items():
        assert re.search(rf'data-day="{day.isoformat()}"><th scope="row">[^<]+</th>'
                         rf'<td class="num">{count}</td>', text)
    assert 'href="/progress" aria-current="page"' in text


def test_a_new_account_sees_empty_figures_and_no_streak(app, client, bank):
    register(client, "bob")
    text = client.get("/progress").text
    assert 'data-streak="0"' in text and "A review today starts a streak." in text
    assert "No puzzle answered in the last 30 days." in text
    assert "0 reviews over the 365 study days" in text


def test_progress_needs_a_login(client, bank):
    response = client.get("/progress")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
