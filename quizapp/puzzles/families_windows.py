"""Value and window families: what tolist() prints, diagonal strides, as_strided for unfold."""

from __future__ import annotations

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import (
    Chain,
    Op,
    arange_text,
    ctor_text,
    end_shape,
    random_shape,
    tuple_text,
)
from quizapp.puzzles.distractors import contiguous_strides, nest
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    collect_mistakes,
    compute_single_trace_draft,
    compute_stride_question,
    explain_few_options,
    size_one_dims,
)
from quizapp.puzzles.rendering import LETTERS, code, explanation, fmt_text_value, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import CONCEPT_OF, rules_for
from quizapp.puzzles.tracing import GenerationError, Trace, trace, trace_outcome

TOLIST_PLAN = {
    "junior": ((2, 2), 2, 4, (om.t, om.transpose, om.stepped_slice, om.select, om.narrow), (1, 1)),
    "middle": (
        (3, 3),
        2,
        3,
        (om.permute, om.transpose, om.select, om.stepped_slice, om.movedim),
        (1, 2),
    ),
    "senior": ((1, 2), 3, 6, (om.unfold, om.diagonal, om.expand, om.stepped_slice, om.t), (2, 3)),
}
# Fewest calls y is made with, per level: a senior reads through two rearrangements at least
# (one expand of a 1-D arange is a junior's puzzle; tests/puzzles/test_puzzles_levels.py).
TOLIST_MIN_OPS = {"junior": 1, "middle": 1, "senior": 2}


def tolist_mistakes(tr: Trace, chain: Chain) -> list[tuple[str, str]]:
    """Reading storage in order, the first values poured into y's shape, x's own values."""
    y, x = tr.final, tr.steps[chain.x_step]
    in_order = list(range(y["storage_offset"], y["storage_offset"] + y["numel"]))
    found = [
        (
            fmt_text_value(nest(in_order, y["shape"])),
            "You read the storage in order from y's "
            f"offset; y visits it with strides {fmt_tuple(y['stride'])} instead.",
        ),
        (
            fmt_text_value(nest(list(range(y["numel"])), y["shape"])),
            "Those are the first values "
            f"of the storage poured into y's shape; y starts at offset {y['storage_offset']} and "
            f"walks with strides {fmt_tuple(y['stride'])}.",
        ),
    ]
    if x["shape"] == y["shape"]:
        found.append(
            (
                fmt_text_value(nest(list(range(x["numel"])), x["shape"])),
                "That is x.tolist(); y has the same shape but different strides.",
            )
        )
    return found


def build_tolist(rng: PuzzleRng, level: str) -> Draft:
    ranks, lo, hi, makers, count = TOLIST_PLAN[level]
    for _attempt in range(40):
        shape = random_shape(rng, rng.randint(*ranks), lo, hi)
        x_ops: tuple[Op, ...] = ()
        if level == "senior" and rng.chance(40):
            x_ops = (om.made(om.unsqueeze(rng, shape)),)
        start = end_shape(x_ops, shape)
        ops = om.grow(rng, start, makers, rng.randint(*count))
        chain = Chain(arange_text(shape), x_ops, ops)
        tr = trace(chain.expr)
        if len(ops) < TOLIST_MIN_OPS[level] or not 2 <= tr.final["numel"] <= 16:
            continue
        answer = fmt_text_value(tr.values)
        mistakes = collect_mistakes(answer, tolist_mistakes(tr, chain))
        if mistakes:
            break
    else:
        raise GenerationError("no tolist puzzle with a known wrong reading")
    y = tr.final
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=f"What does {code('y.tolist()')} return?",
        answer_kind="text",
        answer=answer,
        oracle_expr="str(y.tolist())",
        conclusion=f"{code('y.tolist()')} is {code(answer)}.",
        hints=(
            "Since x comes from arange, each value equals its storage position. Element "
            "y[i, j, ...] is at offset + i * stride[0] + j * stride[1] + ...",
            f"y has shape {fmt_tuple(y['shape'])}, strides {fmt_tuple(y['stride'])} and storage "
            f"offset {y['storage_offset']}.",
        ),
        concepts=("stride", "storage") + tuple(sorted({CONCEPT_OF[o.kind] for o in ops})),
        mistakes=mistakes,
    )


