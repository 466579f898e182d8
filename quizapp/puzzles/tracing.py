"""The engine's step-by-step document for a chain, as the puzzles read it."""

from __future__ import annotations

from typing import Any

from quizapp.engine import explain
from quizapp.engine.dtypes import DTYPES


class GenerationError(RuntimeError):
    """A family built a chain the engine did not accept as intended: a bug in the family."""


class Trace:
    """``explain(expr)`` with accessors: ``steps``, ``final``, ``values``, ``error``."""

    __slots__ = ("error", "expr", "steps", "values")

    def __init__(self, expr: str, doc: dict[str, Any] | None = None) -> None:
        doc = explain(expr) if doc is None else doc
        self.expr = expr
        self.steps: list[dict[str, Any]] = doc["steps"]
        self.values = doc["values"]
        self.error: dict[str, Any] | None = doc["error"]

    def prefix(self, expr: str, count: int) -> Trace:
        """The first ``count`` steps, as the trace of ``expr`` (the chain they came from)."""
        return Trace(expr, {"steps": self.steps[:count], "values": None, "error": None})

    @property
    def final(self) -> dict[str, Any]:
        return self.steps[-1]

    def copied_at(self, start: int = 0) -> int | None:
        """The first step after ``start`` whose storage differs from step ``start``'s, or None."""
        base = self.steps[start]["storage"]
        for i in range(start + 1, len(self.steps)):
            if self.steps[i]["storage"] != base:
                return i
        return None

    def error_text(self) -> str:
        """``RuntimeError: <message>`` for a failed chain."""
        assert self.error is not None
        return f"{self.error['type']}: {self.error['message']}"

    def error_why(self) -> str:
        """The engine's reason for the error, or "" when it gives none."""
        assert self.error is not None
        return str(self.error.get("why") or "")


def trace(expr: str) -> Trace:
    """Trace a chain that must succeed."""
    result = Trace(expr)
    if result.error is not None:
        raise GenerationError(f"the engine rejected {expr!r}: {result.error_text()}")
    return result


def trace_outcome(expr: str) -> Trace:
    """Trace a chain that may fail (the puzzle is about whether it does)."""
    result = Trace(expr)
    if result.error is not None and result.error["type"] == "ExpressionError":
        raise GenerationError(f"{expr!r} is outside the expression language: {result.error_text()}")
    return result


def itemsize(step: dict[str, Any]) -> int:
    """Bytes per element of a traced step's dtype, from the engine's dtype table."""
    return DTYPES[step["dtype"]].itemsize
