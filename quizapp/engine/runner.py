"""The step runner shared by ``explain`` and ``torch_explain``: parse, bind, run, document."""

# Both functions parse and bind the same way and differ only in the backend that carries out
# a bound step, so their documents line up step for step and field for field.

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from quizapp.engine.expression import Chain, ExpressionError, Step, parse_program
from quizapp.engine.signatures import (
    MAX_DIMS,
    ArgumentsRefused,
    BoundCall,
    bind_step,
    validate_advanced_index,
    validate_index_reads,
    validate_work,
)
from quizapp.engine.values import VALUES_LIMIT, values_allowed
from quizapp.engine.work_bounds import MAY_COPY

__all__ = ["NO_WHY", "VALUES_LIMIT", "Backend", "StepFailed", "Why", "run_document",
           "run_program", "values_allowed"]

# A step's `why`, rendered only when read: the document reads it for its own steps, never for
# the steps of a tensor argument or of a replay for pictures, so those sentences are not built.
Why = Callable[[], str]
NO_WHY: Why = str  # str() is "": the why of a backend that gives none

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

    def run(self, current: Any, bound: BoundCall, step: Step, resolve: Any) -> tuple[Any, Why]:
        ...  # (result or tuple of results, why); raises StepFailed

    def layout(self, t: Any) -> dict:
        ...  # a step's fields in the document's order, "shape" to "dtype", with the storage's
        # identity key under "storage" (the runner numbers the storages)

    def shape(self, t: Any) -> tuple[int, ...]:
        ...

    def values(self, t: Any, constructor: str) -> Any:
        ...

    def refuse(self, current: Any, step: Step, refused: Any, resolve: Any) -> Any:
        ...  # raises StepFailed with torch's TypeError for a call torch's parser refuses


def run_document(expr: object, backend: Backend) -> dict:
    """The explain document for ``expr`` computed by ``backend``: the expression, one entry per
    step (its code, layout, storage number and why), the values, and the error if any.

    A program of named lines adds ``lines`` (each line's code and the name it binds) and gives
    each step its ``line`` and its ``input`` (the step whose tensor it takes; None for a
    constructor), and its error the ``line`` that failed (None for a line refused before it
    was read); a lone chain's document has none of these, so it keeps its form."""
    return run_program(expr, backend)[0]


def run_program(expr: object, backend: Backend) -> tuple[dict, list[Any], StepFailed | None]:
    """(the explain document of ``expr``, the tensor of each documented step, the backend's
    error for the step that failed or None)."""
    doc: dict[str, Any] = {"expr": expr if isinstance(expr, str) else None, "steps": [], "values": None,
           "error": None}
    tensors: list[Any] = []
    try:
        program = parse_program(expr)
    except ExpressionError as exc:
        doc["error"] = _expression_error(exc)
        return doc, tensors, None
    if program.named:
        doc = {"expr": doc["expr"], "lines": [{"code": line.code, "name": line.target}
                                              for line in program.lines],
               "steps": [], "values": None, "error": None}
    storages: dict[object, int] = {}
    alive: list[Any] = []  # keeps every result alive so storage identities are never reused
    bound: dict[str, tuple[Any, int | None]] = {}  # name -> (tensor, the step that made it)
    # name -> the constructor its tensor comes from: torch_explain reports values only for
    # constructors whose data is known
    roots: dict[str, str] = {}
    current, root = None, ""
    for number, line in enumerate(program.lines):
        steps = line.chain.steps
        current, made = None, None
        root = roots[steps[0].name] if steps[0].kind == "name" else steps[0].name
        for step in steps:
            index = len(doc["steps"])
            if step.kind == "name":
                current, made = bound[step.name]
                if len(steps) > 1 or line.chain.error is not None:
                    continue  # the op after it takes that tensor: no step of its own
                why: Why = partial(_named_why, step.name, made)
            else:
                try:
                    current, why = run_step(backend, current, step, alive, bound)
                except ExpressionError as exc:
                    exc.step = index
                    doc["error"] = _expression_error(exc, program.named, number)
                    return doc, tensors, None
                except StepFailed as exc:
                    doc["error"] = {"type": exc.type_name, "message": exc.message, "step": index,
                                    "why": exc.why}
                    if program.named:
                        doc["error"]["line"] = number
                    return doc, tensors, exc
            entry = {"code": step.code, **backend.layout(current)}
            entry["storage"] = storages.setdefault(entry["storage"], len(storages))
            entry["why"] = why()
            if program.named:
                entry["line"], entry["input"] = number, made
            doc["steps"].append(entry)
            tensors.append(current)
            made = index
        if line.chain.error is not None:
            line.chain.error.step = len(doc["steps"])
            doc["error"] = _expression_error(line.chain.error, program.named, number)
            return doc, tensors, None
        if line.target is not None:
            bound[line.target], roots[line.target] = (current, made), root
    if program.error is not None:
        program.error.step = len(doc["steps"])
        # the refused line was never read, so it has no entry in lines to name
        doc["error"] = _expression_error(program.error, program.named, None)
        return doc, tensors, None
    if values_allowed(backend.shape(current)):
        doc["values"] = backend.values(current, root)
    return doc, tensors, None


def _named_why(name: str, made: int | None) -> str:
    return f"{name} is the tensor step {made} made: the same object, so its layout and storage " \
        "are that step's"


def run_step(backend: Backend, current: Any, step: Step, alive: list,
             names: dict | None = None) -> tuple[Any, Why]:
    """Bind and carry out one step, resolving tensor arguments and a ``[k]`` pick: the result
    and its `why` (call it for the sentence).

    ``names`` maps each name bound so far to (tensor, step), for arguments that name one."""
    names = names or {}
    try:
        bound = bind_step(step)
    except ArgumentsRefused as exc:  # torch's own TypeError, after the tensor arguments ran
        return backend.refuse(current, step, exc,
                              lambda chain: _resolve(backend, chain, alive, names)), NO_WHY
    if current is not None:
        if step.name in MAY_COPY or bound.pick is not None:  # the steps validate_work bounds
            validate_work(step, bound, backend.shape(current), lambda: backend.layout(current))
        if step.kind == "index":
            validate_index_reads(step, bound, lambda: backend.layout(current))
            validate_advanced_index(step, bound, backend.shape(current))

    def resolve(chain: Chain) -> Any:
        return _resolve(backend, chain, alive, names)

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


def _resolve(backend: Backend, chain: Chain, alive: list, names: dict) -> Any:
    """The tensor a nested chain (a tensor argument) evaluates to."""
    nested = None
    for nested_step in chain.steps:
        if nested_step.kind == "name":
            nested = names[nested_step.name][0]
        else:
            nested, _ = run_step(backend, nested, nested_step, alive, names)
    return nested


def _expression_error(exc: ExpressionError, named: bool = False,
                      line: int | None = None) -> dict:
    """The error entry; a program's names the line it belongs to (None: a line never read)."""
    error = {"type": "ExpressionError", "message": str(exc), "step": exc.step,
             "why": exc.why or _OUTSIDE}
    if named:
        error["line"] = line
    return error
