"""Offset families: storage positions of elements, storage offsets, values at an index, tolist()."""

from __future__ import annotations

from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, arange_text, ctor_text, end_shape, random_shape
from quizapp.puzzles.distractors import contiguous_strides, position_of
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    collect_mistakes,
    compute_single_trace_draft,
    to_choice,
)
from quizapp.puzzles.rendering import code, explanation, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import CONCEPT_OF, rules_for
from quizapp.puzzles.tracing import itemsize, trace

CHAIN_MAKERS = {
    "junior": (),
    "middle": om.REORDER,
    "senior": (om.stepped_slice, om.narrow, om.select, om.transpose, om.permute),
    "principal": (om.unfold, om.diagonal, om.expand, om.permute, om.stepped_slice, om.split_piece),
}
CHAIN_COUNT = {"junior": (0, 0), "middle": (1, 2), "senior": (1, 3), "principal": (2, 4)}


def random_index(rng: PuzzleRng, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(rng.below(s) for s in shape)


FLOAT32_BYTES = 4  # torch.empty's default dtype


def position_sum(terms: list[tuple[int, int]]) -> str:
    """A storage position as the learner would add it up, from (index, stride) pairs: "2 × 5 + 3
    = 13". An index of 0 adds nothing and is left out (feedback never multiplies a 0), a stride
    of 1 adds the index alone, and a sum of one plain number is just that number."""
    shown = [f"{index} × {stride}" if stride != 1 else str(index) for index, stride in terms
             if index]
    total = sum(index * stride for index, stride in terms)
    text = " + ".join(shown)
    return text + f" = {total}" if text and text != str(total) else str(total)


def index_text(index: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in index) + "]"


def build_chain(rng: PuzzleRng, level: str, ctor: str, shape: tuple[int, ...]) -> Chain:
    """x from ``ctor`` (sometimes permuted at senior+), y by the level's random view calls."""
    x_ops: tuple[Op, ...] = ()
    if level in ("senior", "principal") and rng.chance(35):
        x_ops = (om.made(om.permute(rng, shape)),)
    start = end_shape(x_ops, shape)
    ops = om.grow(
        rng,
        start,
        CHAIN_MAKERS[level],
        rng.randint(*CHAIN_COUNT[level]),
        negative=level == "principal",
    )
    return Chain(ctor, x_ops, ops)


def build_storage_index(rng: PuzzleRng, level: str) -> Draft:
    if level == "junior":
        shape = random_shape(rng, 2, 2, 6)
    else:
        shape = random_shape(rng, 3 if level == "middle" else rng.randint(2, 3), 2, 6)
    chain = build_chain(rng, level, ctor_text("empty", shape), shape)
    name = "y" if chain.y_ops else "x"
    # Prefer an element where the usual mistakes give other positions: a junior choice then
    # has four options (fewer only when every try collides, and the prompt says so).
    for _attempt in range(12 if level == "junior" else 3):
        index = random_index(rng, chain.tracked_shape(shape))
        tr = trace(chain.expr + index_text(index))
        pos = tr.final["storage_offset"]
        y = tr.steps[-2]
        found = [
            (
                position_of(index, contiguous_strides(y["shape"])),
                f"That is where the element would sit if {name} were a fresh contiguous tensor; "
                f"{name} walks storage with strides {fmt_tuple(y['stride'])}.",
            ),
            (
                pos - y["storage_offset"],
                f"You forgot the storage offset: {name} starts at storage "
                f"position {y['storage_offset']}.",
            ),
        ]
        if level == "junior":
            # Worded with this element's own numbers: "the row index is multiplied by 4" read
            # wrong for x[0, 3], whose row index is 0.
            rows, cols = shape
            row, col = index
            right = position_sum([(row, cols), (col, 1)])
            element = f"{name}{index_text(index)}"
            found.insert(0, (
                row + col * rows,
                f"You counted down the columns, as if each column were contiguous: that gives "
                f"position {position_sum([(col, rows), (row, 1)])}. In a fresh tensor each row "
                f"is contiguous, so {code(element)} is at position {right}.",
            ))
            if row:  # with row 0 the row length never enters the sum
                found.insert(1, (
                    row * rows + col,
                    f"The row index {row} is multiplied by the row length {cols}, not by the "
                    f"number of rows {rows}: position {right}, not "
                    f"{position_sum([(row, rows), (col, 1)])}.",
                ))
            found.append((
                pos * FLOAT32_BYTES,
                f"That is the byte offset, {pos} × {FLOAT32_BYTES} = {pos * FLOAT32_BYTES}: x "
                f"holds float32, {FLOAT32_BYTES} bytes an element, and storage positions count "
                "elements, not bytes.",
            ))
        if level == "junior":
            if len(collect_mistakes(pos, found + [(pos + 1, "")])) >= 3:
                break  # four options
        elif len(collect_mistakes(pos, found)) >= (1 if level == "middle" else 2):
            break  # middle tensors have offset 0, so only the contiguous reading can differ
    found.append((pos + 1, "Storage positions count from 0."))
    element = f"{name}{index_text(index)}"
    draft = Draft(
        prompt=f"Storage positions count from 0. At which position of the storage is "
        f"{code(element)}?",
        code=chain.code(),
        answer_kind="int",
        answer=pos,
        oracle_expr=f"{element}.storage_offset()",
        explanation=explanation(
            [tr],
            f"{code(element)} sits at storage position {pos}: "
            "the offset plus each index times its stride.",
        ),
        hints=(
            "Position = storage offset + sum of index[d] * stride[d] over the dims.",
            f"{name} has storage offset {y['storage_offset']} and strides "
            f"{fmt_tuple(y['stride'])}.",
        ),
        concepts=("storage", "stride", "storage-offset"),
        mistakes=collect_mistakes(pos, found),
        traced=(tr.expr,),
    )
    return to_choice(draft, rng) if level == "junior" else draft


def build_storage_offset(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(10):
        shape = random_shape(rng, rng.randint(2, 4), 2, 6)
        chain = build_chain(rng, level, ctor_text("empty", shape), shape)
        if level == "senior":
            kept = chain.y_ops[:2]
            start = end_shape(kept, end_shape(chain.x_ops, shape))
            chain = Chain(
                chain.ctor,
                chain.x_ops,
                kept + om.grow(rng, start, (om.narrow, om.select, om.stepped_slice), 1),
            )
        tr = trace(chain.expr)
        if tr.final["storage_offset"] > 0 and len(chain.y_ops) >= 1:
            break
    final, prev = tr.final, tr.steps[-2]
    off = final["storage_offset"]
    found = [
        (
            prev["storage_offset"],
            f"That is the offset before the last call "
            f"({code(final['code'])}); it moves the offset too.",
        ),
        (
            off - prev["storage_offset"],
            "That is only what the last call adds; offsets accumulate "
            f"over the chain, and before it the offset was already {prev['storage_offset']}.",
        ),
        (off * itemsize(final), "That is in bytes; storage offsets count elements."),
        (off + 1, "Storage offsets count from 0: the first element of the storage is offset 0."),
    ]
    draft = compute_single_trace_draft(
        chain,
        tr,
        prompt=f"What does {code('y.storage_offset()')} return?",
        answer_kind="int",
        answer=off,
        oracle_expr="y.storage_offset()",
        conclusion=f"{code('y.storage_offset()')} is {off}.",
        hints=(
            rules_for(op.kind for op in chain.y_ops),
            f"x starts at offset 0 with strides {fmt_tuple(tr.steps[chain.x_step]['stride'])}; "
            "each call adds (first kept index) * (stride of that dim).",
        ),
        concepts=("storage-offset",) + tuple(sorted({CONCEPT_OF[o.kind] for o in chain.y_ops})),
        mistakes=collect_mistakes(off, found),
    )
    return to_choice(draft, rng) if level == "senior" else draft


ARANGE = {"middle": (0, 1), "senior": (1, 1), "principal": (1, 2)}


def build_value_at(rng: PuzzleRng, level: str) -> Draft:
    shape = random_shape(rng, rng.randint(2, 3), 2, 5)
    first = rng.randint(1, 20) if ARANGE[level][0] else 0
    step = rng.randint(2, 3) if ARANGE[level][1] > 1 else 1
    chain = build_chain(rng, level, arange_text(shape, first, step), shape)
    for _attempt in range(3):  # prefer an element where the usual mistakes give other values
        index = random_index(rng, chain.tracked_shape(shape))
        tr = trace(chain.expr + index_text(index))
        value = tr.values
        y = tr.steps[-2]
        pos = tr.final["storage_offset"]
        found = [
            (
                first + step * position_of(index, contiguous_strides(y["shape"])),
                "You read the storage in order, as if y were contiguous; y walks it with strides "
                f"{fmt_tuple(y['stride'])}.",
            ),
            (
                first + step * (pos - y["storage_offset"]),
                "You forgot the storage offset: y starts at storage position "
                f"{y['storage_offset']}.",
            ),
        ]
        x_step = tr.steps[chain.x_step]
        x_shape = x_step["shape"]
        if len(x_shape) == len(index) and all(i < s for i, s in zip(index, x_shape, strict=True)):
            x_pos = position_of(index, x_step["stride"], x_step["storage_offset"])
            found.insert(
                0,
                (
                    first + step * x_pos,
                    f"That is x{index_text(index)}: "
                    "the calls changed which element each index names.",
                ),
            )
        if collect_mistakes(value, found):
            break
    found.append(
        (
            value + step,
            "That is the next element in storage; count the position again from the offset.",
        )
    )
    element = f"y{index_text(index)}"
    return Draft(
        prompt=f"What is {code(element + '.item()')}?",
        code=chain.code(),
        answer_kind="int",
        answer=value,
        oracle_expr=f"{element}.item()",
        explanation=explanation(
            [tr], f"{code(element)} reads storage position {pos}, which holds {value}."
        ),
        hints=(
            "Find the storage position first (offset + sum of index * stride), then read the "
            f"arange value stored there: {first} + {step} * position.",
            f"y has storage offset {y['storage_offset']} and strides {fmt_tuple(y['stride'])}.",
        ),
        concepts=("stride", "storage-offset", "storage")
        + tuple(sorted({CONCEPT_OF[o.kind] for o in chain.y_ops})),
        mistakes=collect_mistakes(value, found),
        traced=(tr.expr,),
    )


FAMILIES = (
    Family(
        "storage_index",
        "Which storage position holds an element",
        ("junior", "middle", "senior"),
        ("storage", "stride", "storage-offset"),
        build_storage_index,
        "positions",
    ),
    Family(
        "storage_offset",
        "Storage offset after slicing, narrow, select and friends",
        ("senior", "principal"),
        ("storage-offset", "slicing", "narrow-select-unbind", "split-chunk", "diagonal"),
        build_storage_offset,
        "offsets",
    ),
    Family(
        "value_at",
        "The value at an index of a rearranged arange",
        ("middle", "senior", "principal"),
        ("stride", "storage-offset", "storage"),
        build_value_at,
        "values",
    ),
)
