"""Expanded and view-choice families: strides after expand, which view() calls succeed."""

from __future__ import annotations

from dataclasses import replace

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, args_text, ctor_text, random_shape
from quizapp.puzzles.distractors import contiguous_strides
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    collect_mistakes,
    compute_stride_question,
    size_one_dims,
)
from quizapp.puzzles.families_views import VIEW_RULE, noncontiguous_x, view_reason
from quizapp.puzzles.rendering import LETTERS, code, explanation, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import CONCEPT_OF, rules_for
from quizapp.puzzles.tracing import GenerationError, trace, trace_outcome


def expanded_chain(rng: PuzzleRng, level: str) -> Chain:
    """x with size-1 dims (or permuted/sliced at principal), y = x.expand(...) (+ more calls)."""
    if level == "senior":
        shape = list(random_shape(rng, rng.randint(1, 3), 2, 5))
        for _ in range(rng.randint(0 if len(shape) > 1 else 1, 2)):
            shape.insert(rng.randint(0, len(shape)), 1)
        x_ops: tuple[Op, ...] = ()
        start = tuple(shape)
    else:
        shape = list(random_shape(rng, rng.randint(2, 3), 2, 5))
        x_ops = om.grow(rng, tuple(shape), (om.permute, om.stepped_slice, om.narrow), 1)
        x_ops += (om.made(om.unsqueeze(rng, x_ops[-1].shape)),)
        start = x_ops[-1].shape
    # start has at most four dims, so expand can always add a leading one.
    y_ops: tuple[Op, ...] = (om.made(om.expand(rng, start)),)
    if level == "principal":
        y_ops += om.grow(rng, y_ops[-1].shape, (om.transpose, om.stepped_slice, om.permute), 1)
    return Chain(ctor_text("empty", tuple(shape)), x_ops, y_ops)


def build_expand_strides(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(8):  # until a known mistake differs where strides count
        chain = expanded_chain(rng, level)
        tr = trace(chain.expr)
        answer, shape = tr.final["stride"], tr.final["shape"]
        dense = contiguous_strides(shape)
        found = [
            (
                dense,
                "Those are the strides of a fresh tensor of this shape, but expand allocates "
                "nothing: repeated dims get stride 0.",
            ),
            (
                [1 if s == 0 else s for s in answer],
                "A broadcast dim reads the same element again and again: its stride is 0, not 1.",
            ),
            (
                [dense[d] if s == 0 else s for d, s in enumerate(answer)],
                "Broadcast dims do not step through memory at all: their stride is 0.",
            ),
        ]
        if collect_mistakes(answer, found, size_one_dims(shape)):
            break
    return compute_stride_question(
        chain,
        tr,
        because=".",
        hints=(
            rules_for(o.kind for o in chain.x_ops + chain.y_ops),
            f"x has strides {fmt_tuple(tr.steps[chain.x_step]['stride'])}; existing dims keep "
            "theirs unless they were size 1 and grew.",
        ),
        concepts=("expand-broadcast", "stride")
        + tuple(sorted({CONCEPT_OF[o.kind] for o in chain.y_ops[1:]})),
        found=found,
    )


def view_choices(rng: PuzzleRng, chain: Chain, name: str, shape: tuple[int, ...]) -> Draft | None:
    """Four ``name.view(...)`` options with at least one success and one failure, or None.

    ``shape`` is name's tracked shape; the chain's own steps are read from the first option.
    """
    targets = om.regroupings(rng, shape)[:4]
    if len(targets) < 4:
        return None
    traces = [trace_outcome(chain.expr + f".view({args_text(t)})") for t in targets]
    base = traces[0].prefix(chain.expr, chain.x_step + len(chain.y_ops) + 1)
    if tuple(base.final["shape"]) != shape:
        raise GenerationError(f"tracked shape {shape} but the engine says {base.final['shape']}")
    stride = tuple(base.final["stride"])
    ok = [LETTERS[i] for i, t in enumerate(traces) if t.error is None]
    if not ok or len(ok) == len(targets):
        return None
    literal = "[" + ", ".join(repr(tuple(t)) for t in targets) + "]"
    tail = (
        f"candidates = {literal}\nanswer = []\nfor letter, shape in zip({LETTERS[:4]!r}, "
        f"candidates):\n    try:\n        {name}.view(shape)\n    except RuntimeError:\n"
        "        continue\n    answer.append(letter)"
    )
    choices = tuple(f"{name}.view({args_text(t)})" for t in targets)
    notes = tuple(view_reason(t) for t in traces)
    return Draft(
        prompt=f"Which of these calls succeed on {code(name)}?",
        code=chain.code(),
        answer_kind="choices",
        answer=ok,
        choices=choices,
        notes=notes,
        oracle_tail=tail,
        explanation=explanation(
            [base],
            "The ones that work: " + ", ".join(f"({k})" for k in ok) + ".",
            options=[
                f"({LETTERS[i]}) {code(c)}: {n}"
                for i, (c, n) in enumerate(zip(choices, notes, strict=True))
            ],
        ),
        hints=(VIEW_RULE, f"{name} has shape {fmt_tuple(shape)} and strides {fmt_tuple(stride)}."),
        concepts=("view-rule", "view"),
        traced=(base.expr,) + tuple(t.expr for t in traces),
    )


def build_expand_views(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(24):
        chain = expanded_chain(rng, "senior")
        draft = view_choices(rng, chain, "y", chain.y_ops[-1].shape)
        if draft is not None:
            return replace(draft, concepts=draft.concepts + ("expand-broadcast",))
    raise GenerationError("no expanded tensor with both kinds of view options")


def build_viewable_shapes(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(24):
        shape, x_ops = noncontiguous_x(rng, "principal")
        chain = Chain(ctor_text("empty", shape), x_ops)
        draft = view_choices(rng, chain, "x", chain.tracked_shape(shape))
        if draft is not None:
            return draft
    raise GenerationError("no tensor with both kinds of view options")


FAMILIES = (
    Family(
        "expand_strides",
        "Strides of an expanded tensor",
        ("senior", "principal"),
        ("expand-broadcast", "stride"),
        build_expand_strides,
        "strides",
    ),
    Family(
        "expand_views",
        "Which views of an expanded tensor work?",
        ("senior",),
        ("expand-broadcast", "view-rule", "view"),
        build_expand_views,
    ),
    Family(
        "viewable_shapes",
        "Which shapes can this tensor be viewed as?",
        ("principal",),
        ("view-rule", "view", "stride"),
        build_viewable_shapes,
    ),
)
