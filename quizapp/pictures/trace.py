"""Run a chain through the reference engine again, keeping each step's tensor for its picture."""

# The explain document gives each step's shape, stride and offset but not its storage's size
# or contents, which a picture draws; so the chain is replayed step by step with the same
# runner and backend explain() uses (read-only use of the engine), and every replayed layout
# is checked against the document's before it is drawn.

from __future__ import annotations

from quizapp.engine.explain import EngineBackend
from quizapp.engine.expression import ExpressionError, parse_expression
from quizapp.engine.runner import StepFailed, run_step
from quizapp.engine.tensor import Tensor
from quizapp.pictures.model import (
    MAX_CHAIN_COUNTED,
    MAX_PICTURES,
    StepLayout,
    StepPicture,
    compute_step_picture,
)


def trace_tensors(expr: str) -> list[Tensor]:
    """The tensor after each step of ``expr`` that the engine carries out."""
    try:
        chain = parse_expression(expr)
    except ExpressionError:
        return []
    backend, current = EngineBackend(), None
    alive: list[object] = []  # every result stays alive, so storage identities are never reused
    tensors: list[Tensor] = []
    for step in chain.steps:
        try:
            current, _ = run_step(backend, current, step, alive)
        except (ExpressionError, StepFailed):
            break
        tensors.append(current)
    return tensors


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
