"""Puzzle: one generated puzzle as a typed, read-only value, with its known mistakes."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from quizapp.puzzles.drafts import FeedbackTable


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A puzzle as generate() documents it (``as_dict`` gives that dict), and the mistakes
    check() explains. Built once per id and shared (registry.deal), so it is never changed:
    sequences are tuples, and ``answer`` (a list for tuple answers) must not be mutated."""

    id: str
    family: str
    level: str
    seed: int
    prompt: str
    code: str | None
    answer_kind: str
    answer: Any
    choices: tuple[str, ...] | None
    oracle: str
    explanation: str
    hints: tuple[str, ...]
    concepts: tuple[str, ...]
    mistakes: FeedbackTable
    # The chains the explanation walks, each one explorer chain (pages draw them and link the
    # explorer to them). Not part of generate()'s documented dict.
    traced: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, puzzle: Mapping[str, Any], mistakes: FeedbackTable,
                  traced: tuple[str, ...] = ()) -> Puzzle:
        """The Puzzle of generate()'s dict (as drafts.assemble builds it)."""
        choices = puzzle["choices"]
        return cls(puzzle["id"], puzzle["family"], puzzle["level"], puzzle["seed"],
                   puzzle["prompt"], puzzle["code"], puzzle["answer_kind"], puzzle["answer"],
                   tuple(choices) if choices is not None else None, puzzle["oracle"],
                   puzzle["explanation"], tuple(puzzle["hints"]), tuple(puzzle["concepts"]),
                   mistakes, tuple(traced))

    def as_dict(self) -> dict[str, Any]:
        """generate()'s JSON-serialisable dict, a fresh copy the caller may change."""
        return {
            "id": self.id, "family": self.family, "level": self.level, "seed": self.seed,
            "prompt": self.prompt, "code": self.code, "answer_kind": self.answer_kind,
            "answer": copy.deepcopy(self.answer),
            "choices": list(self.choices) if self.choices is not None else None,
            "oracle": self.oracle, "explanation": self.explanation, "hints": list(self.hints),
            "concepts": list(self.concepts),
        }


def read_field(puzzle: Puzzle | Mapping[str, Any], name: str) -> Any:
    """A field of a Puzzle, or of a puzzle dict (generate()'s, or a JSON copy; None where a
    dict lacks it)."""
    return getattr(puzzle, name) if isinstance(puzzle, Puzzle) else puzzle.get(name)
