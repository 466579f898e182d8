"""Copy families: strides of clone(), bytes copied by contiguous(), which op order avoids a copy."""

from __future__ import annotations

from math import prod

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, ctor_text, random_shape
from quizapp.puzzles.distractors import contiguous_strides
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    collect_mistakes,
    compute_single_trace_draft,
    compute_stride_question,
    size_one_dims,
)
from quizapp.puzzles.rendering import LETTERS, code, explanation, fmt_tuple, sentence
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import rules_for
from quizapp.puzzles.tracing import GenerationError, Trace, itemsize, trace

CLONE = Op(".clone()", (), "clone")


def clone_source(rng: PuzzleRng, level: str) -> tuple[str, tuple[Op, ...]]:
    """The constructor and calls that make the x being cloned."""
    shape = random_shape(rng, rng.randint(2, 4), 2, 5)
    if level == "senior" or rng.chance(40):
        makers = (om.permute, om.transpose, om.stepped_slice, om.narrow)
        return ctor_text("empty", shape), om.grow(rng, shape, makers, rng.randint(1, 2))
    form = rng.below(3)
    if form == 0:  # broadcast dims (stride 0)
        # expand applies to the size-1 dim the unsqueeze made.
        ops: tuple[Op, ...] = (om.made(om.unsqueeze(rng, shape)),)
        ops += (om.made(om.expand(rng, ops[-1].shape)),)
        return ctor_text("empty", shape), ops + om.grow(rng, ops[-1].shape, (om.transpose,), 1)
    if form == 1:  # a channels-last tensor, then sliced
        nchw = random_shape(rng, 4, 2, 5)
        ops = (Op(".contiguous(memory_format=torch.channels_last)", nchw, "contiguous"),)
        return ctor_text("empty", nchw), ops + (om.made(om.stepped_slice(rng, nchw)),)
    # an overlapping as_strided window view of a 1-D buffer
    n = rng.randint(8, 12)
    rows, cols = rng.randint(2, 4), rng.randint(2, 4)
    step = rng.randint(1, max(1, (n - cols) // max(rows - 1, 1)))
    window = (rows, cols)
    op = Op(f".as_strided({window}, ({step}, 1))", window, "as_strided")
    return ctor_text("empty", (n,)), (op,)


def compute_dense_order_text(shape: tuple, stride: tuple, answer: tuple) -> str:
    """How clone() ordered x's dims (at::infer_dense_strides), naming the rules this x needs."""
    order = sorted(range(len(shape)), key=lambda d: (answer[d], -d))  # innermost first
    rules = ["starting from row-major order, the dims are sorted by stride, smallest innermost"]
    if 0 in stride:
        rules.append("a stride-0 dim is not compared with the others, so it keeps its "
                     "row-major place")
    nonzero = [s for s in stride if s]
    if len(set(nonzero)) < len(nonzero):
        rules.append("of two equal strides the smaller size goes inside")
    dims = ", ".join(f"dim {d} (size {shape[d]})" for d in order)
    return (f"{'; '.join(rules)}. Innermost first that is {dims}, and dense strides filled in "
            f"that order are {fmt_tuple(answer)}.")


def build_clone_strides(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(8):  # a row-major x clones to row-major strides: nothing to learn
        ctor, x_ops = clone_source(rng, level)
        chain = Chain(ctor, x_ops, (CLONE,))
        tr = trace(chain.expr)
        answer = tr.final["stride"]
        x = tr.steps[chain.x_step]
        dense = contiguous_strides(x["shape"])
        found = [
            (
                dense,
                "Those are row-major strides. clone() keeps x's memory order "
                "(preserve_format): the same strides when x is dense, otherwise dense strides in "
                "x's stride order.",
            ),
            (
                x["stride"],
                "Those are x's own strides, but the copy is dense: it has no gaps from "
                "slicing, no zero strides from expand and no overlap.",
            ),
        ]
        free = size_one_dims(tr.final["shape"])
        if collect_mistakes(answer, found, free) and len(free) < len(answer):
            break  # a known mistake to answer, and some dim whose stride counts
    because = ": " + (
        "x is dense (non-overlapping, no gaps), so the copy keeps its strides exactly."
        if x["stride"] == answer
        else f"x is not dense, so the copy gets fresh dense strides in x's order: "
        f"{compute_dense_order_text(x['shape'], x['stride'], answer)}"
    )
    return compute_stride_question(
        chain,
        tr,
        prompt=f"{code('y = x.clone()')} copies x. What does {code('y.stride()')} return?",
        because=because,
        hints=(
            "clone() uses preserve_format: a dense input keeps its strides; any other input gets "
            "dense strides laid out in the order of its own strides.",
            f"x has shape {fmt_tuple(x['shape'])} and strides {fmt_tuple(x['stride'])}. Starting "
            "from row-major order, sort the dims by stride, smallest innermost (a stride-0 dim "
            "keeps its place; of equal strides the smaller size goes inside), then fill in dense "
            "strides innermost first.",
        ),
        concepts=("clone", "memory-format", "non-overlapping-dense", "stride"),
        found=found,
    )


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "bfloat16")


def exempt_contiguous_ops(rng: PuzzleRng, shape: tuple[int, ...]) -> tuple[Op, ...]:
    """Calls leaving x contiguous although its strides are not the row-major ones: a new size-1
    dim swapped with its right neighbour keeps an odd stride (the size-1 exemption)."""
    d = rng.randint(0, len(shape) - 1)
    inserted = shape[:d] + (1,) + shape[d:]
    swapped = inserted[:d] + (inserted[d + 1], 1) + inserted[d + 2 :]
    ops: tuple[Op, ...] = (Op(f".unsqueeze({d})", inserted, "unsqueeze"),
                           Op(f".transpose({d}, {d + 1})", swapped, "transpose"))
    if rng.chance(50):  # a narrow of the outermost dim keeps it contiguous, at an offset
        ops += (Op(f".narrow(0, 1, {swapped[0] - 1})", (swapped[0] - 1,) + swapped[1:], "narrow"),)
    return ops


# What a principal must see through (tests/puzzles/test_puzzles_levels.py): x is made by two
# calls or more, and an x that needs no copy is contiguous only by the size-1 exemption.
BYTES_MIN_OPS = 2


def build_contiguous_bytes(rng: PuzzleRng, level: str) -> Draft:
    want_copy = rng.chance(55)
    makers = (om.permute, om.stepped_slice, om.narrow, om.select, om.transpose, om.expand)
    for _attempt in range(24):
        shape = random_shape(rng, rng.randint(2, 4), 2, 6)
        dtype = rng.choice(DTYPES)
        if want_copy:
            x_ops = om.grow(rng, shape, makers, rng.randint(BYTES_MIN_OPS, 3))
        else:
            x_ops = exempt_contiguous_ops(rng, shape)
        chain = Chain(
            ctor_text(rng.choice(("empty", "zeros")), shape, dtype),
            x_ops,
            (Op(".contiguous()", (), "contiguous"),),
        )
        tr = trace(chain.expr)
        x, y = tr.steps[chain.x_step], tr.final
        copied = tr.copied_at(chain.x_step) is not None
        if len(x_ops) >= BYTES_MIN_OPS and copied == want_copy:
            break
    else:
        raise GenerationError("no contiguous_bytes chain of the wanted kind")
    size = itemsize(y)
    answer = y["numel"] * size if copied else 0
    found = [
        (
            y["numel"],
            f"That is the number of elements; each {y['dtype']} element is {plural(size, 'byte')}.",
        ),
        (
            0 if copied else x["numel"] * size,
            "x is not contiguous, so contiguous() has to copy."
            if copied
            else "x is already contiguous, so contiguous() returns x itself and copies nothing.",
        ),
        (
            tr.steps[0]["numel"] * size,
            "That is the whole original storage; contiguous() copies only the elements x shows.",
        ),
        (
            y["numel"] * 4,
            f"That assumes 4-byte elements; {y['dtype']} elements take {plural(size, 'byte')}.",
        ),
    ]
    if copied:
        conclusion = (
            f"x is not contiguous, so contiguous() copies all {y['numel']} elements it "
            f"shows (broadcast ones included) at {plural(size, 'byte')} each: {answer} bytes."
        )
    else:
        conclusion = (
            f"x is already contiguous: its strides {fmt_tuple(x['stride'])} differ from the "
            f"row-major {fmt_tuple(contiguous_strides(x['shape']))} only on size-1 dims, whose "
            "stride never counts. So contiguous() returns x itself: 0 bytes."
        )
    return compute_single_trace_draft(
        chain,
        tr,
        prompt=f"How many bytes of tensor data does {code('y = x.contiguous()')} copy?",
        answer_kind="int",
        answer=answer,
        oracle_expr="0 if y is x else y.numel() * y.element_size()",
        conclusion=conclusion,
        hints=(
            "contiguous() returns the tensor itself when it is already contiguous; otherwise it "
            "writes every element the tensor shows into fresh memory.",
            # Not x's strides: whether they are row-major decides 0 or every element, so
            # stated they leave only a lookup.
            (f"{rules_for(op.kind for op in x_ops)} Carry the row-major strides x's constructor "
             "gives through its calls to get x's shape and strides, then compare them with the "
             f"row-major strides of that shape, size-1 dims aside. x holds {x['dtype']}, "
             f"{plural(size, 'byte')} per element.").lstrip(),
        ),
        concepts=("contiguous", "dtype-itemsize", "performance"),
        mistakes=collect_mistakes(answer, found),
    )


def order_candidates(rng: PuzzleRng, shape: tuple[int, ...]) -> list[tuple[Op, ...]]:
    """Pairs of a reorder and a merge/split, in both orders, with varied arguments."""
    found: list[tuple[Op, ...]] = []
    for _ in range(8):
        first = om.made(rng.choice((om.permute, om.transpose, om.movedim))(rng, shape))
        merge = (
            om.made(om.flatten(rng, first.shape))
            if rng.chance(50)
            else om.reshape_call(rng, rng.choice(om.regroupings(rng, first.shape)), "reshape")
        )
        found.append((first, merge))
        targets = [t for t in om.regroupings(rng, shape) if len(t) >= 2]
        merge_first = om.reshape_call(rng, rng.choice(targets), "reshape")
        if rng.chance(50):
            s, e = sorted(rng.sample(range(len(shape)), 2))
            if e - s < len(shape) - 1:  # keep two or more dims so a reorder can follow
                merge_first = Op(
                    f".flatten({s}, {e})",
                    shape[:s] + (prod(shape[s : e + 1]),) + shape[e + 1 :],
                    "flatten",
                )
        reorder = om.made(rng.choice((om.permute, om.transpose))(rng, merge_first.shape))
        found.append((merge_first, reorder))
    return rng.shuffled(found)


def build_copy_free_order(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(24):
        shape = random_shape(rng, rng.randint(3, 4), 2, 5)
        ctor = ctor_text("empty", shape)
        free: list[tuple[tuple[Op, ...], Trace]] = []
        copying: list[tuple[tuple[Op, ...], Trace]] = []
        seen: set[str] = set()
        for ops in order_candidates(rng, shape):
            text = "x" + "".join(op.text for op in ops)
            if text in seen or (free and len(copying) >= 3):
                continue
            seen.add(text)
            tr = trace(Chain(ctor, ops).expr)
            found = free if tr.copied_at(0) is None else copying
            if found is copying or not free:
                found.append((ops, tr))
        if free and len(copying) >= 3:
            break
    else:
        raise GenerationError("no set of op orders with exactly one copy-free option")
    options = rng.shuffled([free[0]] + copying[:3])
    texts = ["x" + "".join(op.text for op in ops) for ops, _ in options]
    answer = LETTERS[options.index(free[0])]
    notes = []
    for _ops, tr in options:
        at = tr.copied_at(0)
        notes.append(
            "Every call is a view, so nothing is copied."
            if at is None
            else (f"{code(tr.steps[at]['code'])} has to copy: "
                  f"{sentence(copy_reason(tr.steps[at]['why']))}")
        )
    builders = ",\n    ".join(f"lambda: {t}" for t in texts)
    tail = (
        f"builders = [\n    {builders},\n]\nanswer = None\n"
        f"for letter, build in zip({LETTERS[: len(texts)]!r}, builders):\n"
        "    if build().untyped_storage().data_ptr() == x.untyped_storage().data_ptr():\n"
        "        answer = letter"
    )
    return Draft(
        prompt="Only one of these chains runs without copying any data. Which one?",
        code=Chain(ctor).code(),
        answer_kind="choice",
        answer=answer,
        choices=tuple(texts),
        notes=tuple(notes),
        oracle_tail=tail,
        explanation=explanation([tr for _, tr in options], f"({answer}) is the copy-free one."),
        hints=(
            "Reordering dims is always a view; merging dims is a view only when the merged dims "
            "are contiguous with each other in the strides they have at that point.",
            f"x has strides {fmt_tuple(contiguous_strides(shape))}. For each chain, write down the "
            "strides the merging call receives and check the dims it merges.",
        ),
        concepts=("reshape", "view-rule", "performance", "transpose-permute"),
        traced=tuple(tr.expr for _, tr in options),
    )


def copy_reason(why: str) -> str:
    """A copying step's reason without its opening "flatten had to copy: ", which the note
    that quotes it has already said."""
    head, sep, rest = why.partition(" had to copy: ")
    return rest if sep and " " not in head else why


FAMILIES = (
    Family(
        "clone_strides",
        "Strides of clone() on a permuted, sliced or expanded tensor",
        ("senior", "principal"),
        ("clone", "memory-format", "non-overlapping-dense", "stride"),
        build_clone_strides,
        "strides",
    ),
    Family(
        "contiguous_bytes",
        "Bytes copied by contiguous()",
        ("principal",),
        ("contiguous", "dtype-itemsize", "performance"),
        build_contiguous_bytes,
    ),
    Family(
        "copy_free_order",
        "Which op order avoids a copy?",
        ("principal",),
        ("reshape", "view-rule", "performance", "transpose-permute"),
        build_copy_free_order,
    ),
)
