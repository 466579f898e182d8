"""A puzzle answered earlier, dealt again from the seed its review logged, for a look back."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from quizapp import puzzles
from quizapp.models import Review, Skill
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.skill_reviews import validate_seed
from quizapp.services.users import StudyUser

NOT_A_PUZZLE = ("That review is not a puzzle in your history: it was undone, it was a question "
                "card, or it was never yours.")


@dataclass(frozen=True)
class ReviewedPuzzle:
    """The review, its skill and its puzzle as the running code deals it from the logged seed.

    ``puzzle`` is None when that code cannot make it any more (the family or level is gone).
    ``same_verdict`` says whether the logged answer is judged now as it was when rated: False
    means the puzzle has changed since, so what is shown may not be what was asked.
    """

    review: Review
    skill: Skill
    puzzle: puzzles.Puzzle | None
    normalized: object  # the logged answer as the checker reads it (a letter, a tuple...)
    same_verdict: bool
    feedback: str = ""  # what the checker says of a wrong answer ("two strides swapped", ...)


def load_reviewed_puzzle(session: Session, user: StudyUser, review_id: int) -> ReviewedPuzzle:
    """The user's puzzle review ``review_id``; NotFound for anything else, another user's alike."""
    review = session.get(Review, review_id)
    if (review is None or review.user_id != user.id or review.puzzle_seed is None
            or not isinstance(review.item, Skill)):
        raise NotFound(NOT_A_PUZZLE)
    skill = review.item
    try:
        puzzle = puzzles.deal(skill.family, skill.level, validate_seed(review.puzzle_seed))
    except (ValueError, ServiceError):
        return ReviewedPuzzle(review, skill, None, None, False)
    verdict = puzzles.check(puzzle, review.answer or "")
    same = not verdict.get("error") and bool(verdict["correct"]) == bool(review.correct)
    feedback = "" if verdict.get("correct") else verdict.get("feedback") or ""
    return ReviewedPuzzle(review, skill, puzzle, verdict.get("normalized"), same, feedback)
