"""Puzzle skills: each review is a fresh puzzle from a new seed; the answer suggests a rating."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.orm import Session

from quizapp import puzzles, srs
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.items import ItemState, StudyItem
from quizapp.services.rating_limits import RatingLimits
from quizapp.services.reviews import Rated, apply_rating
from quizapp.services.store.study_items import load_item_and_state
from quizapp.services.users import StudyUser

SEED_LIMIT = puzzles.MAX_SEED + 1


@dataclass(frozen=True)
class CheckedAnswer:
    """A judged puzzle answer; ``error`` set means it could not be read (and is not judged)."""

    puzzle: puzzles.Puzzle
    answer: str
    correct: bool
    feedback: str
    error: str | None
    suggested_rating: int | None
    normalized: object = None  # the answer as read: a letter, a list of letters, a tuple...


def validate_seed(seed: int) -> int:
    if not 0 <= seed < SEED_LIMIT:
        raise ServiceError("That puzzle link is damaged (bad seed).")
    return seed


def validate_skill(item: StudyItem) -> StudyItem:
    if not item.is_skill:
        raise NotFound("That item is not a puzzle skill.")
    return item


def load_skill_and_state(session: Session, user: StudyUser,
                         item_id: int) -> tuple[StudyItem, ItemState | None]:
    """A skill still in the bank (NotFound otherwise) and the user's state for it."""
    skill, state = load_item_and_state(session, user.id, item_id)
    return validate_skill(skill), state


def generate_skill_puzzle(skill: StudyItem, seed: int) -> puzzles.Puzzle:
    """The puzzle a skill shows for ``seed`` (deterministic: the check regenerates it)."""
    validate_skill(skill)
    try:
        # puzzles.deal builds each puzzle once: showing, judging and rating share it.
        return puzzles.deal(skill.family, skill.level, validate_seed(seed))
    except ValueError as exc:
        raise ServiceError(f"That puzzle cannot be made any more: {exc}") from None


# Answers a guess can get right (those picked among a few values): a quick right one says
# little about recall.
GUESSABLE_KINDS = puzzles.PICKABLE_KINDS


def check_skill_answer(
    skill: StudyItem, seed: int, answer: str, *, seconds: float | None, hints_used: int,
    state: ItemState | None = None, picks: Sequence[str] = (),
) -> CheckedAnswer:
    """Judge ``answer`` with quizapp.puzzles.check and suggest a rating (srs.suggest_rating):
    Easy only for a skill in review (``state``, not new or in learning steps) and an answer
    no guess could give. ``picks`` are the options ticked on the page, read with the typed
    ``answer`` by puzzles.picking.compose_answer."""
    checked = check_puzzle_answer(generate_skill_puzzle(skill, seed), answer, picks)
    if checked.error:
        return checked
    in_review = state is not None and not state.learning
    suggested = srs.suggest_rating(
        checked.correct, seconds=seconds, hints_used=hints_used,
        can_be_easy=in_review and checked.puzzle.answer_kind not in GUESSABLE_KINDS)
    return replace(checked, suggested_rating=suggested)


def check_puzzle_answer(puzzle: puzzles.Puzzle, answer: str,
                        picks: Sequence[str] = ()) -> CheckedAnswer:
    """Judge ``answer`` (typed, with the ``picks`` ticked) with quizapp.puzzles.check, rating
    nothing: what a review and free practice both read of an answer."""
    try:
        answer = puzzles.compose_answer(puzzle, answer, picks)
    except puzzles.ParseError as exc:
        return CheckedAnswer(puzzle, answer, False, "", str(exc), None)
    verdict = puzzles.check(puzzle, answer)
    if verdict.get("error"):
        return CheckedAnswer(puzzle, answer, False, verdict.get("feedback") or "",
                             verdict["error"], None)
    return CheckedAnswer(puzzle, answer, bool(verdict["correct"]), verdict.get("feedback") or "",
                         None, None, verdict.get("normalized"))


def record_skill_review(
    session: Session, user: StudyUser, item_id: int, seed: int, answer: str, rating: int,
    now: datetime, *, seen_version: int, duration_ms: int | None, hints_used: int = 0,
    seen_undos: int | None = None, rate_limits: RatingLimits | None = None,
) -> Rated:
    """Rate a skill: the answer is judged again from the seed, so the log's correctness is ours."""
    skill, state = load_skill_and_state(session, user, item_id)
    checked = check_skill_answer(skill, seed, answer, seconds=None, hints_used=hints_used)
    correct = None if checked.error else checked.correct
    return apply_rating(
        session, user, skill, state, rating, now, seen_version=seen_version, duration_ms=duration_ms,
        answer=answer, correct=correct, puzzle_seed=seed, seen_undos=seen_undos,
        rate_limits=rate_limits)
