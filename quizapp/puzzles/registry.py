"""The catalogue of puzzle families, request validation, and deterministic generation."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from quizapp.puzzles import (
    families_channels_last,
    families_contiguity,
    families_copies,
    families_errors,
    families_expand,
    families_layout,
    families_offsets,
    families_strides,
    families_views,
    families_windows,
)
from quizapp.puzzles.drafts import LEVELS, Draft, Family, FeedbackTable, assemble
from quizapp.puzzles.puzzle import Puzzle
from quizapp.puzzles.rng import PuzzleRng

MAX_SEED = 2**63 - 1

FAMILIES: dict[str, Family] = {
    family.id: family
    for module in (
        families_layout,
        families_strides,
        families_offsets,
        families_windows,
        families_contiguity,
        families_channels_last,
        families_views,
        families_expand,
        families_copies,
        families_errors,
    )
    for family in module.FAMILIES
}


def families() -> list[dict[str, Any]]:
    """Every family as ``{"id", "title", "levels", "concepts"}``, in catalogue order."""
    return [
        {"id": f.id, "title": f.title, "levels": list(f.levels), "concepts": list(f.concepts)}
        for f in FAMILIES.values()
    ]


def validate_request(family: object, level: object, seed: object) -> Family:
    """The Family for a request, or ValueError saying what is wrong with it."""
    if not isinstance(family, str) or family not in FAMILIES:
        raise ValueError(f"unknown puzzle family {family!r}; known families: {', '.join(FAMILIES)}")
    spec = FAMILIES[family]
    if not isinstance(level, str) or level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    if level not in spec.levels:
        raise ValueError(
            f"family {family!r} has no {level} puzzles; its levels are {', '.join(spec.levels)}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {type(seed).__name__}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and 2**63-1, got {seed}")
    return spec


def build_draft(spec: Family, level: str, seed: int) -> Draft:
    """The family's draft for this request; the random stream depends only on the puzzle id."""
    return spec.build(PuzzleRng(f"{spec.id}/{level}/{seed}"), level)


def build(family: object, level: object, seed: object) -> tuple[dict[str, Any], FeedbackTable]:
    """The puzzle (a copy the caller may change) and its known mistakes."""
    puzzle = deal(family, level, seed)
    return puzzle.as_dict(), puzzle.mistakes


def deal(family: object, level: object, seed: object) -> Puzzle:
    """The Puzzle ``family/level/seed`` (ValueError for a request no family answers): the one
    copy showing it, judging an answer and rating it share. Read-only."""
    validate_request(family, level, seed)
    return _assembled(family, level, seed)


@lru_cache(maxsize=1024)
def _assembled(family: str, level: str, seed: int) -> Puzzle:
    """Built once per validated id: showing a puzzle and then checking an answer to it (which
    needs the mistakes table) share one build instead of building it twice."""
    spec = FAMILIES[family]
    draft = build_draft(spec, level, seed)
    return Puzzle.from_dict(*assemble(spec.id, level, seed, draft), traced=draft.traced)


def clear_build_cache() -> None:
    """Forget the puzzles built so far (a benchmark timing the building itself)."""
    _assembled.cache_clear()


def generate(family: str, level: str, seed: int) -> dict[str, Any]:
    """The puzzle ``family/level/seed``: JSON-serialisable, the same on every machine."""
    return deal(family, level, seed).as_dict()


def feedback_table(family: str, level: str, seed: int) -> tuple[str, FeedbackTable]:
    """The known mistakes of a puzzle, from its id, with its answer as JSON."""
    puzzle = deal(family, level, seed)
    return json.dumps(puzzle.answer), puzzle.mistakes
