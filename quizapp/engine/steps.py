"""Parsed expression steps: the language error, the step values and their normalised text."""

from __future__ import annotations

from dataclasses import dataclass


class ExpressionError(Exception):
    """Input outside the expression language: where (1-based column) and what was expected."""

    def __init__(self, message: str, column: int = 1, step: int = 0, why: str = "") -> None:
        super().__init__(message, column)
        self.message = message
        self.column = column
        self.step = step  # index of the step the problem sits in; 0 for whole-input problems
        self.why = why  # the reason shown beside it, where the generic one would mislead

    def __str__(self) -> str:
        return f"column {self.column}: {self.message}"


@dataclass(frozen=True, slots=True)
class TorchName:
    """A ``torch.<name>`` constant used as an argument: a dtype or a memory format."""

    name: str


@dataclass(frozen=True, slots=True)
class Comparison:
    """``tensor <op> scalar`` written as an index item: the bool mask torch computes."""

    chain: Chain
    op: str  # ">", ">=", "<", "<=", "==", "!="
    scalar: int | float | bool


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a chain: the constructor, a method call, ``.T``/``.mT``, or an index."""

    kind: str  # "constructor" | "name" | "method" | "attribute" | "index"
    name: str  # "arange", "x" (a name bound by an earlier line), "view", "T", "__getitem__", ...
    args: tuple
    kwargs: tuple[tuple[str, object], ...]
    code: str  # normalised source text of the step (see render_value)
    column: int
    pick: int | None = None  # k of the ``[k]`` that follows a tuple-returning op
    arg_columns: tuple[int, ...] = ()  # where each argument starts: positional, then keywords


@dataclass(frozen=True, slots=True)
class Chain:
    """Parsed steps and a language problem found after them.

    ``steps[0]`` is the constructor, or a ``name`` step: the tensor an earlier line bound.
    """

    steps: tuple[Step, ...]
    error: ExpressionError | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a program: ``name = chain`` (``target`` is the name) or a final chain."""

    target: str | None
    chain: Chain
    code: str  # normalised text: "y = x.t()"


@dataclass(frozen=True, slots=True)
class Program:
    """Lines run in order; ``error`` is a problem found in the line after the last one kept.

    ``named`` is False for a lone chain (its document keeps the chain's form) and True when
    the text binds names (its document says which line and input each step has).
    """

    lines: tuple[Line, ...]
    named: bool
    error: ExpressionError | None = None


def render_value(value: object) -> str:
    """Normalised source text of a parsed literal (Python's spelling: 24.0, (2,), ::2, ...)."""
    if isinstance(value, bool) or value is None or type(value) in (int, float):
        return repr(value)
    if value is Ellipsis:
        return "..."
    if isinstance(value, TorchName):
        return f"torch.{value.name}"
    if isinstance(value, Chain):
        return "".join(step.code for step in value.steps)
    if isinstance(value, Comparison):
        return f"{render_value(value.chain)} {value.op} {render_value(value.scalar)}"
    if isinstance(value, slice):
        parts = ["" if p is None else render_value(p) for p in (value.start, value.stop)]
        return ":".join(parts) + ("" if value.step is None else f":{render_value(value.step)}")
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    assert isinstance(value, tuple)  # the parser's last kind of literal
    if len(value) == 1:
        return f"({render_value(value[0])},)"
    return "(" + ", ".join(render_value(v) for v in value) + ")"


def render_arguments(args: tuple, kwargs: tuple[tuple[str, object], ...]) -> str:
    parts = [render_value(a) for a in args] + [f"{k}={render_value(v)}" for k, v in kwargs]
    return ", ".join(parts)


def render_index(index: object) -> str:
    """``[...]`` text of an index; a tuple is written without its parentheses, like Python."""
    if not isinstance(index, tuple) or not index:
        return f"[{render_value(index)}]"
    inner = ", ".join(render_value(item) for item in index)
    return f"[{inner},]" if len(index) == 1 else f"[{inner}]"
