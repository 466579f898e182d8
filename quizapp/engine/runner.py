"""The step runner shared by ``explain`` and ``torch_explain``: parse, bind, run, document."""

# Both functions parse and bind the same way and differ only in the backend that carries out
# a bound step, so their documents line up step for step and field for field.

from __future__ import annotations

from typing import Any, Protocol

from quizapp.engine.expression import Chain, ExpressionError, Step, parse_expression
from quizapp.engine.signatures import (
    MAX_DIMS,
    ArgumentsRefused,
    BoundCall,
    bind_step,
    validate_index_reads,
    validate_work,
)
from quizapp.engine.values import VALUES_LIMIT, values_allowed

__all__ = ["VALUES_LIMIT", "Backend", "StepFailed", "run_document", "values_allowed"]

_OUTSIDE = "The input is outside the expression language, so nothing from this step on was run."


class StepFailed(Exception):
    """A backend's error for one step: torch's class name, first message line and a reason."""

    def __init__(self, type_name: str, message: str, why: str,
                 reason: tuple[str, tuple] | None = None) -> None:
        super().__init__(message)
        self.type_name, self.message, self.why = type_name, message, why
        self.reason = reason  # (key, numbers) of the reference engine's why; None from torch


class Backend(Protocol):
    """What the runner needs from an engine: carry out bound steps and report layouts."""

    def run(self, current: Any, bound: BoundCall, step: Step, resolve: Any) -> tuple[Any, str]:
        ...  # (result or tuple of results, why); raises StepFailed

    def layout(self, t: Any) -> tuple[dict, object]:
        ...  # (step fields except code/storage/why, storage identity key)

    def shape(self, t: Any) -> tuple[int, ...]:
        ...

    def values(self, t: Any, constructor: str) -> Any:
        ...

    def refuse(self, current: Any, step: Step, refused: Any, resolve: Any) -> Any:
        ...  # raises StepFailed with torch's TypeError for a call torch's parser refuses


def run_document(expr: object, backend: Backend) -> dict:
    """The explain document for ``expr`` computed by ``backend``: the expression, one entry per
    step (its code, layout, storage number and why), the values, and the error if any."""
    doc: dict[str, Any] = {"expr": expr if isinstance(expr, str) else None, "steps": [], "values": None,
           "error": None}
    try:
        chain = parse_expression(expr)
    except ExpressionError as exc:
        doc["error"] = _expression_error(exc)
        return doc
    storages: dict[object, int] = {}
    alive: list[Any] = []  # keeps every result alive so storage identities are never reused
    current = None
    for index, step in enumerate(chain.steps):
        try:
            current, why = run_step(backend, current, step, alive)
        except ExpressionError as exc:
            exc.step = index
            doc["error"] = _expression_error(exc)
            return doc
        except StepFailed as exc:
            doc["error"] = {"type": exc.type_name, "message": exc.message, "step": index,
                            "why": exc.why}
            return doc
        fields, key = backend.layout(current)
        doc["steps"].append({
            "code": step.code, "shape": fields["shape"], "stride": fields["stride"],
            "storage_offset": fields["storage_offset"], "is_contiguous": fields["is_contiguous"],
            "storage": storages.setdefault(key, len(storages)), "is_view": fields["is_view"],
            "numel": fields["numel"], "dtype": fields["dtype"], "why": why,
        })
    if chain.error is not None:
        doc["error"] = _expression_error(chain.error)
        return doc
    if values_allowed(doc["steps"][-1]["shape"]):
        doc["values"] = backend.values(current, chain.steps[0].name)
    return doc


def run_step(backend: Backend, current: Any, step: Step, alive: list) -> tuple[Any, str]:
    """Bind and carry out one step, resolving tensor arguments and a ``[k]`` pick."""
    try:
        bound = bind_step(step)
    except ArgumentsRefused as exc:  # torch's own TypeError, after the tensor arguments ran
        return backend.refuse(current, step, exc, lambda chain: _resolve(backend, chain, alive)), ""
    if current is not None:
        validate_work(step, bound, backend.shape(current), lambda: backend.layout(current)[0])
        if step.kind == "index":
            validate_index_reads(step, bound, backend.layout(current)[0])

    def resolve(chain: Chain) -> Any:
        return _resolve(backend, chain, alive)

    result, why = backend.run(current, bound, step, resolve)
    alive.append(result)
    if bound.pick is not None:
        count = len(result)
        if not -count <= bound.pick < count:
            raise StepFailed("IndexError", "tuple index out of range",
                             f"{step.name} gave {count} tensors, so there is no piece "
                             f"[{bound.pick}].")
        result = result[bound.pick % count]
    rank = len(backend.shape(result))
    if rank > MAX_DIMS:
        raise ExpressionError(f"expected results of at most {MAX_DIMS} dims, this step makes "
                              f"{rank}", step.column)
    return result, why


def _resolve(backend: Backend, chain: Chain, alive: list) -> Any:
    """The tensor a nested chain (a tensor argument) evaluates to."""
    nested = None
    for nested_step in chain.steps:
        nested, _ = run_step(backend, nested, nested_step, alive)
    return nested


def _expression_error(exc: ExpressionError) -> dict:
    return {"type": "ExpressionError", "message": str(exc), "step": exc.step,
            "why": exc.why or _OUTSIDE}
