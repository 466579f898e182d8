"""Helpers for the practice-set tests: a set's parameters as posted, the answers to its puzzles."""

from __future__ import annotations

import re

from quizapp import puzzles
from quizapp.practice_sets import parse_puzzle_key
from quizapp.web.rendering.filters import format_answer

SLUG_RE = re.compile(r"/sets/([A-Za-z0-9_-]{22,})$")
ITEM_RE = re.compile(r'data-item-kind="(card|puzzle)" data-item-key="([^"]+)" '
                     r'data-position="([0-9]+)"')


def puzzle_of(key: str) -> dict:
    parsed = parse_puzzle_key(key)
    return puzzles.generate(parsed.family, parsed.level, parsed.seed)


def right_answer(key: str) -> str:
    puzzle = puzzle_of(key)
    return format_answer(puzzle["answer"], puzzle["answer_kind"])


def wrong_answer(key: str) -> str:
    """A readable answer the checker judges wrong (tuple, int and bool puzzles)."""
    puzzle = puzzle_of(key)
    kind, answer = puzzle["answer_kind"], puzzle["answer"]
    if kind == "tuple":
        return format_answer([answer[0] + 1, *answer[1:]], kind)
    if kind == "int":
        return str(answer + 1)
    if kind == "bool":
        return "no" if answer else "yes"
    raise AssertionError(f"no wrong answer written for {kind} puzzles")


def shown_item(html: str) -> tuple[str, str, int]:
    """(kind, key, position) of the item a take page shows."""
    match = ITEM_RE.search(html)
    assert match, "the page shows no item"
    return match.group(1), match.group(2), int(match.group(3))
