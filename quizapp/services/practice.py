"""Free practice: puzzles of chosen levels and families, judged and kept, never scheduled.

Nothing here reads or writes a review state, the review log or the queue: an answer is judged
by the study checker (skill_reviews.check_puzzle_answer) and stored in practice_attempt,
which only the progress figures read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from quizapp import puzzles
from quizapp.models import PracticeAttempt, Review
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.reviews import ANSWER_MAX, DURATION_MAX_MS
from quizapp.services.skill_reviews import CheckedAnswer, check_puzzle_answer, validate_seed
from quizapp.services.store.study_items import ITEM, SKILL
from quizapp.services.users import StudyUser

MISTAKES_WINDOW = timedelta(days=90)  # "Practise my mistakes" reads the misses of 90 days
MISTAKES_SKILLS = 5  # ... and deals puzzles of the skills missed most often among them
CHOICE_MAX = 40  # more levels or families named than there are is no choice a page makes
UNKNOWN_LEVEL = "There is no level called “{}”. The levels are {}."
UNKNOWN_FAMILY = ("There is no puzzle family called “{}”. The practice page lists every "
                  "family there is.")
NOTHING_TO_DEAL = ("No puzzle family has puzzles at the levels chosen. Choose another level, "
                   "or more families.")
NO_MISTAKES = ("You have no wrong puzzle answers in the last 90 days, so there is nothing to "
               "practise from your mistakes. Practise any puzzles instead.")


@dataclass(frozen=True)
class PracticeSkill:
    """A puzzle family at one level, as practice deals it; ``misses`` weighs it when mistakes
    are practised (1 otherwise)."""

    family: str
    level: str
    title: str
    misses: int = 1


@dataclass(frozen=True)
class PracticeResult:
    """A kept answer: its id, and the answer judged again from its seed."""

    attempt_id: int
    checked: CheckedAnswer
    family: str
    level: str
    hints_used: int
    answered_at: datetime


def list_practice_skills() -> list[PracticeSkill]:
    """Every (family, level) the puzzles package deals, families in its order, junior first."""
    return [PracticeSkill(family["id"], level, family["title"])
            for family in puzzles.families() for level in family["levels"]]


def validate_choice(levels: Sequence[str], families: Sequence[str]) -> list[PracticeSkill]:
    """The skills of the chosen ``levels`` and ``families`` (none chosen: all of them), or a
    ServiceError naming what is not a level or family, or saying none is left."""
    if len(levels) > CHOICE_MAX or len(families) > CHOICE_MAX:
        raise ServiceError("That practice link names too many levels or families.")
    for level in levels:
        if level not in puzzles.LEVELS:
            raise ServiceError(UNKNOWN_LEVEL.format(level[:40], ", ".join(puzzles.LEVELS)))
    known = {family["id"] for family in puzzles.families()}
    for family in families:
        if family not in known:
            raise ServiceError(UNKNOWN_FAMILY.format(family[:80]))
    skills = [skill for skill in list_practice_skills()
              if (not levels or skill.level in levels)
              and (not families or skill.family in families)]
    if not skills:
        raise ServiceError(NOTHING_TO_DEAL)
    return skills


def list_missed_skills(session: Session, user: StudyUser, now: datetime,
                       limit: int = MISTAKES_SKILLS) -> list[PracticeSkill]:
    """The skills with the most wrong answers in the last MISTAKES_WINDOW, in reviews and in
    practice, most missed first (ties by family and level); only those practice can deal."""
    since = now - MISTAKES_WINDOW
    misses: Counter[tuple[str, str]] = Counter()
    for family, level, count in session.execute(select_review_misses(user.id, since)):
        misses[(family, level)] += count
    for family, level, count in session.execute(
            select(PracticeAttempt.family, PracticeAttempt.level, func.count())
            .where(PracticeAttempt.user_id == user.id, PracticeAttempt.answered_at > since,
                   PracticeAttempt.correct.is_(False))
            .group_by(PracticeAttempt.family, PracticeAttempt.level)):
        misses[(family, level)] += count
    offered = {(skill.family, skill.level): skill for skill in list_practice_skills()}
    ranked = sorted(((key, count) for key, count in misses.items() if key in offered),
                    key=lambda pair: (-pair[1], pair[0]))
    return [PracticeSkill(family, level, offered[(family, level)].title, count)
            for (family, level), count in ranked[:limit]]


def select_review_misses(user_id: int, since: datetime):
    """(family, level, wrong answers) per skill in the user's reviews after ``since``."""
    review = Review.__table__
    return (select(SKILL.c.family, ITEM.c.level, func.count())
            .select_from(review.join(SKILL, SKILL.c.item_id == review.c.item_id)
                         .join(ITEM, ITEM.c.id == review.c.item_id))
            .where(review.c.user_id == user_id, review.c.reviewed_at > since,
                   review.c.correct.is_(False))
            .group_by(SKILL.c.family, ITEM.c.level))


