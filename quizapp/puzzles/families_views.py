"""View families: will view() work, does reshape alias, is storage still shared."""

from __future__ import annotations

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, arange_text, ctor_text, end_shape, random_shape
from quizapp.puzzles.drafts import Draft, Family, Mistake, compute_single_trace_draft
from quizapp.puzzles.families_layout import reshape_op
from quizapp.puzzles.rendering import code, explanation, fmt_tuple, sentence
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.tracing import Trace, trace, trace_outcome

SHARES_STORAGE = "y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()"
VIEW_RULE = (
    "A view needs every group of old dims that is merged to be one chunk of mutually "
    "contiguous dims: stride[i] == stride[i + 1] * size[i + 1] inside the group."
)


def view_reason(tr: Trace) -> str:
    """Why the last call worked (its step's why) or failed (the error's why)."""
    if tr.error is None:
        return f"It works: {sentence(tr.final['why'])}"
    return f"It fails with {code(tr.error_text())}. {sentence(tr.error_why())}".rstrip()


def view_verdict(tr: Trace) -> str:
    """The answer in a line: the steps above quote torch's message and say why."""
    if tr.error is None:
        return f"It works: {sentence(tr.final['why'])}"
    return f"It fails: step {tr.error['step']} raises {code(tr.error['type'])}."


def noncontiguous_x(rng: PuzzleRng, level: str) -> tuple[tuple[int, ...], tuple[Op, ...]]:
    """A base shape and the calls that make x (often non-contiguous) from it."""
    if level == "middle":
        shape = random_shape(rng, rng.randint(2, 3), 2, 5)
        ops = (om.made(om.permute(rng, shape)),) if rng.chance(75) else ()
        return shape, ops
    shape = random_shape(rng, rng.randint(2, 3), 2, 6)
    makers = (om.stepped_slice, om.narrow, om.transpose, om.permute, om.unsqueeze, om.expand)
    return shape, om.grow(rng, shape, makers, rng.randint(1, 2))


def build_view_possible(rng: PuzzleRng, level: str) -> Draft:
    want = rng.chance(50)
    for _attempt in range(30):
        shape, x_ops = noncontiguous_x(rng, level)
        x_shape = end_shape(x_ops, shape)
        call = om.reshape_call(rng, rng.choice(om.regroupings(rng, x_shape)), "view")
        chain = Chain(ctor_text("empty", shape), x_ops, (call,))
        tr = trace_outcome(chain.expr)
        # A senior's x is never contiguous (tests/puzzles/test_puzzles_levels.py): for a
        # contiguous x, such as a permute undone by another, every view works.
        plain = level == "senior" and tr.steps[chain.x_step]["is_contiguous"]
        if (tr.error is None) == want and not plain:
            break
    answer = tr.error is None
    x = tr.steps[chain.x_step]
    call_text = "x" + call.text
    return Draft(
        prompt=f"Does {code(call_text)} succeed (rather than raise an error)?",
        code=Chain(chain.ctor, x_ops).code(),
        answer_kind="bool",
        answer=answer,
        oracle_tail=f"try:\n    x{call.text}\n    answer = True\nexcept RuntimeError:\n"
        "    answer = False",
        explanation=explanation([tr], view_verdict(tr)),
        hints=(
            VIEW_RULE,
            f"x has shape {fmt_tuple(x['shape'])} and strides "
            f"{fmt_tuple(x['stride'])}; find which old dims each new size is made of.",
        ),
        concepts=("view-rule", "view", "stride"),
        mistakes=(Mistake(not answer, view_verdict(tr)),),
        traced=(chain.expr,),
    )


