"""A user's progress page: the rows quizapp.progress computes its figures from, in five queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from quizapp import progress, puzzles, srs
from quizapp.models import ItemConcept, PracticeAttempt, Review
from quizapp.services.store.study_items import ITEM, OFFERED, SKILL, STATE
from quizapp.services.users import StudyUser

CONCEPT = ItemConcept.__table__
PRACTICE = PracticeAttempt.__table__
REVIEW = Review.__table__


@dataclass(frozen=True)
class ProgressReport:
    """Everything /progress shows, at ``now`` in the user's time zone."""

    concepts: list[progress.Mastery]
    levels: list[progress.Mastery]
    accuracy: list[progress.Accuracy]  # families answered in the window, by id
    family_titles: dict[str, str]
    calendar: progress.Calendar
    streak: progress.Streak


def load_item_memories(session: Session, user: StudyUser) -> list[progress.ItemMemory]:
    """Every item the study pages offer with this user's FSRS state for it (two queries: the
    items with their states, then the concept tags)."""
    rows = session.execute(
        select(ITEM.c.id, ITEM.c.kind, ITEM.c.level, STATE.c.state)
        .select_from(ITEM.outerjoin(STATE, and_(STATE.c.item_id == ITEM.c.id,
                                                STATE.c.user_id == user.id)))
        .where(OFFERED)).all()
    tags: defaultdict[int, list[str]] = defaultdict(list)
    for item_id, concept in session.execute(
            select(CONCEPT.c.item_id, CONCEPT.c.concept).order_by(CONCEPT.c.concept)):
        tags[item_id].append(concept)
    return [progress.ItemMemory(kind, level, tuple(tags[item_id]), state)
            for item_id, kind, level, state in rows]


def load_puzzle_answers(session: Session, user: StudyUser,
                        since: datetime) -> list[progress.PuzzleAnswer]:
    """Puzzle answers judged after ``since``: in reviews (a skill's, its answer read) and in
    practice. Two index range scans on (user_id, time)."""
    reviewed = session.execute(
        select(SKILL.c.family, REVIEW.c.reviewed_at, REVIEW.c.correct)
        .select_from(REVIEW.join(SKILL, SKILL.c.item_id == REVIEW.c.item_id))
        .where(REVIEW.c.user_id == user.id, REVIEW.c.reviewed_at > since,
               REVIEW.c.correct.is_not(None))).all()
    practised = session.execute(
        select(PRACTICE.c.family, PRACTICE.c.answered_at, PRACTICE.c.correct)
        .where(PRACTICE.c.user_id == user.id, PRACTICE.c.answered_at > since)).all()
    return [progress.PuzzleAnswer(family, at, bool(correct))
            for family, at, correct in [*reviewed, *practised]]


def load_review_times(session: Session, user: StudyUser, start: datetime,
                      end: datetime) -> list[datetime]:
    """When the user rated something in [start, end), from the (user_id, reviewed_at) index."""
    return list(session.scalars(
        select(REVIEW.c.reviewed_at)
        .where(REVIEW.c.user_id == user.id, REVIEW.c.reviewed_at >= start,
               REVIEW.c.reviewed_at < end)))


def compute_progress(session: Session, user: StudyUser, now: datetime) -> ProgressReport:
    """The progress of ``user`` at ``now``, days counted in the user's time zone."""
    zone = srs.compute_user_zone(user)
    items = load_item_memories(session, user)
    answers = load_puzzle_answers(session, user, now - progress.ACCURACY_WINDOW)
    starts = progress.compute_calendar_starts(now, zone)
    calendar = progress.compute_calendar(
        load_review_times(session, user, starts[0], starts[-1]), now, zone, starts=starts)
    return ProgressReport(
        concepts=progress.compute_concept_mastery(items, now, zone),
        levels=progress.compute_level_mastery(items, now, zone, puzzles.LEVELS),
        accuracy=progress.compute_accuracy(answers, now),
        family_titles={family["id"]: family["title"] for family in puzzles.families()},
        calendar=calendar, streak=progress.compute_streak(calendar))
