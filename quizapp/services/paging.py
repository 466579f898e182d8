"""Page numbers of the paged listings (the question browser, the review history)."""

from __future__ import annotations

import math

from quizapp.services.errors import ServiceError

PAGE_MAX = 100_000
PAGE_MESSAGE = f"A page number is a whole number from 1 to {PAGE_MAX}."


def read_page_number(text: str) -> int:
    """The page a ``?page=`` value names, or 0 (which check_page_number refuses) if it names none."""
    # isascii: "²" and other Unicode digits pass isdigit() but not int().
    readable = text.isascii() and text.isdigit() and len(text) < 7
    return int(text) if readable else 0


def check_page_number(page: int) -> None:
    if not 1 <= page <= PAGE_MAX:
        raise ServiceError(PAGE_MESSAGE)


def count_pages(total: int, per_page: int) -> int:
    """How many pages ``total`` rows fill; an empty listing still has its one (empty) page."""
    return max(1, math.ceil(total / per_page))
