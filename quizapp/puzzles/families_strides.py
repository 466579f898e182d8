"""Stride families: strides after reorders, slices and windows; strides of stepped slices."""

from __future__ import annotations

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, ctor_text, end_shape, random_shape
from quizapp.puzzles.distractors import (
    STRIDE_MISTAKES,
    contiguous_strides,
    in_bytes,
)
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    collect_mistakes,
    compute_single_trace_draft,
    compute_stride_question,
    free_stride_note,
    size_one_dims,
    to_choice,
)
from quizapp.puzzles.rendering import code, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import CONCEPT_OF, rules_for
from quizapp.puzzles.tracing import Trace, itemsize, trace


def stride_mistakes(tr: Trace, first: int) -> list[tuple[list[int] | None, str]]:
    """Contiguous strides of the final shape, the strides one call earlier, and byte strides
    (None for a one-byte dtype, where they are the same numbers)."""
    final = tr.final
    found: list[tuple[list[int] | None, str]] = [(contiguous_strides(final["shape"]), STRIDE_MISTAKES["contiguous"])]
    if len(tr.steps) - 1 > first:
        prev = tr.steps[-2]
        if len(prev["stride"]) == len(final["stride"]):
            found.append(
                (prev["stride"], STRIDE_MISTAKES["previous"].format(code=code(final["code"])))
            )
    found.append((in_bytes(final["stride"], itemsize(final)), STRIDE_MISTAKES["bytes"]))
    return found


STRIDE_MAKERS = {
    "middle": (om.transpose, om.permute, om.movedim, om.mT),
    "senior": (
        om.transpose,
        om.permute,
        om.stepped_slice,
        om.select,
        om.narrow,
        om.unsqueeze,
        om.movedim,
        om.split_piece,
    ),
    "principal": (
        om.permute,
        om.stepped_slice,
        om.unfold,
        om.diagonal,
        om.expand,
        om.unsqueeze,
        om.movedim,
        om.mT,
        om.split_piece,
        om.unflatten,
    ),
}
STRIDE_COUNT = {"middle": (1, 3), "senior": (2, 4), "principal": (3, 6)}


def build_strides_after(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(8):
        shape = random_shape(rng, rng.randint(3, 4), 2, 5 if level == "middle" else 6)
        x_ops = (om.made(om.permute(rng, shape)),) if level != "middle" and rng.chance(40) else ()
        start = end_shape(x_ops, shape)
        ops = om.grow(
            rng,
            start,
            STRIDE_MAKERS[level],
            rng.randint(*STRIDE_COUNT[level]),
            negative=level != "middle",
        )
        chain = Chain(ctor_text("empty", shape), x_ops, ops)
        tr = trace(chain.expr)
        graded = len(tr.final["shape"]) - len(size_one_dims(tr.final["shape"]))
        if tr.final["stride"] != contiguous_strides(tr.final["shape"]) and graded >= 2:
            break  # strides to work out, on at least two dims whose stride counts
    answer = tr.final["stride"]
    free = size_one_dims(tr.final["shape"])
    first = chain.x_step
    # The strides after the first call, unless the calls after it leave them as they are:
    # then they are the answer itself (a choice puzzle's right option, spelled out).
    if len(ops) > 1 and tr.steps[first + 1]["stride"] != answer:
        strong = (
            f"x has strides {fmt_tuple(tr.steps[first]['stride'])}; after "
            f"{code(tr.steps[first + 1]['code'])} they are "
            f"{fmt_tuple(tr.steps[first + 1]['stride'])}."
        )
    elif len(ops) > 1:
        strong = (
            f"x has strides {fmt_tuple(tr.steps[first]['stride'])}; carry them through each "
            "call in turn, each stride moving with its size."
        )
    else:
        strong = (
            f"x has strides {fmt_tuple(tr.steps[first]['stride'])}; the call moves each "
            "stride together with its size."
        )
    draft = compute_single_trace_draft(
        chain,
        tr,
        prompt=f"What does {code('y.stride()')} return?",
        answer_kind="tuple",
        answer=answer,
        oracle_expr="y.stride()",
        conclusion=f"{code('y.stride()')} is {fmt_tuple(answer)}."
        + free_stride_note(tr.final["shape"], answer),
        hints=(rules_for(op.kind for op in ops), strong),
        concepts=("stride",) + tuple(sorted({CONCEPT_OF[op.kind] for op in ops})),
        mistakes=collect_mistakes(answer, stride_mistakes(tr, first), free),
        free=free,
    )
    return to_choice(draft, rng) if level == "middle" else draft


def stepped_slice_op(rng: PuzzleRng, shape: tuple[int, ...], dims: list[int]) -> Op:
    """``x[a::k, ...]`` with a step of 2 or 3 on each of ``dims``."""
    parts = [":"] * len(shape)
    out = list(shape)
    for d in dims:
        step = rng.randint(2, 3)
        start = rng.randint(0, min(2, shape[d] - 2))
        parts[d] = om.slice_text(start, None, step)
        out[d] = len(range(start, shape[d], step))
    return Op(om.index_text(parts), tuple(out), "slice")


def build_slice_strides(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(12):  # until at least two dims whose stride counts are left
        if level == "middle":
            shape = random_shape(rng, 2, 4, 9)
            x_ops: tuple[Op, ...] = ()
        else:
            shape = random_shape(rng, rng.randint(3, 4), 3, 7)
            x_ops = (om.made(om.permute(rng, shape)),) if rng.chance(50) else ()
        start = end_shape(x_ops, shape)
        dims = sorted(rng.sample(range(len(start)), rng.randint(1, 2 if level == "middle" else 3)))
        ops: tuple[Op, ...] = (stepped_slice_op(rng, start, dims),)
        if level == "senior":
            more = (om.narrow, om.select, om.transpose)
            ops += om.grow(rng, ops[-1].shape, more, rng.randint(0, 2))
        chain = Chain(ctor_text("empty", shape), x_ops, ops)
        tr = trace(chain.expr)
        if len(tr.final["shape"]) - len(size_one_dims(tr.final["shape"])) >= 2:
            break
    answer = tr.final["stride"]
    x_stride = tr.steps[chain.x_step]["stride"]
    found = stride_mistakes(tr, chain.x_step)
    if len(x_stride) == len(answer):
        found.insert(
            0,
            (
                x_stride,
                "Those are x's strides: a step of k in a slice multiplies that dim's stride by k.",
            ),
        )
    return compute_stride_question(
        chain,
        tr,
        because=": slicing copies nothing, it only scales the strides of stepped dims.",
        hints=(
            rules_for(op.kind for op in ops),
            f"x.stride() is {fmt_tuple(x_stride)}; multiply the stride of each stepped dim by "
            "its step.",
        ),
        concepts=("stride", "slicing"),
        found=found,
    )


FAMILIES = (
    Family(
        "strides_after",
        "Strides after reorders, slices and windows",
        ("middle", "senior", "principal"),
        ("stride", "transpose-permute", "slicing", "unfold", "diagonal", "expand-broadcast"),
        build_strides_after,
        "strides",
    ),
    Family(
        "slice_strides",
        "Strides of a stepped slice",
        ("middle", "senior"),
        ("stride", "slicing"),
        build_slice_strides,
        "strides",
    ),
)
