"""The Markdown text of an item's two sides, shared by the Markdown, CSV and Anki exports."""

from __future__ import annotations

from collections.abc import Sequence

from quizapp.practice_sets.formatting import CHOICE_LETTERS, code_span, fence
from quizapp.practice_sets.items import CARD, PUZZLE, SetItem
from quizapp.practice_sets.params import SetParams


def compute_set_title(params: SetParams) -> str:
    return params.title or f"Practice set {params.seed}"


def compute_choice_lines(item: SetItem) -> list[str]:
    return [f"- ({letter}) {code_span(choice)}"
            for letter, choice in zip(CHOICE_LETTERS, item.choices, strict=False)]


def compute_front(item: SetItem) -> str:
    """The question as Markdown: a puzzle's code and options follow its prompt."""
    parts = [item.prompt.strip()]
    if item.kind != CARD:
        if item.code:
            parts.append(fence(item.code, "python"))
        if item.choices:
            parts.append("\n".join(compute_choice_lines(item)))
    return "\n\n".join(parts)


def compute_code_sample(item: SetItem) -> str:
    """A card's code sample and what it prints, as Markdown ("" for a puzzle)."""
    if item.kind != CARD or not item.code:
        return ""
    text = fence(item.code, "python")
    if item.code_output:
        text += "\n\nOutput:\n\n" + fence(item.code_output)
    return text


def compute_back(item: SetItem) -> str:
    """The answer as Markdown: the answer, its explanation and a card's code sample."""
    parts = [f"**Answer:** {item.answer.strip()}" if item.kind != CARD else item.answer.strip()]
    if item.explanation.strip():
        parts.append(item.explanation.strip())
    sample = compute_code_sample(item)
    if sample:
        parts.append(sample)
    return "\n\n".join(parts)


def compute_tags(item: SetItem) -> list[str]:
    """Anki-style hierarchical tags (no spaces): quizapp, the kind, the level, each concept."""
    tags = ["quizapp", f"quizapp::{item.kind}", f"quizapp::level::{item.level}"]
    tags += [f"quizapp::concept::{concept}" for concept in item.concepts]
    if item.retired:
        tags.append("quizapp::retired")
    return [tag.replace(" ", "_") for tag in tags]


def compute_label(item: SetItem) -> str:
    """"junior card · view, stride" (and "retired" when it is)."""
    label = f"{item.level} {item.kind}"
    if item.concepts:
        label += " · " + ", ".join(item.concepts)
    if item.retired:
        label += " · retired from the bank"
    return label


def compute_summary(params: SetParams, items: Sequence[SetItem]) -> str:
    puzzles = sum(item.kind == PUZZLE for item in items)
    parts = [f"Seed {params.seed}", f"{len(items)} items ({puzzles} puzzles)"]
    for name, values in (("levels", params.levels), ("concepts", params.concepts),
                         ("puzzle families", params.families)):
        if values:
            parts.append(f"{name}: {', '.join(values)}")
    if params.time_limit:
        parts.append(f"time limit: {params.time_limit} minutes")
    return " · ".join(parts)
