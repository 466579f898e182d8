"""``torch_explain(expr)``: the explain document computed by real torch (CPU), for cross-checks."""

# The only engine module that touches torch, and only inside torch_explain().  The chain is
# built from the parsed tree: each whitelisted name is looked up with getattr and called with
# the literal arguments exactly as written (after the shared binder accepted them), so the
# binder's mapping to canonical names is itself checked against torch's own parser.

from __future__ import annotations

import json
import re
import warnings
from typing import Any

from quizapp.engine.expression import (
    ATTRIBUTE_OPS,
    CONSTRUCTOR_NAMES,
    DTYPE_NAMES,
    KNOWN_DATA,
    MEMORY_FORMATS,
    METHOD_NAMES,
    Chain,
    Comparison,
    ExpressionError,
    Step,
    TorchName,
)
from quizapp.engine.ops.advanced_indexing import COMPARISONS
from quizapp.engine.runner import NO_WHY, VALUES_LIMIT, StepFailed, Why, run_document
from quizapp.engine.signatures import BoundCall

# Some of torch's messages start with the C++ source location of the check ("/__w/pytorch/pytorch/
# build/aten/src/ATen/RegisterCPU_3.cpp:5710: SymIntArrayRef expected to contain only concrete
# integers"); that location belongs to the build, not to the rule, so it is dropped and the rest
# of the message is compared with the engine's.
_SOURCE_LOCATION = re.compile(r"^/\S+\.(?:cpp|h):\d+: ")
_ALLOWED = {"constructor": CONSTRUCTOR_NAMES, "method": METHOD_NAMES, "attribute": ATTRIBUTE_OPS,
            "index": frozenset({"__getitem__"})}


def torch_message(exc: BaseException) -> str:
    """The first line of a torch error's message, without a leading C++ source location."""
    return _SOURCE_LOCATION.sub("", str(exc).split("\n", 1)[0])


class TorchBackend:
    """Carries out steps on real CPU tensors; storage identity is the StorageImpl address."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch

    def run(self, current: Any, bound: BoundCall | None, step: Step, resolve: Any
            ) -> tuple[Any, Why]:
        # ``bound`` goes unused: torch binds the call as written itself (refuse passes None).
        if step.name not in _ALLOWED[step.kind]:  # the parser already refused it; never getattr it
            raise ExpressionError(f"expected a supported name, got {step.name}", step.column)
        args = [self.convert(a, resolve) for a in step.args]
        kwargs = {name: self.convert(v, resolve) for name, v in step.kwargs}
        try:
            if step.kind == "constructor":
                result = getattr(self.torch, step.name)(*args, **kwargs)
            elif step.kind == "index":
                result = current[args[0]]
            elif step.kind == "attribute":
                result = getattr(current, step.name)
            else:
                result = getattr(current, step.name)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - every torch error becomes the step's error
            raise StepFailed(type(exc).__name__, torch_message(exc), "") from None
        return result, NO_WHY

    def refuse(self, current: Any, step: Step, refused: Any, resolve: Any) -> Any:
        """A call the shared binder says torch's parser refuses: made as written, so torch
        gives its own error (the binder's model of the parser is what the tests check)."""
        result, _ = self.run(current, None, step, resolve)
        return result

    def convert(self, value: object, resolve: Any) -> object:
        """A parsed literal as the Python/torch object torch receives."""
        if isinstance(value, Chain):
            return resolve(value)
        if isinstance(value, TorchName):
            if value.name not in DTYPE_NAMES and value.name not in MEMORY_FORMATS:
                raise ExpressionError(f"expected a dtype or memory format, got {value.name}")
            return getattr(self.torch, value.name)
        if isinstance(value, Comparison):  # torch computes the mask itself
            return COMPARISONS[value.op](resolve(value.chain), value.scalar)
        if isinstance(value, tuple):
            return tuple(self.convert(v, resolve) for v in value)
        if isinstance(value, list):
            return [self.convert(v, resolve) for v in value]
        return value  # int, float, bool, None, Ellipsis or a slice of ints

    def layout(self, t: Any) -> dict:
        return {"shape": list(t.shape), "stride": list(t.stride()),
                "storage_offset": t.storage_offset(), "is_contiguous": t.is_contiguous(),
                "storage": t.untyped_storage()._cdata, "is_view": t._is_view(),
                "numel": t.numel(), "dtype": str(t.dtype).removeprefix("torch.")}

    def shape(self, t: Any) -> tuple[int, ...]:
        return tuple(t.shape)

    def values(self, t: Any, constructor: str) -> Any:
        if constructor in KNOWN_DATA and t.numel() <= VALUES_LIMIT:
            return t.tolist()
        return None


def torch_explain(expr: str) -> dict:
    """The explain document of ``expr`` as real torch computes it (``why`` fields are empty)."""
    import torch  # noqa: PLC0415 - torch is imported lazily, only for the cross-check

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run_document(expr, TorchBackend(torch))


COMPARED_FIELDS = ("shape", "stride", "storage_offset", "is_contiguous", "storage", "is_view",
                   "numel", "dtype", "code")


def document_differences(engine: dict, torch_doc: dict) -> list[tuple[str, str, object, object]]:
    """Every field (except ``why``) where two explain documents differ: (where, field, a, b)."""
    diffs: list[tuple[str, str, object, object]] = []
    a_steps, b_steps = engine["steps"], torch_doc["steps"]
    for i in range(max(len(a_steps), len(b_steps))):
        a = a_steps[i] if i < len(a_steps) else None
        b = b_steps[i] if i < len(b_steps) else None
        if a is None or b is None:
            diffs.append((f"step {i}", "present", a is not None, b is not None))
            continue
        diffs.extend((f"step {i}", f, a[f], b[f]) for f in COMPARED_FIELDS
                     if not _same(a[f], b[f]))
    if not _same(engine["values"], torch_doc["values"]):
        diffs.append(("values", "values", engine["values"], torch_doc["values"]))
    a_err, b_err = engine["error"] or {}, torch_doc["error"] or {}
    for f in ("type", "message", "step"):
        if not _same(a_err.get(f), b_err.get(f)):
            diffs.append(("error", f, a_err.get(f), b_err.get(f)))
    return diffs


def _same(a: object, b: object) -> bool:
    """Equal including type: 1 vs 1.0, True vs 1 and 0.0 vs -0.0 all count as different."""
    return json.dumps(a) == json.dumps(b)
