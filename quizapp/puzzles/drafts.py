"""What a family builds (a Draft), how it becomes the public puzzle dict, and its feedback table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from quizapp.puzzles.chains import Chain
from quizapp.puzzles.rendering import LETTERS, code, explanation, fmt_answer, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.tracing import Trace

ANSWER_KINDS = ("tuple", "int", "bool", "choice", "choices", "text")
LEVELS = ("junior", "middle", "senior", "principal")


@dataclass(frozen=True, slots=True)
class Mistake:
    """A wrong answer people really give, in the puzzle's answer form, and what it gets wrong."""

    value: Any
    feedback: str


@dataclass(frozen=True, slots=True)
class Draft:
    """A puzzle before it gets its id; answers come from engine traces.

    ``oracle_expr`` is a torch expression over the code's names whose value is the answer;
    ``oracle_tail``, when set, is code that assigns ``answer`` itself (choice kinds, try/except).
    ``notes`` holds, per choice, why that option is right or wrong. ``free`` lists the
    positions of a tuple answer where any integer is accepted: the strides of size-1 dims,
    which never reach an element (the cards teach never to rely on them).
    """

    prompt: str
    code: str
    answer_kind: str
    answer: Any
    explanation: str
    hints: tuple[str, str]
    concepts: tuple[str, ...]
    oracle_expr: str = ""
    oracle_tail: str = ""
    choices: tuple[str, ...] | None = None
    notes: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    traced: tuple[str, ...] = field(default=())
    free: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FeedbackTable:
    """What check() may say about wrong answers of one puzzle, and the tuple positions where
    any value is right (``Draft.free``)."""

    mistakes: tuple[Mistake, ...]
    notes: tuple[str, ...]
    free: tuple[int, ...] = ()


def size_one_dims(shape: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The dims of size 1: a stride there is multiplied only by index 0, so it never matters."""
    return tuple(d for d, n in enumerate(shape) if n == 1)


def agrees_outside(value: Any, answer: Any, free: tuple[int, ...]) -> bool:
    """``value == answer``, except that tuple positions in ``free`` may hold any integer."""
    if not free or not isinstance(value, list) or not isinstance(answer, list):
        return value == answer
    return len(value) == len(answer) and all(
        v == a for i, (v, a) in enumerate(zip(value, answer, strict=True)) if i not in free)


def collect_mistakes(
    answer: Any, candidates: list[tuple[Any, str]], free: tuple[int, ...] = ()
) -> tuple[Mistake, ...]:
    """Keep candidates that differ from the answer (outside ``free``) and from each other
    (first wording wins)."""
    kept: list[Mistake] = []
    seen = [answer]
    for value, feedback in candidates:
        if value is None or any(agrees_outside(value, s, free) for s in seen):
            continue
        seen.append(value)
        kept.append(Mistake(value, feedback))
    return tuple(kept)


def free_stride_note(shape: list[int], stride: list[int]) -> str:
    """The sentence a stride answer with size-1 dims ends with ("" without them)."""
    free = size_one_dims(shape)
    if not free:
        return ""
    which = ", ".join(f"dim {d}" for d in free)
    told = ", ".join(str(stride[d]) for d in free)
    return (f" Size 1 at {which}: a stride there only ever multiplies index 0, so no element "
            f"depends on it and any value is accepted (torch reports {told}; do not rely on it).")


def compute_single_trace_draft(
    chain: Chain,
    tr: Trace,
    *,
    prompt: str,
    answer_kind: str,
    answer: Any,
    oracle_expr: str,
    conclusion: str,
    hints: tuple[str, str],
    concepts: tuple[str, ...],
    mistakes: tuple[Mistake, ...],
    free: tuple[int, ...] = (),
) -> Draft:
    """A typed draft about one traced chain: the explanation walks that chain's steps."""
    return Draft(
        prompt=prompt,
        code=chain.code(),
        answer_kind=answer_kind,
        answer=answer,
        oracle_expr=oracle_expr,
        explanation=explanation([tr], conclusion),
        hints=hints,
        concepts=concepts,
        mistakes=mistakes,
        traced=(chain.expr,),
        free=free,
    )


STRIDE_PROMPT = f"What does {code('y.stride()')} return?"


def compute_stride_question(
    chain: Chain,
    tr: Trace,
    *,
    because: str,
    hints: tuple[str, str],
    concepts: tuple[str, ...],
    found: list[tuple[Any, str]],
    prompt: str = STRIDE_PROMPT,
) -> Draft:
    """The "What does y.stride() return?" draft; its answer is the trace's final strides.

    The conclusion reads "`y.stride()` is (..)" followed by ``because`` (its own punctuation
    included); ``found`` are the candidate mistakes, filtered by collect_mistakes. Strides of
    size-1 dims are not graded (``Draft.free``), and the conclusion says why.
    """
    answer = tr.final["stride"]
    free = size_one_dims(tr.final["shape"])
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=prompt,
        answer_kind="tuple",
        answer=answer,
        oracle_expr="y.stride()",
        conclusion=f"{code('y.stride()')} is {fmt_tuple(answer)}{because}"
        + free_stride_note(tr.final["shape"], answer),
        hints=hints,
        concepts=concepts,
        mistakes=collect_mistakes(answer, found, free),
        free=free,
    )


