"""Contiguity families: is_contiguous after calls and the size-1 exemption."""

from __future__ import annotations

from collections.abc import Callable

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, ctor_text, random_shape
from quizapp.puzzles.distractors import (
    contiguous_strides,
    naive_contiguous,
)
from quizapp.puzzles.drafts import Draft, Family, Mistake, compute_single_trace_draft
from quizapp.puzzles.rendering import code, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import CONCEPT_OF, rules_for
from quizapp.puzzles.tracing import Trace, trace

CONTIG_MAKERS = {
    "junior": (
        om.transpose,
        om.t,
        om.stepped_slice,
        om.narrow,
        om.unsqueeze,
        om.flatten,
        om.select,
    ),
    "middle": (
        om.transpose,
        om.permute,
        om.narrow,
        om.select,
        om.stepped_slice,
        om.unsqueeze,
        om.squeeze,
        om.mT,
    ),
}


def contiguity_reason(step: dict, contiguous: bool) -> str:
    shape, stride = step["shape"], step["stride"]
    row_major = contiguous_strides(shape)
    wanted = fmt_tuple(row_major)
    if contiguous:
        if list(stride) == row_major:
            return (f"y is contiguous: its strides {fmt_tuple(stride)} are the row-major strides "
                    f"for shape {fmt_tuple(shape)}.")
        return (
            f"y is contiguous: its strides {fmt_tuple(stride)} match the row-major strides "
            f"{wanted} for shape {fmt_tuple(shape)} once size-1 dims are set aside (their "
            f"strides never count)."
        )
    return (
        f"y is not contiguous: shape {fmt_tuple(shape)} needs strides {wanted} "
        f"(size-1 dims aside), but y has {fmt_tuple(stride)}."
    )


def tracing_hint(chain: Chain, then: str) -> str:
    """How to get y's strides without stating them: the rules of its calls, then what to do
    with the strides. Stating them (or the row-major ones) would leave only a lookup."""
    rules = rules_for(op.kind for op in chain.y_ops)
    return (f"{rules} x is fresh, so it starts with the row-major strides of its shape; carry "
            f"them through each call to get y's shape and strides, then {then}").lstrip()


def balanced_chain(
    rng: PuzzleRng,
    make: Callable[[], Chain],
    probe: Callable[[Trace], bool],
    traced: Callable[[Chain], str] = lambda chain: chain.expr,
) -> tuple[Chain, Trace]:
    """Draw chains until ``probe`` of the trace of ``traced(chain)`` matches a coin flip.

    Gives up after 10 tries and keeps the last chain, so yes and no come out about equally often.
    """
    want = rng.chance(50)
    for _attempt in range(10):
        chain = make()
        tr = trace(traced(chain))
        if probe(tr) == want:
            break
    return chain, tr


def build_contiguous_after(rng: PuzzleRng, level: str) -> Draft:
    def make() -> Chain:
        shape = random_shape(
            rng, rng.randint(2, 3) if level == "junior" else rng.randint(3, 4), 2, 6
        )
        count = 1 if level == "junior" else rng.randint(2, 3)
        return Chain(
            ctor_text("empty", shape), (), om.grow(rng, shape, CONTIG_MAKERS[level], count)
        )

    chain, tr = balanced_chain(rng, make, lambda t: t.final["is_contiguous"])
    answer = tr.final["is_contiguous"]
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=f"Is {code('y')} contiguous, that is, what does {code('y.is_contiguous()')} return?",
        answer_kind="bool",
        answer=answer,
        oracle_expr="y.is_contiguous()",
        conclusion=contiguity_reason(tr.final, answer),
        hints=(
            "A tensor is contiguous when, leaving out every dim of size 1 (with one entry its "
            "stride is never used), its strides are the row-major strides of its shape: stride 1 "
            "for the last dim, and for any other dim the number of elements all later dims hold "
            "together.",
            tracing_hint(chain, "compare them with the row-major strides of y's shape, dim "
                         "by dim."),
        ),
        concepts=("contiguity",) + tuple(sorted({CONCEPT_OF[o.kind] for o in chain.y_ops})),
        mistakes=(Mistake(not answer, contiguity_reason(tr.final, answer)),),
    )


