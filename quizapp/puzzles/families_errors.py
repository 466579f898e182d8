"""The error family: which exception (type and first line of message) a call raises, if any."""

from __future__ import annotations

from collections.abc import Callable

from quizapp.puzzles.chains import ctor_text, random_shape
from quizapp.puzzles.drafts import Draft, Family
from quizapp.puzzles.rendering import LETTERS, code, explanation, sentence
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.tracing import Trace, trace_outcome

NO_ERROR = "No error"
Scenario = tuple[str, str, list[str]]  # x's code, the call asked about, related calls


def view_of_transposed(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 6)
    return (
        ctor_text("empty", (a, b)) + ".t()",
        f".view({a * b})",
        [f".view({a * b + a})", ".view(-1, -1)", f".reshape({a * b})", f".view({b}, {a})"],
    )


def view_of_sliced(rng: PuzzleRng) -> Scenario:
    a, b, c = random_shape(rng, 3, 2, 5)
    return (
        ctor_text("empty", (a, b, 2 * c)) + "[:, :, ::2]",
        f".view({a * b}, {c})",
        [f".view({a}, {b * c})", f".view({a * b * c})", f".view({a * b}, -1, -1)"],
    )


def select_out_of_range(rng: PuzzleRng) -> Scenario:
    a, b, c = random_shape(rng, 3, 2, 5)
    return (
        ctor_text("empty", (a, b, c)),
        f".select(1, {b})",
        [f"[:, {b}]", ".select(3, 0)", f".narrow(1, {b}, 1)", f".select(1, {b - 1})"],
    )


def narrow_overflow(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 3, 6)
    start = rng.randint(1, b - 1)
    return (
        ctor_text("empty", (a, b)),
        f".narrow(1, {start}, {b - start + 1})",
        [
            f".narrow(1, {b + 1}, 0)",
            f".narrow(1, {start}, {b - start})",
            f".select(1, {b})",
            f".narrow(2, 0, {b})",
        ],
    )


def expand_mismatch(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 5)
    c = rng.randint(2, 4)
    return (
        ctor_text("empty", (a, b)),
        f".expand({c}, {a}, {b + 1})",
        [
            f".expand({b})",
            f".expand(-1, {a}, {b})",
            f".expand({c}, {a}, {b})",
            f".expand({a + 1}, {b})",
        ],
    )


def negative_step(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 6)
    return (
        ctor_text("empty", (a, b)),
        rng.choice(("[::-1]", "[:, ::-1]")),
        ["[::0]", "[:, ::2]", f"[{a}]", "[::-2, 0]"],
    )


