"""Run a chain through the reference engine again, keeping each step's tensor for its picture."""

# The explain document gives each step's shape, stride and offset but not its storage's size
# or contents, which a picture draws; so the chain is replayed step by step with the same
# runner and backend explain() uses (read-only use of the engine), and every replayed layout
# is checked against the document's before it is drawn.

from __future__ import annotations

from quizapp.engine.explain import EngineBackend
from quizapp.engine.expression import MAX_CHARS, ExpressionError, parse_expression
from quizapp.engine.runner import StepFailed, run_step
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
    """The tensor after each step of ``expr`` that the engine carries out, and the engine's
    error for the step that failed (None: every step ran, or the input was unreadable)."""
    try:
        chain = parse_expression(expr)
    except ExpressionError:
        return [], None
    backend, current = EngineBackend(), None
    alive: list[object] = []  # every result stays alive, so storage identities are never reused
    tensors: list[Tensor] = []
    for step in chain.steps:
        try:
            current, _ = run_step(backend, current, step, alive)
        except ExpressionError:
            break
        except StepFailed as exc:
            return tensors, exc
        tensors.append(current)
    return tensors, None


def trace_tensors(expr: str) -> list[Tensor]:
    """The tensor after each step of ``expr`` that the engine carries out."""
    return trace_chain(expr)[0]


# The calls a refused view can be replaced by: reshape (a copy only when needed), and an
# explicit copy first (contiguous) followed by the same view, which then always works.
_RERUNS = {".view(": (".reshape(", ".contiguous().view("),
           ".view_as(": (".reshape_as(", ".contiguous().view_as(")}


def compute_reruns(expr: str, step: int) -> tuple[str | None, str | None]:
    """``expr`` with its refused view at ``step`` replaced by reshape, and by contiguous().view
    (None where the step is no such call, or the chain would grow past MAX_CHARS)."""
    try:
        codes = [s.code for s in parse_expression(expr).steps]
    except ExpressionError:
        return None, None
    if step >= len(codes):
        return None, None
    refused = codes[step]
    for head, replacements in _RERUNS.items():
        if refused.startswith(head):
            chains: list[str | None] = []
            for replacement in replacements:
                chain = "".join(codes[:step]) + replacement + refused[len(head):] + "".join(
                    codes[step + 1:])
                try:
                    parse_expression(chain)
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
    code = parse_expression(expr).steps[error["step"]].code
    return RefusedPicture(error["step"], code, refused, reshape, contiguous)


def compute_layouts(doc: dict, tensors: list[Tensor]) -> list[StepLayout]:
    """One StepLayout per documented step, numbered and linked the way the document is."""
    layouts = []
    for number, (step, t) in enumerate(zip(doc["steps"], tensors, strict=False)):
        if (list(t.shape), list(t.stride), t.storage_offset) != (
                step["shape"], step["stride"], step["storage_offset"]):
            break  # never draw a layout the document does not state
        copied_from = None
        if number and step["storage"] != doc["steps"][number - 1]["storage"]:
            copied_from = (doc["steps"][number - 1]["storage"], number - 1)
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