def size_one_chain(rng: PuzzleRng, exempt: bool) -> Chain:
    """A result with a size-1 dim; with ``exempt`` its odd stride is the only thing off."""
    a, b = random_shape(rng, 2, 2, 6)
    form = rng.below(3)
    if exempt and form == 0:  # a size-1 dim swapped with a neighbour: the others keep their order
        shape = [a, b]
        pos = rng.randint(0, 2)
        shape.insert(pos, 1)
        other = pos + 1 if pos == 0 or (pos < 2 and rng.chance(50)) else pos - 1
        out = list(shape)
        out[pos], out[other] = out[other], out[pos]
        return Chain(
            ctor_text("empty", tuple(shape)),
            (),
            (Op(f".transpose({pos}, {other})", tuple(out), "transpose"),),
        )
    if exempt and form == 1:  # one column of a transposed matrix
        k = rng.below(a)
        return Chain(
            ctor_text("empty", (a, b)),
            (),
            (Op(".t()", (b, a), "t"), Op(f"[:, {k}:{k + 1}]", (b, 1), "slice")),
        )
    if exempt:  # a new size-1 dim moved inwards
        d = rng.randint(0, 1)
        return Chain(
            ctor_text("empty", (a, b)),
            (),
            (
                Op(f".unsqueeze({d})", (a, b)[:d] + (1,) + (a, b)[d:], "unsqueeze"),
                Op(
                    f".transpose({d}, {d + 1})",
                    (a, b)[: d + 1] + (1,) + (a, b)[d + 1 :],
                    "transpose",
                ),
            ),
        )
    if form == 0:  # one row of a transposed matrix
        k = rng.below(b)
        return Chain(
            ctor_text("empty", (a, b)),
            (),
            (Op(".t()", (b, a), "t"), Op(f"[{k}:{k + 1}]", (1, a), "slice")),
        )
    if form == 1:  # a one-wide slice of an inner dim
        c = rng.randint(2, 5)
        k = rng.below(b)
        part = rng.choice((f"[:, {k}:{k + 1}]", f".narrow(1, {k}, 1)"))
        return Chain(ctor_text("empty", (a, b, c)), (), (Op(part, (a, 1, c), "slice"),))
    shape = [a, b]
    shape.insert(1, 1)  # a size-1 dim in the middle, then the outer dims swapped
    return Chain(
        ctor_text("empty", tuple(shape)), (), (Op(".transpose(0, 2)", (b, 1, a), "transpose"),)
    )


def build_size_one_contiguity(rng: PuzzleRng, level: str) -> Draft:
    want_exemption = rng.chance(70)
    for _attempt in range(6):
        chain = size_one_chain(rng, want_exemption)
        tr = trace(chain.expr)
        final = tr.final
        matters = naive_contiguous(final["shape"], final["stride"]) != final["is_contiguous"]
        if 1 in final["shape"] and matters == want_exemption:
            break
    answer = final["is_contiguous"]
    reason = contiguity_reason(final, answer)
    if matters:
        reason += (
            " Only the stride of a size-1 dim breaks the row-major pattern, and a dim you "
            "can never step along does not count."
        )
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=f"What does {code('y.is_contiguous()')} return?",
        answer_kind="bool",
        answer=answer,
        oracle_expr="y.is_contiguous()",
        conclusion=reason,
        hints=(
            "Contiguity compares strides with the row-major strides of the shape, skipping every "
            "dim of size 1: with one entry there is never a step to take.",
            tracing_hint(chain, "cross out the size-1 dims and check the rest against the "
                         "row-major strides of y's shape."),
        ),
        concepts=("contiguity", "size-one-exemption"),
        mistakes=(Mistake(not answer, reason),),
    )


FAMILIES = (
    Family(
        "contiguous_after",
        "Is it contiguous after these calls?",
        ("junior", "middle"),
        ("contiguity", "transpose-permute", "slicing"),
        build_contiguous_after,
    ),
    Family(
        "size_one_contiguity",
        "Contiguity and the size-1 exemption",
        ("senior",),
        ("contiguity", "size-one-exemption"),
        build_size_one_contiguity,
    ),
)
