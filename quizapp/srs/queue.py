"""Daily study planning: which due and new items make today's session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

DEFAULT_NEW_LIMIT = 20
DEFAULT_REVIEW_LIMIT = 200


def _validate_count(value: object, name: str) -> int:
    """A non-negative int (bools refused), or ValueError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative int, got {value!r}")
    return value


def compute_remaining(limit: int, done_today: int) -> int:
    """How many more items a daily ``limit`` allows after ``done_today`` (never below zero)."""
    return max(0, _validate_count(limit, "limit") - _validate_count(done_today, "done_today"))


def plan_session(
    due: Sequence[T],
    new: Sequence[T],
    *,
    learning: Sequence[T] = (),
    new_done_today: int,
    reviews_done_today: int,
    new_limit: int = DEFAULT_NEW_LIMIT,
    review_limit: int = DEFAULT_REVIEW_LIMIT,
) -> list[T]:
    """Items to study now: due items first, then new ones, each capped by what is left today.

    ``due`` must already be ordered by due time (oldest first) and ``new`` in the order new
    items should be introduced; both orders are kept.  Due items are capped by
    ``review_limit - reviews_done_today`` and new items by ``new_limit - new_done_today``; the
    two limits are independent, as in the user's settings.  ``learning`` (due items in their
    learning or relearning steps, not already in ``due``) come first and are never capped:
    Anki shows intraday learning whatever its daily limits.  Inputs are not modified.
    """
    reviews_left = compute_remaining(
        _validate_count(review_limit, "review_limit"),
        _validate_count(reviews_done_today, "reviews_done_today"),
    )
    new_left = compute_remaining(
        _validate_count(new_limit, "new_limit"),
        _validate_count(new_done_today, "new_done_today"),
    )
    return list(learning) + list(due[:reviews_left]) + list(new[:new_left])
