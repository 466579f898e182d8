"""channels_last families: strides of NHWC-ordered tensors and channels-last contiguity."""

from __future__ import annotations

from quizapp.engine.contiguity import is_contiguous_in_format
from quizapp.puzzles import op_makers as om
from quizapp.puzzles.chains import Chain, Op, args_text, ctor_text
from quizapp.puzzles.distractors import (
    channels_last_strides,
    contiguous_strides,
)
from quizapp.puzzles.drafts import (
    Draft,
    Family,
    Mistake,
    collect_mistakes,
    compute_stride_question,
    size_one_dims,
)
from quizapp.puzzles.families_contiguity import balanced_chain
from quizapp.puzzles.rendering import code, explanation, fmt_tuple
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.rules import rules_for
from quizapp.puzzles.tracing import Trace, trace


def nchw_shape(rng: PuzzleRng, rank: int = 4) -> tuple[int, ...]:
    return tuple(rng.randint(1, 4) if d < 2 else rng.randint(2, 5) for d in range(rank))


def channels_last_chain(rng: PuzzleRng) -> tuple[Chain, str]:
    rank = 5 if rng.chance(25) else 4
    fmt = "torch.channels_last_3d" if rank == 5 else "torch.channels_last"
    shape = nchw_shape(rng, rank)
    form = rng.below(4)
    if form == 0:
        ops: tuple[Op, ...] = (Op(f".contiguous(memory_format={fmt})", shape, "contiguous"),)
        return Chain(ctor_text("empty", shape), (), ops), "contiguous"
    if form == 1:
        ops = (Op(f".clone(memory_format={fmt})", shape, "clone"),)
        return Chain(ctor_text("empty", shape), (), ops), "clone"
    if form == 2:
        nhwc = (shape[0],) + shape[2:] + (shape[1],)
        perm = (0, rank - 1) + tuple(range(1, rank - 1))
        return Chain(
            ctor_text("empty", nhwc), (), (Op(f".permute({args_text(perm)})", shape, "permute"),)
        ), "permute"
    d = rng.randint(2, rank - 1)
    sliced = tuple(len(range(0, s, 2)) if i == d else s for i, s in enumerate(shape))
    ops = (
        Op(om.index_text([":"] * d + ["::2"]), sliced, "slice"),
        Op(f".contiguous(memory_format={fmt})", sliced, "contiguous"),
    )
    return Chain(ctor_text("empty", shape), (), ops), "contiguous"


def build_channels_last_strides(rng: PuzzleRng, level: str) -> Draft:
    for _attempt in range(8):  # until a known mistake differs where strides count (C > 1)
        chain, how = channels_last_chain(rng)
        tr = trace(chain.expr)
        shape = tr.final["shape"]
        nhwc = [shape[0]] + shape[2:] + [shape[1]]
        found = [
            (
                contiguous_strides(shape),
                "Those are the contiguous (NCHW) strides. channels_last keeps "
                "the shape but stores C innermost, so C gets stride 1.",
            ),
            (
                contiguous_strides(nhwc),
                "Those are the strides of an NHWC tensor listed in NHWC order; "
                "y's dims are still ordered N, C, H, W, so list the stride of each of those.",
            ),
        ]
        if collect_mistakes(tr.final["stride"], found, size_one_dims(shape)):
            break
    return compute_stride_question(
        chain,
        tr,
        because=": the shape stays (N, C, ...) while memory is ordered N, spatial dims, C.",
        hints=(
            "channels_last keeps the logical shape (N, C, H, W) but lays memory out as N, H, W, C: "
            "C is innermost.",
            f"C gets stride 1; W gets stride C = {shape[1]}; keep multiplying outward.",
        ),
        concepts=("channels-last", "memory-format", "stride")
        + (("contiguous",) if how == "contiguous" else ()),
        found=found,
    )


def memory_format(chain: Chain) -> str:
    """The channels-last format that fits the rank of y."""
    shape = (chain.y_ops or chain.x_ops)[-1].shape
    return "torch.channels_last_3d" if len(shape) == 5 else "torch.channels_last"


