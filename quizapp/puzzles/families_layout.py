"""Layout families: strides of a fresh tensor and the shape after a chain of calls."""

from __future__ import annotations

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, ctor_text, random_shape
from quizapp.puzzles.distractors import (
    STRIDE_MISTAKES,
    column_major_strides,
    in_bytes,
    inclusive_strides,
)
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    collect_mistakes,
    compute_single_trace_draft,
    free_stride_note,
    size_one_dims,
)
from quizapp.puzzles.rendering import code, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import CONCEPT_OF, rules_for
from quizapp.puzzles.tracing import itemsize, trace


def reshape_op(rng: PuzzleRng, shape: tuple[int, ...], negative: bool = False) -> Op | None:
    """A ``reshape`` to another grouping of the same elements (never fails: it may copy)."""
    return om.reshape_call(rng, rng.choice(om.regroupings(rng, shape)), "reshape")


def build_fresh_strides(rng: PuzzleRng, level: str) -> Draft:
    dtype = None
    if level == "junior":
        shape = random_shape(rng, rng.randint(2, 3), 2, 6)
    else:
        shape = tuple(1 if rng.chance(15) else rng.randint(2, 6) for _ in range(rng.randint(3, 5)))
        dtype = rng.choice(("float64", "float16", "int32", "int16", "uint8", "int64", "bfloat16"))
    chain = Chain(ctor_text(rng.choice(("empty", "zeros", "ones")), shape, dtype))
    tr = trace(chain.expr)
    stride = tr.final["stride"]
    free = size_one_dims(shape)
    mistakes = collect_mistakes(
        stride,
        [
            (column_major_strides(shape), STRIDE_MISTAKES["column_major"]),
            (
                inclusive_strides(shape),
                "A dim's stride multiplies together only the sizes of the dims that come "
                "*later*; leave the dim's own size out.",
            ),
            (in_bytes(stride, itemsize(tr.final)), STRIDE_MISTAKES["bytes"]),
            (
                list(shape),
                "That is the shape. The stride says how far one step along a dim moves in storage.",
            ),
        ],
        free,
    )
    unit = (
        f" Strides count elements, so the dtype ({tr.final['dtype']}) does not matter."
        if dtype
        else ""
    )
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=f"A tensor is freshly allocated. What does {code('x.stride()')} return?",
        answer_kind="tuple",
        answer=stride,
        oracle_expr="x.stride()",
        conclusion=(
            f"{code('x.stride()')} is {fmt_tuple(stride)}: in a fresh "
            f"(row-major) tensor a dim's stride is what all later dims hold together "
            f"(multiply their sizes, a size-1 dim counting as 1).{unit}"
            + free_stride_note(list(shape), stride)
        ),
        hints=(
            "A fresh tensor is row-major: the last dimension has stride 1 and every other "
            "dimension "
            "steps over one whole block of the dimensions to its right.",
            f"The last stride is {stride[-1]}; the one before it is {stride[-2]}, the size of the "
            f"last dimension (a size of 1 still counts as 1).",
        ),
        concepts=("stride", "shape") + (("dtype-itemsize",) if dtype else ()),
        mistakes=mistakes,
        free=free,
    )


SHAPE_MAKERS = {
    "junior": (reshape_op, om.transpose, om.permute, om.unsqueeze, om.flatten, om.squeeze),
    "middle": (
        reshape_op,
        om.transpose,
        om.permute,
        om.movedim,
        om.unsqueeze,
        om.squeeze,
        om.flatten,
        om.narrow,
        om.mT,
    ),
    "senior": (
        om.stepped_slice,
        om.select,
        om.unsqueeze,
        om.unflatten,
        om.unfold,
        om.diagonal,
        om.permute,
        om.flatten,
        om.split_piece,
        om.squeeze,
    ),
}
SHAPE_PLAN = {
    "junior": ((2, 3), (2, 6), (1, 1)),
    "middle": ((3, 4), (1, 5), (2, 3)),
    "senior": ((3, 4), (2, 6), (3, 5)),
}


def build_shape_after(rng: PuzzleRng, level: str) -> Draft:
    ranks, sizes, count = SHAPE_PLAN[level]
    for _attempt in range(8):  # a chain that ends where it started has nothing to get wrong
        shape = random_shape(rng, rng.randint(*ranks), *sizes)
        if level == "junior" and rng.chance(25):
            shape = shape[:1] + (1,) + shape[1:]
        ops = om.grow(
            rng, shape, SHAPE_MAKERS[level], rng.randint(*count), negative=level == "senior"
        )
        chain = Chain(ctor_text("empty", shape), (), ops)
        tr = trace(chain.expr)
        answer = tr.final["shape"]
        if answer != list(shape):
            break
    earlier = [
        (
            tr.steps[i]["shape"],
            f"That is the shape after step {i} "
            f"({code(tr.steps[i]['code'])}); the chain does not stop there.",
        )
        for i in range(len(tr.steps) - 2, -1, -1)
    ]
    if len(ops) > 1:
        strong = (
            f"After {code(tr.steps[1]['code'])} the shape is {fmt_tuple(tr.steps[1]['shape'])}."
        )
    else:
        strong = (
            f"x has {tr.steps[0]['numel']} elements in shape {fmt_tuple(shape)}; apply that rule "
            "once."
        )
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=f"What is {code('y.shape')}?",
        answer_kind="tuple",
        answer=answer,
        oracle_expr="y.shape",
        conclusion=f"{code('y.shape')} is {fmt_tuple(answer)}.",
        hints=(rules_for(op.kind for op in ops), strong),
        concepts=("shape",) + tuple(sorted({CONCEPT_OF.get(op.kind, "shape") for op in ops})),
        mistakes=collect_mistakes(answer, earlier),
    )


FAMILIES = (
    Family(
        "fresh_strides",
        "Strides of a fresh tensor",
        ("junior", "middle"),
        ("stride", "shape", "dtype-itemsize"),
        build_fresh_strides,
        "strides",
    ),
    Family(
        "shape_after",
        "Shape after a chain of calls",
        ("junior", "middle", "senior"),
        ("shape", "transpose-permute", "flatten-unflatten", "squeeze-unsqueeze", "slicing"),
        build_shape_after,
        "sizes",
    ),
)
