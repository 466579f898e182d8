"""The four review ratings and the rating suggested for a puzzle answer."""

from __future__ import annotations

import math

# Rating numbers follow fsrs.Rating (Again=1 .. Easy=4); the keys are what forms and logs carry.
AGAIN = 1
HARD = 2
GOOD = 3
EASY = 4
RATINGS = {AGAIN: "again", HARD: "hard", GOOD: "good", EASY: "easy"}

# Answer-time thresholds for suggest_rating, in seconds.  A stride puzzle answered correctly
# within FAST_SECONDS without hints was recalled, not worked out: Easy.  One that took longer
# than SLOW_SECONDS was reconstructed with effort: Hard.  Anything in between is Good.
# Callers with a reason to (say, principal-level puzzles, which take longer to read) may pass
# their own thresholds.
FAST_SECONDS = 20.0
SLOW_SECONDS = 120.0


def validate_rating(rating: object) -> int:
    """Return ``rating`` if it is an int in 1..4 (Again..Easy); anything else raises ValueError."""
    # bool is an int subclass; True must not silently mean Again.
    if isinstance(rating, bool) or not isinstance(rating, int) or rating not in RATINGS:
        raise ValueError(f"rating must be 1, 2, 3 or 4 (again, hard, good, easy); got {rating!r}")
    return int(rating)


def _validate_seconds(value: object, name: str) -> float:
    """A finite, non-negative number of seconds, or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number of seconds, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite, non-negative number of seconds, got {value!r}")
    return float(value)


def suggest_rating(
    correct: bool,
    *,
    seconds: float | None = None,
    hints_used: int = 0,
    fast_seconds: float = FAST_SECONDS,
    slow_seconds: float = SLOW_SECONDS,
    can_be_easy: bool = True,
) -> int:
    """Rating to pre-select after a puzzle answer; the user may change it before submitting.

    Rules, first match wins:
      wrong answer                                   -> Again (1)
      correct, with any hint shown                   -> Hard  (2)
      correct, more than ``slow_seconds``            -> Hard  (2)
      correct, at most ``fast_seconds``, no hints,
        and ``can_be_easy``                          -> Easy  (4)
      correct otherwise (including unknown time)     -> Good  (3)
    With ``seconds=None`` speed is unknown, so a hint-free correct answer is Good, never Easy.
    Callers pass ``can_be_easy=False`` where speed says nothing about recall: an item seen for
    the first time or in learning steps (Easy would skip the steps), or an answer that can be
    guessed (yes/no, a choice); Good is then the suggestion, as Anki's default answer.
    """
    if not isinstance(correct, bool):
        raise ValueError(f"correct must be True or False, got {correct!r}")
    if isinstance(hints_used, bool) or not isinstance(hints_used, int) or hints_used < 0:
        raise ValueError(f"hints_used must be a non-negative int, got {hints_used!r}")
    fast = _validate_seconds(fast_seconds, "fast_seconds")
    slow = _validate_seconds(slow_seconds, "slow_seconds")
    if fast > slow:
        raise ValueError(f"fast_seconds ({fast}) must not exceed slow_seconds ({slow})")
    elapsed = None if seconds is None else _validate_seconds(seconds, "seconds")

    if not correct:
        return AGAIN
    if hints_used > 0:
        return HARD
    if elapsed is None:
        return GOOD
    if elapsed > slow:
        return HARD
    if elapsed <= fast and can_be_easy:
        return EASY
    return GOOD