def build_reshape_alias(rng: PuzzleRng, level: str) -> Draft:
    want = rng.chance(50)
    for _attempt in range(10):
        base, x_ops = noncontiguous_x(rng, level)
        x_shape = end_shape(x_ops, base)
        target = rng.choice(om.regroupings(rng, x_shape))
        call = om.reshape_call(rng, target, "reshape")
        if len(target) == 1 and rng.chance(50):
            call = Op(rng.choice((".flatten()", ".ravel()")), target, "flatten")
        chain = Chain(arange_text(base), x_ops, (call,))
        tr = trace(chain.expr)
        if (tr.copied_at(chain.x_step) is None) == want:
            break
    alias = tr.copied_at(chain.x_step) is None
    reason = f"{'It is a view of x' if alias else 'It is a copy'}: {sentence(tr.final['why'])}"
    return compute_single_trace_draft(
        chain,
        tr,
        prompt="Does `y` share storage with `x` (would writing into `y` change `x`)?",
        answer_kind="bool",
        answer=alias,
        oracle_expr=SHARES_STORAGE,
        conclusion=reason,
        hints=(
            # ravel is contiguous().view(-1), not reshape(-1): it copies a non-contiguous x
            # even where view(-1) would work (and that copy still says _is_view()).
            "ravel() is contiguous().view(-1): it returns a view only when x is already "
            "contiguous, and copies otherwise, even where view(-1) would succeed."
            if call.text == ".ravel()"
            else f"{'flatten' if call.kind == 'flatten' else 'reshape'} returns a view whenever "
            "view() would succeed, and a copy otherwise. " + VIEW_RULE,
            f"x has shape {fmt_tuple(tr.steps[chain.x_step]['shape'])} and strides "
            f"{fmt_tuple(tr.steps[chain.x_step]['stride'])}.",
        ),
        concepts=("reshape", "view-rule", "aliasing-tests"),
        mistakes=(Mistake(not alias, reason),),
    )


def copy_op(rng: PuzzleRng, shape: tuple[int, ...], negative: bool = False) -> Op | None:
    """``contiguous()``, ``detach()`` or (rarely) ``clone()``: calls that may or may not copy."""
    roll = rng.below(10)
    if roll < 5:
        return Op(".contiguous()", shape, "contiguous")
    if roll < 8:
        return Op(".detach()", shape, "detach")
    if len(shape) == 4 and roll == 8:
        return Op(".contiguous(memory_format=torch.channels_last)", shape, "contiguous")
    return Op(".clone()", shape, "clone")


SHARE_MAKERS = {
    "senior": (om.transpose, reshape_op, om.flatten, copy_op, om.stepped_slice, om.unsqueeze),
    "principal": (
        om.permute,
        reshape_op,
        om.flatten,
        copy_op,
        copy_op,
        om.stepped_slice,
        om.expand,
        om.unfold,
        om.select,
    ),
}


def build_shares_storage(rng: PuzzleRng, level: str) -> Draft:
    want = rng.chance(50)
    count = (2, 3) if level == "senior" else (3, 5)
    for _attempt in range(10):
        shape = random_shape(rng, rng.randint(2, 4), 2, 5)
        chain = Chain(
            ctor_text("empty", shape),
            (),
            om.grow(rng, shape, SHARE_MAKERS[level], rng.randint(*count)),
        )
        tr = trace(chain.expr)
        if (tr.copied_at(0) is None) == want:
            break
    at = tr.copied_at(0)
    if at is None:
        reason = "Yes: every call returned a view of x's storage (or x itself)."
    else:
        reason = (
            f"No: step {at} ({code(tr.steps[at]['code'])}) copied the data into new "
            "storage, and everything after it works on that copy."
        )
    return compute_single_trace_draft(
        chain,
        tr,
        prompt="After this chain, does `y` still share storage with `x`?",
        answer_kind="bool",
        answer=at is None,
        oracle_expr=SHARES_STORAGE,
        conclusion=reason,
        hints=(
            "Only reshape/flatten (when no view is possible), contiguous() (when the input is not "
            "already contiguous in that format) and clone() copy; detach() shares storage.",
            "Walk the chain and write down the strides each call receives; at every reshape, "
            "flatten or contiguous ask whether a view of those strides is possible.",
        ),
        concepts=("aliasing-tests", "storage", "contiguous", "reshape"),
        mistakes=(Mistake(at is not None, reason),),
    )


FAMILIES = (
    Family(
        "view_possible",
        "Will view() succeed?",
        ("middle", "senior"),
        ("view-rule", "view", "stride"),
        build_view_possible,
    ),
    Family(
        "reshape_alias",
        "Does reshape alias or copy?",
        ("middle", "senior"),
        ("reshape", "view-rule", "aliasing-tests"),
        build_reshape_alias,
    ),
    Family(
        "shares_storage",
        "Does the result still share storage?",
        ("senior", "principal"),
        ("aliasing-tests", "storage", "contiguous", "reshape"),
        build_shares_storage,
    ),
)