FULL_CHOICE = 4  # options a choice puzzle offers unless it says why it has fewer
FEW_OPTIONS = {2: "two", 3: "three"}
# Why a choice built from known mistakes has fewer options: they coincide on this puzzle.
MISTAKES_COINCIDE = "the other usual mistakes give one of these same answers here"


def explain_few_options(prompt: str, count: int, reason: str) -> str:
    """``prompt``, and where a choice has fewer than four options, why ("There are only three
    options: ..."): a made-up distractor would test nothing."""
    if count >= FULL_CHOICE:
        return prompt
    return f"{prompt} There are only {FEW_OPTIONS[count]} options: {reason}."


def to_choice(draft: Draft, rng: PuzzleRng, max_options: int = FULL_CHOICE,
              why_fewer: str = MISTAKES_COINCIDE) -> Draft:
    """Turn a typed draft into a multiple-choice one whose distractors are its known mistakes."""
    options = [(draft.answer, "")] + [(m.value, m.feedback) for m in draft.mistakes]
    options = options[:max_options]
    order = rng.shuffled(range(len(options)))
    letters = LETTERS[: len(options)]
    answer = letters[order.index(0)]
    literal = "[" + ", ".join(repr(options[i][0]) for i in order) + "]"
    probe = f"list({draft.oracle_expr})" if draft.answer_kind == "tuple" else draft.oracle_expr
    tail = f"candidates = {literal}\nanswer = {letters!r}[candidates.index({probe})]"
    notes = tuple("This is the right one." if i == 0 else options[i][1] for i in order)
    return replace(
        draft,
        prompt=explain_few_options(draft.prompt, len(options), why_fewer),
        answer_kind="choice",
        answer=answer,
        choices=tuple(fmt_answer(draft.answer_kind, options[i][0]) for i in order),
        notes=notes,
        mistakes=tuple(Mistake(letters[k], notes[k]) for k in range(len(order)) if order[k] != 0),
        oracle_expr="",
        oracle_tail=tail,
        free=(),
    )


ANSWER_NOTES = {
    "tuple": "Answer with a tuple of integers, e.g. `(a, b, c)`.",
    "int": "Answer with an integer.",
    "bool": "Answer yes or no.",
    "choice": "Pick one option: its letter, or the option as written.",
    "choices": "Pick every option that applies, e.g. `a, c`.",
    "text": "Answer with the nested list Python prints, e.g. `[[a, b], [c, d]]`.",
}


def oracle_program(draft: Draft) -> str:
    body = draft.oracle_tail or f"answer = {draft.oracle_expr}"
    return f"import torch\n\n{draft.code}\n{body}\n"


def assemble(
    family: str, level: str, seed: int, draft: Draft
) -> tuple[dict[str, Any], FeedbackTable]:
    """The public puzzle dict (exactly the documented keys) and its feedback table."""
    if draft.answer_kind not in ANSWER_KINDS:
        raise ValueError(f"unknown answer kind {draft.answer_kind!r}")
    puzzle = {
        "id": f"{family}/{level}/{seed}",
        "family": family,
        "level": level,
        "seed": seed,
        "prompt": f"{draft.prompt}\n\n{ANSWER_NOTES[draft.answer_kind]}",
        "code": draft.code,
        "answer_kind": draft.answer_kind,
        "answer": draft.answer,
        "choices": list(draft.choices) if draft.choices is not None else None,
        "oracle": oracle_program(draft),
        "explanation": draft.explanation,
        "hints": list(draft.hints),
        "concepts": list(draft.concepts),
    }
    return puzzle, FeedbackTable(draft.mistakes, draft.notes, draft.free)


@dataclass(frozen=True, slots=True)
class Family:
    """A kind of puzzle: its id, title, levels, concept tags and builder.

    ``noun`` names what a tuple answer lists ("strides", "sizes") for generic feedback.
    """

    id: str
    title: str
    levels: tuple[str, ...]
    concepts: tuple[str, ...]
    build: Callable[[PuzzleRng, str], Draft]
    noun: str = "entries"