def t_on_3d(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return (ctor_text("empty", shape), ".t()", [".mT", ".transpose(0, 3)", ".permute(1, 0)"])


def permute_wrong(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return (
        ctor_text("empty", shape),
        rng.choice((".permute(0, 1)", ".permute(2, 0, 2)")),
        [".permute(0, 1)", ".permute(2, 0, 2)", ".permute(0, 1, 3)", ".permute(2, 0, 1)"],
    )


def unflatten_wrong(rng: PuzzleRng) -> Scenario:
    a, b = rng.randint(2, 4), rng.choice((6, 8, 9, 10, 12))
    bad = b + rng.randint(1, 3)
    f = next(d for d in range(2, b) if b % d == 0)
    return (
        ctor_text("empty", (a, b)),
        f".unflatten(1, ({f}, {bad // f + 1}))",
        [
            f".unflatten(1, ({f}, -1))",
            ".unflatten(1, (-1, -1))",
            f".view({a}, {bad})",
            f".unflatten(2, ({f}, {b // f}))",
        ],
    )


def diagonal_same_dims(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return (
        ctor_text("empty", shape),
        ".diagonal(0, 1, 1)",
        [".diagonal(0, 1, 3)", ".diagonal(9)", ".diagonal(0, 2, 1)", ".diagonal(0, -1, 2)"],
    )


def unfold_too_big(rng: PuzzleRng) -> Scenario:
    n = rng.randint(4, 9)
    return (
        ctor_text("empty", (n,)),
        f".unfold(0, {n + 1}, 1)",
        [".unfold(0, 2, 0)", f".unfold(0, {n}, 1)", ".unfold(0, -1, 1)", f".unfold(1, {n}, 1)"],
    )


def as_strided_bounds(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 5)
    n = a * b - rng.randint(1, 2)
    return (
        ctor_text("empty", (n,)),
        f".as_strided(({a}, {b}), ({b}, 1))",
        [
            f".as_strided(({a}, {b}), ({b},))",
            f".as_strided(({a}, {b}), (-1, 1))",
            f".as_strided(({a}, {b - 1}), ({b - 1}, 1))",
            f".as_strided(({a}, {b}), ({b}, 1), -1)",
        ],
    )


def contiguous_preserve(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return (
        ctor_text("empty", shape) + ".transpose(0, 1)",
        ".contiguous(memory_format=torch.preserve_format)",
        [
            ".clone(memory_format=torch.preserve_format)",
            ".contiguous()",
            ".contiguous(memory_format=torch.channels_last)",
        ],
    )


def mt_on_1d(rng: PuzzleRng) -> Scenario:
    n = rng.randint(3, 8)
    return (ctor_text("empty", (n,)), ".mT", [".t()", ".T", ".transpose(0, 1)", ".movedim(0, 0)"])


def movedim_repeated(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return (
        ctor_text("empty", shape),
        ".movedim((0, 0), (1, 2))",
        [".movedim((0, 1), (1,))", ".movedim((0, 1), (2, 2))", ".movedim((0, 1), (2, 0))"],
    )


SCENARIOS: dict[str, tuple[Callable[[PuzzleRng], Scenario], ...]] = {
    "senior": (
        view_of_transposed,
        view_of_sliced,
        select_out_of_range,
        narrow_overflow,
        expand_mismatch,
        negative_step,
        t_on_3d,
    ),
    "principal": (
        permute_wrong,
        unflatten_wrong,
        diagonal_same_dims,
        unfold_too_big,
        as_strided_bounds,
        contiguous_preserve,
        mt_on_1d,
        movedim_repeated,
        view_of_sliced,
        expand_mismatch,
    ),
}
SWAP_TYPE = {"RuntimeError": "IndexError", "IndexError": "RuntimeError", "ValueError": "TypeError"}


def outcome_text(tr: Trace) -> str:
    return NO_ERROR if tr.error is None else tr.error_text()


def outcome_reason(tr: Trace) -> str:
    if tr.error is None:
        return f"It runs: {sentence(tr.final['why'])}"
    return f"It raises {code(tr.error_text())}. {sentence(tr.error_why())}".rstrip()


def build_error_raised(rng: PuzzleRng, level: str) -> Draft:
    x_code, call, related = rng.choice(SCENARIOS[level])(rng)
    main = trace_outcome(x_code + call)
    answer_text = outcome_text(main)
    unique: list[tuple[str, str]] = [(answer_text, outcome_reason(main))]
    extras: list[tuple[str, str]] = []
    if main.error is not None:
        swapped = SWAP_TYPE.get(main.error["type"])
        if swapped:
            extras.append(
                (
                    f"{swapped}: {main.error['message']}",
                    "Right message, wrong "
                    f"exception class: torch raises {main.error['type']} here.",
                )
            )
        extras.append(
            (NO_ERROR, f"{code('x' + call)} does raise. {sentence(main.error_why())}".rstrip())
        )
    wanted = 2 if extras else 3  # related outcomes to trace: enough for three distractors
    for other in rng.shuffled(related):
        if len(unique) > wanted:
            break
        text = outcome_text(trace_outcome(x_code + other))
        if text not in [u[0] for u in unique]:
            unique.append((text, f"That is what {code('x' + other)} does, not {code('x' + call)}."))
    unique += [e for e in extras if e[0] not in [u[0] for u in unique]]
    picked = [unique[0]] + rng.sample(unique[1:], min(3, len(unique) - 1))
    order = rng.shuffled(range(len(picked)))
    texts = [picked[i][0] for i in order]
    answer = LETTERS[order.index(0)]
    literal = "[\n" + "".join(f"    {t!r},\n" for t in texts) + "]"
    tail = (
        f"choices = {literal}\ntry:\n    y = x{call}\n    outcome = {NO_ERROR!r}\n"
        "except Exception as error:\n"
        '    outcome = f"{type(error).__name__}: {str(error).splitlines()[0]}"\n'
        f"answer = {LETTERS[: len(texts)]!r}[choices.index(outcome)]"
    )
    return Draft(
        prompt=f"What happens when {code('y = x' + call)} runs? The options give the exception "
        "class and the first line of its message.",
        code=f"x = {x_code}",
        answer_kind="choice",
        answer=answer,
        choices=tuple(texts),
        notes=tuple(picked[i][1] if i else "This is what happens." for i in order),
        oracle_tail=tail,
        explanation=explanation([main], outcome_reason(main)),
        hints=(
            "Check the arguments in the order torch does: dims are wrapped and range-checked "
            "first, then sizes, then whether the layout allows the result.",
            f"x is {code(x_code)}; look at its shape next to the arguments of {code(call)}.",
        ),
        concepts=("api-contracts", "view-rule"),
        traced=(main.expr,),
    )


FAMILIES = (
    Family(
        "error_raised",
        "Which error does this call raise?",
        ("senior", "principal"),
        ("api-contracts", "view-rule"),
        build_error_raised,
    ),
)
