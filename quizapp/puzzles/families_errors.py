"""The error family: which exception (type and first line of message) a call raises, if any."""

from __future__ import annotations

from collections.abc import Callable

from quizapp.puzzles.chains import ctor_text, random_shape
from quizapp.puzzles.drafts import Draft, Family, explain_few_options
from quizapp.puzzles.rendering import LETTERS, code, explanation, sentence
from quizapp.puzzles.rng import PuzzleRng
from quizapp.puzzles.tracing import GenerationError, Trace, trace_outcome

NO_ERROR = "No error"
# x's code, the call asked about, and misreadings of x: (code of the tensor a reader may take x
# for, what that reader overlooked). Distractors are what this very call does on a misreading,
# never what some other call does: every option must be a mistake someone could make here.
Scenario = tuple[str, str, list[tuple[str, str]]]


def view_of_transposed(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 6)
    ctor = ctor_text("empty", (a, b))
    return ctor + ".t()", f".view({a * b})", [(ctor, "the `.t()`")]


def view_of_sliced(rng: PuzzleRng) -> Scenario:
    """x steps through its middle dim: merging it with the last dim fails, with the first works."""
    a, b, c = random_shape(rng, 3, 2, 5)
    ctor = ctor_text("empty", (a, 2 * b, c))
    call = rng.choice((f".view({a * b}, {c})", f".view({a}, {b * c})", f".view({a * b * c})"))
    return ctor + "[:, ::2]", call, [(ctor, "the `[:, ::2]`, which halves dim 1")]


def select_out_of_range(rng: PuzzleRng) -> Scenario:
    a, b, c = random_shape(rng, 3, 2, 5)
    return ctor_text("empty", (a, b, c)), f".select(1, {b})", []


def narrow_overflow(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 3, 6)
    start = rng.randint(1, b - 1)
    return ctor_text("empty", (a, b)), f".narrow(1, {start}, {b - start + 1})", []


def expand_mismatch(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 5)
    c = rng.randint(2, 4)
    return ctor_text("empty", (a, b)), f".expand({c}, {a}, {b + 1})", []


def negative_step(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 6)
    return ctor_text("empty", (a, b)), rng.choice(("[::-1]", "[:, ::-1]")), []


def t_on_3d(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return ctor_text("empty", shape), ".t()", []


def permute_wrong(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return ctor_text("empty", shape), rng.choice((".permute(0, 1)", ".permute(2, 0, 2)")), []


def unflatten_wrong(rng: PuzzleRng) -> Scenario:
    a, b = rng.randint(2, 4), rng.choice((6, 8, 9, 10, 12))
    bad = b + rng.randint(1, 3)
    f = next(d for d in range(2, b) if b % d == 0)
    return ctor_text("empty", (a, b)), f".unflatten(1, ({f}, {bad // f + 1}))", []


def diagonal_same_dims(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return ctor_text("empty", shape), ".diagonal(0, 1, 1)", []


def unfold_too_big(rng: PuzzleRng) -> Scenario:
    n = rng.randint(4, 9)
    return ctor_text("empty", (n,)), f".unfold(0, {n + 1}, 1)", []


def as_strided_bounds(rng: PuzzleRng) -> Scenario:
    a, b = random_shape(rng, 2, 2, 5)
    n = a * b - rng.randint(1, 2)
    return ctor_text("empty", (n,)), f".as_strided(({a}, {b}), ({b}, 1))", []


def contiguous_preserve(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    ctor = ctor_text("empty", shape)
    return (ctor + ".transpose(0, 1)", ".contiguous(memory_format=torch.preserve_format)",
            [(ctor, "nothing: the format is refused whatever the layout")])


def mt_on_1d(rng: PuzzleRng) -> Scenario:
    n = rng.randint(3, 8)
    return ctor_text("empty", (n,)), ".mT", []


def movedim_repeated(rng: PuzzleRng) -> Scenario:
    shape = random_shape(rng, 3, 2, 5)
    return ctor_text("empty", shape), ".movedim((0, 0), (1, 2))", []


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


def view_myth() -> str:
    """What people expect a view of a non-contiguous tensor to raise: the engine's own outcome
    for a view that does fail for its layout."""
    return outcome_text(trace_outcome("torch.empty(2, 3).t().view(6)"))


def compute_options(x_code: str, call: str, misreadings: list[tuple[str, str]],
                    main: Trace) -> list[tuple[str, str]]:
    """The answer first, then the mistakes people make on this very call: the other exception
    class with the same message, "No error" for a call that raises, the call's outcome on a
    tensor x is easily mistaken for, and for a view that works, the belief that view needs a
    contiguous tensor."""
    answer_text = outcome_text(main)
    found: list[tuple[str, str]] = [(answer_text, outcome_reason(main))]
    if main.error is not None:
        swapped = SWAP_TYPE.get(main.error["type"])
        if swapped:
            found.append((f"{swapped}: {main.error['message']}", "Right message, wrong "
                          f"exception class: torch raises {main.error['type']} here."))
        found.append(
            (NO_ERROR, f"{code('x' + call)} does raise. {sentence(main.error_why())}".rstrip())
        )
    for other_x, overlooked in misreadings:
        misread = trace_outcome(other_x + call)
        found.append((outcome_text(misread), f"That is what {code(call.lstrip('.'))} does on "
                      f"{code(other_x)}; x is not that tensor: you overlooked {overlooked}."))
    if main.error is None and call.startswith(".view(") and not main.steps[-2]["is_contiguous"]:
        found.append((view_myth(), "view does not need a contiguous tensor, only that every group "
                      "of dims it merges is contiguous with itself. " + outcome_reason(main)))
    unique: list[tuple[str, str]] = []
    for text, note in found:
        if text not in [u[0] for u in unique]:
            unique.append((text, note))
    return unique


def build_error_raised(rng: PuzzleRng, level: str) -> Draft:
    x_code, call, misreadings = rng.choice(SCENARIOS[level])(rng)
    main = trace_outcome(x_code + call)
    unique = compute_options(x_code, call, misreadings, main)
    if len(unique) < 3:
        raise GenerationError(f"x{call}: fewer than two plausible wrong outcomes")
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
        prompt=explain_few_options(
            f"What happens when {code('y = x' + call)} runs? The options give the exception "
            "class and the first line of its message.", len(texts),
            "no other outcome is a mistake people make on this call"),
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
