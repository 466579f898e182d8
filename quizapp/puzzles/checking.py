"""check(): judge a typed response against a puzzle and say what a wrong answer got wrong."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from quizapp.puzzles.drafts import ANSWER_KINDS, FeedbackTable, agrees_outside
from quizapp.puzzles.parsing import ParseError, parse_response
from quizapp.puzzles.puzzle import Puzzle, read_field
from quizapp.puzzles.registry import FAMILIES, feedback_table
from quizapp.puzzles.rendering import LETTERS

CORRECT = "Correct."
# The page heads this with its verdict ("Not quite"); the note does not say it again.
FALLBACK = "The worked solution below shows where the answer comes from."


def check(puzzle: Puzzle | Mapping[str, Any], response: str) -> dict[str, Any]:
    """``{"correct", "normalized", "feedback", "error"}`` for ``response`` to ``puzzle`` (a
    Puzzle, or generate()'s dict or a JSON copy of it).

    A response that cannot be read gets ``error`` (what form is expected) and is not judged.
    """
    kind = puzzle.answer_kind if isinstance(puzzle, Puzzle) else validate_puzzle(puzzle)
    if not isinstance(response, str):
        return _unreadable("The answer must be text.")
    try:
        value = parse_response(kind, response, read_field(puzzle, "choices"))
    except ParseError as exc:
        return _unreadable(str(exc))
    answer = read_field(puzzle, "answer")
    table = None
    if kind == "tuple":  # strides of size-1 dims may hold anything (FeedbackTable.free)
        table = puzzle.mistakes if isinstance(puzzle, Puzzle) else known_table(puzzle)
    correct = agrees_outside(value, answer, table.free if table is not None else ())
    feedback = CORRECT if correct else describe_wrong(puzzle, value)
    return {"correct": correct, "normalized": value, "feedback": feedback, "error": None}


def _unreadable(message: str) -> dict[str, Any]:
    return {"correct": False, "normalized": None, "feedback": "", "error": message}


def validate_puzzle(puzzle: Mapping[str, Any]) -> str:
    """The puzzle's answer kind, or ValueError when it is not a puzzle generate() could return."""
    if not isinstance(puzzle, Mapping) or "answer" not in puzzle:
        raise ValueError("check() needs a puzzle dict as returned by generate()")
    kind = puzzle.get("answer_kind")
    if kind not in ANSWER_KINDS:
        raise ValueError(f"unknown answer kind {kind!r}")
    if kind in ("choice", "choices") and not isinstance(puzzle.get("choices"), list):
        raise ValueError("a choice puzzle needs its list of choices")
    return kind


def known_table(puzzle: Mapping[str, Any]) -> FeedbackTable | None:
    """The puzzle's known mistakes, rebuilt from its id; None if the id no longer matches."""
    try:
        answer_json, table = feedback_table(puzzle["family"], puzzle["level"], puzzle["seed"])
    except (KeyError, TypeError, ValueError):
        return None
    return table if answer_json == json.dumps(puzzle["answer"]) else None


def describe_wrong(puzzle: Puzzle | Mapping[str, Any], value: Any) -> str:
    # A Puzzle carries its mistakes; a dict's are rebuilt from its id.
    table = puzzle.mistakes if isinstance(puzzle, Puzzle) else known_table(puzzle)
    kind, answer = read_field(puzzle, "answer_kind"), read_field(puzzle, "answer")
    if kind == "choices":
        return describe_selection(value, answer, table)
    if table is not None:
        if kind == "choice" and table.notes:
            return table.notes[LETTERS.index(value)]
        for mistake in table.mistakes:
            if mistake.value == value:
                return mistake.feedback
    if kind == "tuple":
        spec = FAMILIES.get(read_field(puzzle, "family") or "")
        return describe_tuple(value, answer, spec.noun if spec else "entries") or FALLBACK
    if kind == "text":
        return describe_nested(value, answer)
    if kind == "int" and abs(value - answer) == 1:
        return "Off by one: count again where the first element sits (positions start at 0)."
    return FALLBACK


def describe_selection(picked: list[str], answer: list[str], table: FeedbackTable | None) -> str:
    """One sentence per option that was wrongly picked or wrongly left out."""
    notes = table.notes if table is not None else ()
    parts = []
    for letter in sorted(set(picked) ^ set(answer)):
        note = notes[LETTERS.index(letter)] if LETTERS.index(letter) < len(notes) else ""
        if letter in picked:
            parts.append(f"({letter}) does not work. {note}".strip())
        else:
            parts.append(f"You left out ({letter}), which works. {note}".strip())
    return " ".join(parts) or FALLBACK


def describe_tuple(value: list[int], answer: list[int], noun: str) -> str | None:
    """Generic feedback for tuples: wrong length, swapped pair, reversed or reordered, one slip."""
    n = len(answer)
    if len(value) != n:
        return f"There are {n} {noun} here, one per dimension; you gave {len(value)}."
    if sorted(value) == sorted(answer):
        if n >= 3 and value == answer[::-1]:
            return f"Right {noun}, in reverse order: you counted from the wrong end."
        diff = [i for i in range(n) if value[i] != answer[i]]
        if len(diff) == 2:
            i, j = diff
            if (i, j) == (0, 1):
                return f"The first two {noun} are swapped."
            if (i, j) == (n - 2, n - 1):
                return f"The last two {noun} are swapped."
            return f"The {noun} of dims {i} and {j} are swapped."
        return f"Right {noun}, wrong order: follow each dim through the chain."
    wrong = [i for i in range(n) if value[i] != answer[i]]
    if len(wrong) == 1:
        return f"Only the entry for dim {wrong[0]} is wrong."
    return None


def describe_nested(value: str, answer: str) -> str:
    """Generic feedback for printed lists: same numbers in another order or nesting, or not."""
    mine, theirs = re.findall(r"-?\d+", value), re.findall(r"-?\d+", answer)
    if mine == theirs:
        return "Right numbers in the right order, but the nesting (the shape) is wrong."
    if sorted(mine) == sorted(theirs):
        return "Right numbers, wrong order: follow the strides to see which element comes next."
    if len(mine) != len(theirs):
        return f"y has {len(theirs)} elements; your list has {len(mine)}."
    return FALLBACK
