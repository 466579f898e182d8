"""Run a chain through the reference engine again, keeping each step's tensor for its picture."""

# The explain document gives each step's shape, stride and offset but not its storage's size
# or contents, which a picture draws; so the chain is replayed step by step with the same
# runner and backend explain() uses (read-only use of the engine), and every replayed layout
# is checked against the document's before it is drawn.

from __future__ import annotations

from quizapp.engine.explain import EngineBackend
from quizapp.engine.expression import MAX_CHARS, ExpressionError, parse_program
from quizapp.engine.geometry import compute_stride
from quizapp.engine.runner import StepFailed, run_program
from quizapp.engine.tensor import Tensor
from quizapp.engine.view_chunks import compute_refused_view
from quizapp.pictures.model import (
    MAX_CHAIN_COUNTED,
    MAX_PICTURES,
    StepLayout,
    StepPicture,
    compute_step_picture,
)
from quizapp.pictures.refused import RefusedPicture


def trace_chain(expr: str) -> tuple[list[Tensor], StepFailed | None]:
    """The tensor after each documented step of ``expr`` that the engine carries out, and the
    engine's error for the step that failed (None: every step ran, or the input was unreadable).
    """
    _, tensors, failed = run_program(expr, EngineBackend())
    return tensors, failed


def trace_tensors(expr: str) -> list[Tensor]:
    """The tensor after each documented step of ``expr`` that the engine carries out."""
    return trace_chain(expr)[0]


def compute_step_codes(expr: str) -> tuple[list[str], list[tuple[str, int]]]:
    """(code of each step in document order, the failing one included; and per line its
    text before the steps — "y = x" — with how many steps it has), from the parsed program.
    A name a line starts from is no step of its own unless the line is only that name."""
    try:
        program = parse_program(expr)
    except ExpressionError:
        return [], []
    codes: list[str] = []
    heads: list[tuple[str, int]] = []
    for line in program.lines:
        steps = list(line.chain.steps)
        head = "" if line.target is None else f"{line.target} = "
        if steps[0].kind == "name" and len(steps) > 1:
            head += steps.pop(0).code
        codes += [step.code for step in steps]
        heads.append((head, len(steps)))
    return codes, heads


# The calls a refused view can be replaced by: reshape (a copy only when needed), and an
# explicit copy first (contiguous) followed by the same view, which then always works.
_RERUNS = {".view(": (".reshape(", ".contiguous().view("),
           ".view_as(": (".reshape_as(", ".contiguous().view_as(")}


def compute_reruns(expr: str, step: int) -> tuple[str | None, str | None]:
    """``expr`` with its refused view at ``step`` replaced by reshape, and by contiguous().view
    (None where the step is no such call, or the text would grow past MAX_CHARS)."""
    codes, heads = compute_step_codes(expr)
    if step >= len(codes):
        return None, None
    refused = codes[step]
    for head, replacements in _RERUNS.items():
        if refused.startswith(head):
            chains: list[str | None] = []
            for replacement in replacements:
                changed = [*codes[:step], replacement + refused[len(head):], *codes[step + 1:]]
                lines, at = [], 0
                for text, count in heads:
                    lines.append(text + "".join(changed[at:at + count]))
                    at += count
                chain = "\n".join(lines)
                try:
                    parse_program(chain)
                except ExpressionError:
                    chains.append(None)
                    continue
                chains.append(chain if len(chain) <= MAX_CHARS else None)
            return chains[0], chains[1]
    return None, None


def compute_refused_picture(expr: str, doc: dict) -> RefusedPicture | None:
    """The picture of the view that ended ``doc`` (explain(expr)'s document), if it did: the
    engine's own RefusedView for the layout it refused."""
    error = doc.get("error")
    if not error or error.get("type") != "RuntimeError":
        return None
    tensors, failed = trace_chain(expr)
    if failed is None or failed.reason is None or failed.reason[0] != "view_refused":
        return None
    if len(tensors) != error["step"]:
        return None  # the replay and the document disagree: draw nothing rather than guess
    shape, stride, new_shape = failed.reason[1]
    refused = compute_refused_view(tuple(shape), tuple(stride), tuple(new_shape))
    reshape, contiguous = compute_reruns(expr, error["step"])
    code = compute_step_codes(expr)[0][error["step"]]
    return RefusedPicture(error["step"], code, refused, reshape, contiguous)


def compute_input_step(doc: dict, number: int) -> int | None:
    """The step whose tensor step ``number`` takes: the one before it in a lone chain, the
    documented ``input`` in a program of named lines (None for a constructor)."""
    step = doc["steps"][number]
    if "input" in step:
        return step["input"]
    return number - 1 if number else None


def compute_layouts(doc: dict, tensors: list[Tensor]) -> list[StepLayout]:
    """One StepLayout per documented step, numbered and linked the way the document is."""
    layouts = []
    for number, (step, t) in enumerate(zip(doc["steps"], tensors, strict=False)):
        if (list(t.shape), list(t.stride), t.storage_offset) != (
                step["shape"], step["stride"], step["storage_offset"]):
            break  # never draw a layout the document does not state
        copied_from = None
        source = compute_input_step(doc, number)
        if source is not None and step["storage"] != doc["steps"][source]["storage"]:
            copied_from = (doc["steps"][source]["storage"], source)
        layouts.append(StepLayout(
            step=number, code=step["code"], shape=tuple(t.shape), stride=tuple(t.stride),
            storage_offset=t.storage_offset, storage=step["storage"],
            storage_size=t.storage.nbytes // t.dtype.itemsize, read=t.storage.read,
            copied_from=copied_from))
    return layouts


def compute_chain_pictures(expr: str, doc: dict) -> list[StepPicture]:
    """The picture of each of the first MAX_PICTURES steps of ``doc`` (explain(expr)'s
    document), reach counts within a budget of MAX_CHAIN_COUNTED elements for the chain."""
    pictures, budget = [], MAX_CHAIN_COUNTED
    for layout in compute_layouts(doc, trace_tensors(expr)[:MAX_PICTURES]):
        picture = compute_step_picture(layout, count_limit=budget)
        budget -= picture.numel if picture.counted else 0
        pictures.append(picture)
    return pictures


# Calls that copy exactly when computeStride finds no view of the old layout (reshape_symint);
# ravel is left out: it is contiguous().view(-1), which copies any non-contiguous input.
_COPY_WHEN_NO_VIEW = (".reshape(", ".reshape_as(", ".flatten(")


def compute_copy_pictures(expr: str, doc: dict) -> dict[int, RefusedPicture]:
    """For each step of ``doc`` (up to MAX_PICTURES) that a reshape or flatten copied: the
    picture of why no view fits, by step number; the engine's reason names the same chunks."""
    tensors = trace_tensors(expr)[:MAX_PICTURES]
    found = {}
    steps = doc["steps"]
    for n in range(1, min(len(tensors), len(steps))):
        code = steps[n]["code"].lstrip()
        if steps[n]["storage"] == steps[n - 1]["storage"] or not code.startswith(
                _COPY_WHEN_NO_VIEW):
            continue
        old, new = tensors[n - 1], tensors[n]
        if 0 in old.shape or compute_stride(old.shape, old.stride, new.shape) is not None:
            continue
        refused = compute_refused_view(tuple(old.shape), tuple(old.stride), tuple(new.shape))
        found[n] = RefusedPicture(n, steps[n]["code"], refused, None, None)
    return found
