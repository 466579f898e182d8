"""Refusals of what torch accepts but the explorer does not model: dtypes, conversions."""

from __future__ import annotations

from quizapp.engine.dtypes import DTYPES
from quizapp.engine.expression import (
    MEMORY_FORMATS,
    TO_SUPPORTED,
    UNSUPPORTED_DTYPE_NAMES,
    ExpressionError,
    Step,
    TorchName,
)


def _dtype_names(step: Step) -> list[tuple[str, int]]:
    """Every torch.<dtype> among the step's arguments (nested in tuples and lists too), with
    the position of the argument it sits in."""
    found: list[tuple[str, int]] = []
    values = list(step.args) + [v for _, v in step.kwargs]
    if all(type(v) is int for v in values):  # the common case: plain integers, nothing to find
        return found
    for at, value in enumerate(values):
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, tuple | list):
                stack.extend(item)
            elif isinstance(item, TorchName) and item.name not in MEMORY_FORMATS:
                found.append((item.name, at))
    return found


def refuse_unsupported_dtypes(step: Step) -> None:
    """Dtypes outside the engine's table: refused with what is supported."""
    dtypes = _dtype_names(step)
    for name, at in dtypes:
        if name in UNSUPPORTED_DTYPE_NAMES:
            supported = ", ".join(f"torch.{n}" for n in DTYPES)
            raise ExpressionError(
                f"expected a dtype the explorer supports ({supported}, or an alias such as "
                f"torch.long): torch.{name} is a torch dtype the explorer does not support",
                _column(step, at))


_TO_KEYWORDS = ("memory_format", "copy")


def refuse_unsupported_conversions(step: Step) -> None:
    """.to() with a dtype, device or tensor (positional, or dtype=/device=/...): refused."""
    if step.kind != "method" or step.name != "to":
        return
    if step.args:
        raise ExpressionError(f"expected .to(memory_format=...): {TO_SUPPORTED}",
                              _column(step, 0))
    for j, (name, _) in enumerate(step.kwargs):
        if name not in _TO_KEYWORDS:
            raise ExpressionError(f"expected .to(memory_format=...), got {name}=: {TO_SUPPORTED}",
                                  _column(step, j))


def _column(step: Step, at: int) -> int:
    return step.arg_columns[at] if at < len(step.arg_columns) else step.column
