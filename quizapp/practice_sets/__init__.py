"""Generated practice sets: SetParams, generate() and rebuild_items(); pure (no Flask, no database).

The exports (JSON, CSV, Markdown, Anki) are in ``quizapp.practice_sets.exports``.
"""

from quizapp.practice_sets.bank import Bank, BankCard, build_bank, card_from_content
from quizapp.practice_sets.generation import (
    NotEnoughItems,
    generate,
    plan,
    rebuild_items,
    select_pools,
)
from quizapp.practice_sets.items import (
    CARD,
    KINDS,
    PUZZLE,
    ItemRef,
    PuzzleKey,
    SetItem,
    UnknownItem,
    parse_puzzle_key,
    validate_ref,
)
from quizapp.practice_sets.params import (
    MAX_COUNT,
    MAX_SEED,
    MAX_TIME_LIMIT,
    MIN_COUNT,
    MIN_SEED,
    MIN_TIME_LIMIT,
    TITLE_MAX,
    SetParams,
    SetParamsError,
    canonicalize_concepts,
    canonicalize_count,
    canonicalize_families,
    canonicalize_levels,
    canonicalize_params,
    canonicalize_puzzles,
    canonicalize_seed,
    canonicalize_time_limit,
    canonicalize_title,
    draw_seed,
    validate_params,
)

__all__ = [
    "CARD", "KINDS", "MAX_COUNT", "MAX_SEED", "MAX_TIME_LIMIT", "MIN_COUNT", "MIN_SEED",
    "MIN_TIME_LIMIT", "PUZZLE", "TITLE_MAX", "Bank", "BankCard", "ItemRef", "NotEnoughItems",
    "PuzzleKey", "SetItem", "SetParams", "SetParamsError", "UnknownItem", "build_bank",
    "canonicalize_concepts", "canonicalize_count", "canonicalize_families",
    "canonicalize_levels", "canonicalize_params", "canonicalize_puzzles", "canonicalize_seed",
    "canonicalize_time_limit", "canonicalize_title", "card_from_content", "draw_seed",
    "generate", "parse_puzzle_key", "plan", "rebuild_items", "select_pools", "validate_params",
    "validate_ref",
]
