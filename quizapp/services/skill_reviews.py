"""Puzzle skills: each review is a fresh puzzle from a new seed; the answer suggests a rating."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from sqlalchemy.orm import Session

from quizapp import puzzles, srs
from quizapp.models import Item, Skill, User
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.reviews import Rated, load_studyable_item, record_review

SEED_LIMIT = 2**63


@dataclass(frozen=True)
class CheckedAnswer:
    """A judged puzzle answer; ``error`` set means it could not be read (and is not judged)."""

    puzzle: dict
    answer: str
    correct: bool
    feedback: str
    error: str | None
    suggested_rating: int | None


def validate_seed(seed: int) -> int:
    if not 0 <= seed < SEED_LIMIT:
        raise ServiceError("That puzzle link is damaged (bad seed).")
    return seed


def load_skill(session: Session, item_id: int) -> Skill:
    item = load_studyable_item(session, item_id)
    if not isinstance(item, Skill):
        raise NotFound("That item is not a puzzle skill.")
    return item


@lru_cache(maxsize=1024)
def compute_puzzle(family: str, level: str, seed: int) -> dict:
    """puzzles.generate is deterministic, so showing, judging and rating share one result.

    Callers must treat the returned dict as read-only.
    """
    return puzzles.generate(family, level, seed)


def generate_skill_puzzle(skill: Item, seed: int) -> dict:
    """The puzzle a skill shows for ``seed`` (deterministic: the check regenerates it)."""
    if not isinstance(skill, Skill):
        raise NotFound("That item is not a puzzle skill.")
    try:
        return compute_puzzle(skill.family, skill.level, validate_seed(seed))
    except ValueError as exc:
        raise ServiceError(f"That puzzle cannot be made any more: {exc}") from None


def check_skill_answer(
    skill: Item, seed: int, answer: str, *, seconds: float | None, hints_used: int
) -> CheckedAnswer:
    """Judge ``answer`` with quizapp.puzzles.check and suggest a rating (srs.suggest_rating)."""
    puzzle = generate_skill_puzzle(skill, seed)
    verdict = puzzles.check(puzzle, answer)
    if verdict.get("error"):
        return CheckedAnswer(puzzle, answer, False, verdict.get("feedback") or "",
                             verdict["error"], None)
    correct = bool(verdict["correct"])
    suggested = srs.suggest_rating(correct, seconds=seconds, hints_used=hints_used)
    return CheckedAnswer(puzzle, answer, correct, verdict.get("feedback") or "", None, suggested)


def record_skill_review(
    session: Session, user: User, item_id: int, seed: int, answer: str, rating: int,
    now: datetime, *, seen_version: int, duration_ms: int | None, hints_used: int = 0,
) -> Rated:
    """Rate a skill: the answer is judged again from the seed, so the log's correctness is ours."""
    skill = load_skill(session, item_id)
    checked = check_skill_answer(skill, seed, answer, seconds=None, hints_used=hints_used)
    correct = None if checked.error else checked.correct
    return record_review(
        session, user, skill.id, rating, now, seen_version=seen_version, duration_ms=duration_ms,
        answer=answer, correct=correct, puzzle_seed=seed)
