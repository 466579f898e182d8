"""Text for puzzles: values as a user would type them, and explanations from the engine's steps."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from quizapp.puzzles.chains import tuple_text
from quizapp.puzzles.tracing import Trace

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def fmt_tuple(values: Sequence[int]) -> str:
    return tuple_text(list(values))


def fmt_answer(kind: str, value: Any) -> str:
    """A value of an answer kind written the way a user would type it."""
    if kind == "tuple":
        return fmt_tuple(value)
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "choices":
        return ", ".join(value) if value else "none"
    return str(value)


def fmt_text_value(values: Any) -> str:
    """Nested lists of ints the way Python prints them: ``[[0, 3], [1, 4]]``."""
    return str(values)


def code(text: str) -> str:
    return f"`{text}`"


def sentence(text: str) -> str:
    """``text`` ending with a full stop (the engine's ``why`` may come without one)."""
    text = text.strip()
    return text if not text or text[-1] in ".!?" else text + "."


def step_line(trace: Trace, i: int) -> str:
    step = trace.steps[i]
    facts = (
        f"shape {fmt_tuple(step['shape'])}, stride {fmt_tuple(step['stride'])}, "
        f"storage offset {step['storage_offset']}"
    )
    copied = i > 0 and step["storage"] != trace.steps[i - 1]["storage"]
    flag = " **New storage: this step copied the data.**" if copied else ""
    return f"- step {i}: {code(step['code'])} gives {facts}.{flag} {sentence(step['why'])}".rstrip()


def steps_markdown(trace: Trace, first: int = 0) -> str:
    lines = [step_line(trace, i) for i in range(first, len(trace.steps))]
    if trace.error is not None:
        lines.append(
            f"- step {trace.error['step']}: raises {code(trace.error_text())}. "
            f"{sentence(trace.error_why())}".rstrip()
        )
    return "\n".join(lines)


def explanation(
    traces: Sequence[Trace], conclusion: str, intro: str = "", options: Sequence[str] = ()
) -> str:
    """Markdown: the engine's steps (each with its ``why``) for every traced chain, then one line
    per option when there are options, then the answer, which says again nothing the steps
    said (omit_said)."""
    parts = [intro] if intro else []
    for trace in traces:
        if len(traces) > 1:
            parts.append(f"For {code(trace.expr)}:")
        parts.append(steps_markdown(trace))
    if options:
        parts.append("\n".join(f"- {line}" for line in options))
    parts.append(f"**Answer.** {omit_said(conclusion, chr(10).join(parts))}")
    return "\n\n".join(parts)


MIN_REPEAT = 30  # characters: a shorter sentence ("It works.") may well be said twice


def split_sentences(text: str) -> list[str]:
    """``text`` cut after each . ! ? followed by a space, and at line ends; never inside a
    `code span` (torch's messages hold full stops)."""
    pieces, start, in_code = [], 0, False
    for i, char in enumerate(text):
        if char == "`":
            in_code = not in_code
        elif not in_code and (char == "\n" or (char in ".!?" and text[i + 1:i + 2] in (" ", "\n"))):
            pieces.append(text[start:i + 1])
            start = i + 1
    pieces.append(text[start:])
    return [piece for piece in pieces if piece.strip()]


def _core(sentence: str) -> str:
    """A sentence without list marks, bold labels, its end mark and surrounding space."""
    text = re.sub(r"^\s*(?:- )?(?:\*\*[^*]+\*\* )?", "", sentence)
    return text.strip().rstrip(".!?").strip()


def omit_said(text: str, said: str) -> str:
    """``text`` without what ``said`` already says: a sentence of ``said`` (of MIN_REPEAT
    characters or more) inside one of ``text``'s is cut out of it, and a sentence left empty
    goes. "It works: <a step's why>." becomes "It works."."""
    known = sorted({core for core in map(_core, split_sentences(said)) if len(core) >= MIN_REPEAT},
                   key=len, reverse=True)
    kept = []
    for sentence in split_sentences(text):
        core = _core(sentence)
        for repeat in known:
            if repeat in core:
                core = core.replace(repeat, "").strip()
        if core == _core(sentence):
            kept.append(sentence.strip())
            continue
        core = core.rstrip(":;, ").strip()
        if len(re.sub(r"[^A-Za-z0-9]", "", core)) >= 2:
            kept.append(core + ".")
    return " ".join(kept)
