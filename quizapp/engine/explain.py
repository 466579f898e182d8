"""``explain(expr)``: run a chain through the reference engine and describe every step."""

from __future__ import annotations

from functools import partial
from math import prod
from typing import Any

from quizapp.engine.contiguity import is_contiguous
from quizapp.engine.expression import Chain, Comparison, Step
from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.ops.advanced_indexing import Mask
from quizapp.engine.ops.dtype_views import root_storage
from quizapp.engine.outcome import Outcome
from quizapp.engine.runner import VALUES_LIMIT, StepFailed, Why, run_document
from quizapp.engine.signatures import BoundCall
from quizapp.engine.tensor import Tensor, TorchError
from quizapp.engine.values import values_of


class EngineBackend:
    """The reference engine: op layer ``OPS`` and ``CONSTRUCTORS``, pure Python."""

    def run(self, current: Tensor | None, bound: BoundCall, step: Step, resolve: Any
            ) -> tuple[Any, Why]:
        kwargs = bound.kwargs
        if bound.tensors:
            kwargs = {k: resolve(v) if isinstance(v, Chain) else v for k, v in kwargs.items()}
        if bound.name == "__getitem__":
            kwargs = {"index": _resolve_masks(kwargs["index"], resolve)}
        try:
            if current is None:
                outcome = CONSTRUCTORS[bound.name](**kwargs)
            else:
                outcome = OPS[bound.name](current, **kwargs)
        except TorchError as exc:
            raise StepFailed(exc.type_name, exc.message, exc.why, exc.reason) from None
        if bound.pick is None:
            return outcome[0], outcome.render
        return outcome[0], partial(_picked_why, outcome, bound.pick)

    def layout(self, t: Tensor) -> dict:
        shape, stride = t[0], t[1]
        return {"shape": list(shape), "stride": list(stride), "storage_offset": t[2],
                "is_contiguous": is_contiguous(shape, stride), "storage": root_storage(t[3]),
                "is_view": t[5], "numel": prod(shape), "dtype": t[4].name}

    def shape(self, t: Tensor) -> tuple[int, ...]:
        return t.shape

    def values(self, t: Tensor, constructor: str) -> Any:
        return values_of(t, limit=VALUES_LIMIT)

    def refuse(self, current: Tensor, step: Step, refused: Any, resolve: Any) -> Any:
        """torch evaluates tensor arguments before its parser looks at the call: run them,
        then report the parser's TypeError."""
        values = [*step.args, *(v for _, v in step.kwargs)]
        while values:
            value = values.pop(0)
            if isinstance(value, Chain):
                resolve(value)
            elif isinstance(value, tuple | list):
                values[:0] = value
        raise StepFailed("TypeError", refused.message, refused.why)


def _resolve_masks(index: object, resolve: Any) -> object:
    """An index with each ``tensor <op> number`` item made the Mask the engine reads."""
    if isinstance(index, Comparison):
        return Mask(resolve(index.chain), index.op, index.scalar)
    if isinstance(index, tuple):
        return tuple(_resolve_masks(item, resolve) for item in index)
    return index


def _picked_why(outcome: Outcome, pick: int) -> str:
    """The op's sentence, and which of its tensors ``[pick]`` takes."""
    why, count = outcome.render(), len(outcome[0])
    if count == 1 and pick in (0, -1):
        return f"{why}, and [{pick}] picks that one"
    if -count <= pick < count:
        return f"{why}, and [{pick}] picks tensor {pick % count} of those {count}"
    return why


def explain(expr: str) -> dict:
    """Explain ``expr`` step by step with the reference engine; JSON-serialisable."""
    return run_document(expr, EngineBackend())
