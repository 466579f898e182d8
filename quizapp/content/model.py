"""Typed, immutable values of the question bank and the error that lists what is wrong with it."""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("junior", "middle", "senior", "principal")
IMPORTANCE = ("must-know", "should-know", "nice-to-know")
FREQUENCY = ("rare", "occasional", "common", "very-common")

# Front matter keys, in the order content/README.md lists them; no other key is allowed.
FRONT_MATTER_KEYS = ("id", "title", "level", "concepts", "importance", "frequency")

# The `##` sections of a card, in the order they must appear (content/README.md "Format").
SECTIONS = ("Question", "Basics", "Solid", "Code", "Go deeper", "Follow-ups", "Red flags")


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A follow-up question an interviewer may ask next, with its answer (both Markdown)."""

    question: str
    answer: str


@dataclass(frozen=True, slots=True)
class Card:
    """One interview question with answers at several depths, as loaded from content/cards/."""

    id: str
    title: str
    level: str
    concepts: tuple[str, ...]
    importance: str
    frequency: str
    question: str
    basics: str
    solid: str
    code: str
    code_output: str
    go_deeper: tuple[tuple[str, str], ...]
    follow_ups: tuple[FollowUp, ...]
    red_flags: tuple[str, ...]
    source_path: str


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with a content file, printed as ``path:line: message``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class ContentError(Exception):
    """Raised when the bank cannot be loaded; ``problems`` holds every ``path:line: message``."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems: tuple[Problem, ...] = tuple(sorted(problems))
        count = len(self.problems)
        header = f"{count} problem{'s' if count != 1 else ''} in the question bank"
        super().__init__("\n".join([header, *(str(p) for p in self.problems)]))