def channels_last_mismatches(shape: list[int], stride: list[int]) -> list[str]:
    """Each dim of size above 1 whose stride differs from the channels-last one, described."""
    wanted = channels_last_strides(shape)
    return [f"dim {d} (size {n}) has stride {s}, not {w}"
            for d, (n, s, w) in enumerate(zip(shape, stride, wanted, strict=True))
            if n != 1 and s != w]


def build_channels_last_contiguity(rng: PuzzleRng, level: str) -> Draft:
    def make() -> Chain:
        chain, _ = channels_last_chain(rng)
        if rng.chance(50):
            shape = chain.y_ops[-1].shape
            extra = om.grow(rng, shape, (om.transpose, om.narrow, om.stepped_slice), 1)
            chain = Chain(chain.ctor, chain.x_ops, chain.y_ops + extra)
        return chain

    def probe(tr: Trace) -> bool:
        fmt = "channels_last_3d" if len(tr.final["shape"]) == 5 else "channels_last"
        return is_contiguous_in_format(tuple(tr.final["shape"]), tuple(tr.final["stride"]), fmt)

    chain, tr = balanced_chain(rng, make, probe)
    answer = probe(tr)
    fmt = memory_format(chain)
    y = tr.final
    wanted = fmt_tuple(channels_last_strides(y["shape"]))
    ones = [d for d, n in enumerate(y["shape"]) if n == 1]
    if answer:
        reason = (f"y has strides {fmt_tuple(y['stride'])} and a channels-last tensor of shape "
                  f"{fmt_tuple(y['shape'])} has {wanted}; they agree on every dim of size above 1")
        if y["stride"] != channels_last_strides(y["shape"]):
            reason += (f" (size-1 dims {', '.join(map(str, ones))} differ, and a size-1 dim's "
                       "stride never counts)")
        reason += f", so {code(f'y.is_contiguous(memory_format={fmt})')} is True."
    else:
        reason = (f"y has strides {fmt_tuple(y['stride'])} where a channels-last tensor of shape "
                  f"{fmt_tuple(y['shape'])} has {wanted}: "
                  f"{'; '.join(channels_last_mismatches(y['shape'], y['stride']))}, so "
                  f"{code(f'y.is_contiguous(memory_format={fmt})')} is False.")
    return Draft(
        prompt=f"What does {code(f'y.is_contiguous(memory_format={fmt})')} return?",
        code=chain.code(),
        answer_kind="bool",
        answer=answer,
        oracle_expr=f"y.is_contiguous(memory_format={fmt})",
        explanation=explanation([tr], reason),
        hints=(
            "Channels-last contiguous means the strides are those of an N, H, W, C memory order "
            "for the (N, C, H, W) shape (C has stride 1), leaving out every dim of size 1: with "
            "one entry, its stride is never used.",
            # How to get both stride tuples, not the tuples: stated, the answer is a lookup.
            (f"{rules_for(op.kind for op in chain.y_ops)} Carry x's strides through each call "
             "to get y's. The channels-last strides of y's shape (N, C, H, W) are built "
             "innermost first: C gets 1, W gets C, H gets W × C and N gets H × W × C (with a "
             "depth D, (N, C, D, H, W), D gets H × W × C and N gets D × H × W × C). Compare "
             "the two stride by stride, size-1 dims aside.").lstrip(),
        ),
        concepts=("channels-last", "memory-format", "contiguity"),
        mistakes=(Mistake(not answer, reason),),
        traced=(tr.expr,),
    )


FAMILIES = (
    Family(
        "channels_last_strides",
        "Strides of a channels_last tensor",
        ("principal",),
        ("channels-last", "memory-format", "stride"),
        build_channels_last_strides,
        "strides",
    ),
    Family(
        "channels_last_contiguity",
        "Is it channels_last contiguous?",
        ("principal",),
        ("channels-last", "memory-format", "contiguity"),
        build_channels_last_contiguity,
    ),
)