def build_diagonal_strides(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(8):  # until a known mistake differs where strides count
        shape = random_shape(rng, rng.randint(3, 4), 2, 6)
        x_ops = (om.made(om.permute(rng, shape)),) if rng.chance(50) else ()
        xs = end_shape(x_ops, shape)
        d1, d2 = rng.sample(range(len(xs)), 2)
        offset = rng.randint(-(xs[d1] - 1), xs[d2] - 1) if rng.chance(50) else 0
        k = min(xs[d1], xs[d2] - offset) if offset >= 0 else min(xs[d1] + offset, xs[d2])
        rest = tuple(s for i, s in enumerate(xs) if i not in (d1, d2))
        op = Op(f".diagonal(offset={offset}, dim1={d1}, dim2={d2})", rest + (k,), "diagonal")
        chain = Chain(ctor_text("empty", shape), x_ops, (op,))
        tr = trace(chain.expr)
        xst = tr.steps[chain.x_step]["stride"]
        kept = [s for i, s in enumerate(xst) if i not in (d1, d2)]
        inplace = list(kept)
        inplace.insert(min(d1, d2), xst[d1] + xst[d2])
        found = [
            (
                inplace,
                "The diagonal dim is not put where the two dims were: diagonal() removes both "
                "and appends the new dim at the end.",
            ),
            (
                kept + [xst[d1]],
                "One step along the diagonal moves one step along both dims at once, "
                f"so its stride is the sum {xst[d1]} + {xst[d2]}.",
            ),
            (
                kept + [xst[d2]],
                "One step along the diagonal moves one step along both dims at once, "
                f"so its stride is the sum {xst[d1]} + {xst[d2]}.",
            ),
            (
                contiguous_strides(tr.final["shape"]),
                "diagonal() is a view: it does not get fresh strides for its shape.",
            ),
        ]
        free = size_one_dims(tr.final["shape"])
        if collect_mistakes(tr.final["stride"], found, free) and len(free) < len(kept) + 1:
            break
    return compute_stride_question(
        chain,
        tr,
        because="; the offset argument only moves the storage offset (to "
        f"{tr.final['storage_offset']}), not the strides.",
        hints=(
            rules_for(["diagonal"]),
            f"x has strides {fmt_tuple(xst)}; drop dims {d1} and {d2} and append one dim.",
        ),
        concepts=("diagonal", "stride"),
        found=found,
    )


def window_candidates(
    rng: PuzzleRng, dims: tuple[int, ...], strides: tuple[int, ...], n: int, offset: int
) -> list[tuple[str, str]]:
    """as_strided argument texts for the right window and for the usual mistakes."""
    *outer, k, size = dims
    *outer_st, step, one = strides

    def call(shape: tuple[int, ...], st: tuple[int, ...], extra: str = "") -> str:
        return f".as_strided({tuple_text(shape)}, {tuple_text(st)}{extra})"

    right = call(tuple(dims), tuple(strides))
    found = [
        (
            call(tuple(dims), tuple(outer_st) + (one, step)),
            "The strides of the last two dims are swapped: windows start `step` apart and the "
            "elements inside a window are 1 apart.",
        ),
        (
            call(tuple(dims), tuple(contiguous_strides(dims))),
            "Those are the strides of a fresh tensor of the window shape, so the windows do not "
            "overlap the way unfold's do.",
        ),
        (
            call(tuple(outer) + (n // step, size), tuple(strides)),
            f"There are (n - size) // step + 1 = {k} windows, not n // step.",
        ),
        (
            call(tuple(outer) + (k - 1, size), tuple(strides)),
            f"There are (n - size) // step + 1 = {k} windows: the + 1 counts the window that "
            "starts at 0.",
        ),
        (
            call(tuple(dims), tuple(outer_st) + (size, one)),
            "Windows start `step` elements apart, so the window dim has stride step, not size.",
        ),
    ]
    if offset:
        found.insert(
            0,
            (
                call(tuple(dims), tuple(strides), ", 0"),
                "as_strided counts from the "
                "start of the storage: offset 0 ignores the slice; without the argument "
                "it keeps x's offset.",
            ),
        )
    unique: list[tuple[str, str]] = [(right, "")]
    for text, note in found:
        if text not in [u[0] for u in unique]:
            unique.append((text, note))
    return unique


def build_as_strided_window(rng: PuzzleRng, level: str) -> Draft:
    n = rng.randint(8, 14)
    rows = rng.randint(2, 3) if rng.chance(40) else 0
    skip = rng.randint(1, 3) if rng.chance(35) else 0
    shape = (rows, n + skip) if rows else (n + skip,)
    slicer = (
        []
        if not skip
        else [Op(("[:, " if rows else "[") + f"{skip}:]", (rows, n) if rows else (n,), "slice")]
    )
    chain = Chain(arange_text(shape), tuple(slicer))
    size = rng.randint(2, 4)
    step = rng.randint(1, size)
    dim = 1 if rows else 0
    target = trace(chain.expr + f".unfold({dim}, {size}, {step})")
    dims, strides = tuple(target.final["shape"]), tuple(target.final["stride"])
    options = window_candidates(rng, dims, strides, n, skip)
    picked = [0] + rng.sample(range(1, len(options)), min(3, len(options) - 1))
    traces = [trace_outcome(chain.expr + options[i][0]) for i in picked]
    want = (target.final["shape"], target.values)
    good = [
        i
        for i, t in zip(picked, traces, strict=True)
        if t.error is None and (t.final["shape"], t.values) == want
    ]
    if good != [0]:  # the engine, not the construction, decides which option is right
        raise GenerationError(f"expected only the first window option to match, got {good}")
    order = rng.shuffled(picked)
    texts = ["x" + options[i][0] for i in order]
    answer = LETTERS[order.index(0)]
    notes = tuple(options[i][1] or "This one matches unfold exactly." for i in order)
    builders = ",\n    ".join(f"lambda: {t}" for t in texts)
    tail = (
        f"target = x.unfold({dim}, {size}, {step})\nbuilders = [\n    {builders},\n]\n"
        f"answer = None\nfor letter, build in zip({LETTERS[: len(texts)]!r}, builders):\n"
        "    try:\n        if torch.equal(build(), target):\n            answer = letter\n"
        "    except RuntimeError:\n        pass"
    )
    return Draft(
        prompt=explain_few_options(
            f"Which call builds the same tensor as {code(f'x.unfold({dim}, {size}, {step})')} "
            "(same shape, same values)?", len(texts),
            "the other usual mistakes give one of these same calls here"),
        code=chain.code(),
        answer_kind="choice",
        answer=answer,
        choices=tuple(texts),
        notes=notes,
        oracle_tail=tail,
        explanation=explanation(
            [target],
            f"({answer}) {code(texts[order.index(0)])} matches: "
            f"shape {fmt_tuple(dims)} and strides {fmt_tuple(strides)}, "
            "starting at x's own storage offset.",
        ),
        hints=(
            rules_for(["unfold"]),
            f"x has shape {fmt_tuple(target.steps[chain.x_step]['shape'])} and strides "
            f"{fmt_tuple(target.steps[chain.x_step]['stride'])}; windows start {step} apart.",
        ),
        concepts=("as-strided", "unfold", "stride"),
        traced=(target.expr,) + tuple(t.expr for t in traces),
    )


FAMILIES = (
    Family(
        "tolist",
        "What does tolist() print?",
        ("junior", "middle", "senior"),
        ("stride", "storage", "transpose-permute", "slicing"),
        build_tolist,
    ),
    Family(
        "diagonal_strides",
        "Strides of diagonal()",
        ("principal",),
        ("diagonal", "stride"),
        build_diagonal_strides,
        "strides",
    ),
    Family(
        "as_strided_window",
        "as_strided arguments for a sliding window",
        ("principal",),
        ("as-strided", "unfold", "stride"),
        build_as_strided_window,
    ),
)