def pick_skill(skills: Sequence[PracticeSkill], seed: int) -> PracticeSkill:
    """The skill ``seed`` deals among ``skills``, each as likely as its ``misses`` weigh."""
    if not skills:
        raise ServiceError(NOTHING_TO_DEAL)
    total = sum(max(1, skill.misses) for skill in skills)
    point = validate_seed(seed) % total
    for skill in skills:
        point -= max(1, skill.misses)
        if point < 0:
            return skill
    raise AssertionError("unreachable: the weights add up to total")  # pragma: no cover


def deal_practice_puzzle(family: str, level: str, seed: int) -> puzzles.Puzzle:
    """The practice puzzle of ``family`` at ``level`` for ``seed`` (the check regenerates it)."""
    validate_choice([level], [family])
    try:
        return puzzles.deal(family, level, validate_seed(seed))
    except ValueError as exc:
        raise ServiceError(f"That puzzle cannot be made any more: {exc}") from None


def record_practice_answer(
    session: Session, user: StudyUser, family: str, level: str, seed: int, answer: str,
    picks: Iterable[str], now: datetime, *, hints_used: int = 0, duration_ms: int | None = None,
) -> CheckedAnswer | PracticeResult:
    """Judge an answer to a practice puzzle and keep it: a PracticeResult, or the CheckedAnswer
    whose ``error`` says why it could not be read (nothing kept then). The first answer to a
    dealt puzzle is the one kept: the same puzzle answered again (a second click, Back and
    send) returns that first one."""
    puzzle = deal_practice_puzzle(family, level, seed)
    checked = check_puzzle_answer(puzzle, answer, list(picks))
    if checked.error:
        return checked
    if duration_ms is not None:
        duration_ms = max(0, min(int(duration_ms), DURATION_MAX_MS))
    row = PracticeAttempt(user_id=user.id, family=family, level=level, seed=seed,
                          answer=checked.answer[:ANSWER_MAX], correct=checked.correct,
                          hints_used=max(0, hints_used), duration_ms=duration_ms,
                          answered_at=now)
    session.add(row)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        kept = session.scalar(select(PracticeAttempt).where(
            PracticeAttempt.user_id == user.id, PracticeAttempt.family == family,
            PracticeAttempt.level == level, PracticeAttempt.seed == seed))
        if kept is None:
            raise
        return load_practice_result(session, user, kept.id)
    return PracticeResult(row.id, checked, family, level, row.hints_used, now)


def load_practice_result(session: Session, user: StudyUser, attempt_id: int) -> PracticeResult:
    """A kept practice answer of ``user``, judged again from its seed; NotFound for another
    user's (which looks exactly like a missing one)."""
    row = session.get(PracticeAttempt, attempt_id)
    if row is None or row.user_id != user.id:
        raise NotFound("That practice answer is not yours, or was never given.")
    puzzle = deal_practice_puzzle(row.family, row.level, row.seed)
    checked = check_puzzle_answer(puzzle, row.answer)
    if checked.correct != row.correct:  # judged otherwise by this version: the kept verdict
        checked = replace(checked, correct=row.correct, feedback="")
    return PracticeResult(row.id, checked, row.family, row.level, row.hints_used,
                          row.answered_at)
