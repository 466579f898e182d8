"""The set as Markdown: a header, the questions, then the answer key."""

from __future__ import annotations

from collections.abc import Sequence

from quizapp.practice_sets.exports.text import (
    compute_back,
    compute_front,
    compute_label,
    compute_set_title,
    compute_summary,
)
from quizapp.practice_sets.items import SetItem
from quizapp.practice_sets.params import SetParams


def heading_text(text: str) -> str:
    """One line for an ATX heading (a title may hold a newline or a trailing #)."""
    return " ".join(text.split()).rstrip("#").strip() or "Untitled"


def export_markdown(params: SetParams, items: Sequence[SetItem]) -> bytes:
    lines = [f"# {heading_text(compute_set_title(params))}", "", compute_summary(params, items),
             "", "## Questions", ""]
    for number, item in enumerate(items, 1):
        lines += [f"### {number}. {heading_text(item.title)}", "", f"*{compute_label(item)}*", "",
                  compute_front(item), ""]
    lines += ["## Answer key", ""]
    for number, item in enumerate(items, 1):
        lines += [f"### {number}. {heading_text(item.title)}", "", compute_back(item), "",
                  f"Key: `{item.kind}:{item.key}`", ""]
    return ("\n".join(lines).rstrip("\n") + "\n").encode("utf-8")
