"""Messages for well-meant input outside the language: pasted code, questions the table answers."""

from __future__ import annotations

import ast
import re

from quizapp.engine.steps import ExpressionError

# "x = torch.randn(4, 6)": a line of code pasted with its assignment (a statement, so a syntax
# error), but not "x == ..." (a comparison).
_ASSIGNMENT = re.compile(r"\s*([A-Za-z_]\w*\s*=)(?!=)")

# Methods that ask about a tensor rather than make one: the explorer's table shows each for
# every step, so a chain ending in one is told where to look, not offered the list of ops.
QUERY_COLUMNS = {"is_contiguous": "Contiguous", "stride": "Stride", "size": "Shape",
                 "shape": "Shape", "dim": "Shape", "ndim": "Shape", "numel": "Shape",
                 "storage_offset": "Offset", "data_ptr": "Storage", "untyped_storage": "Storage",
                 "_is_view": "Storage", "element_size": "dtype", "dtype": "dtype"}


# Methods that always copy and that the explorer does not model: named, with what they do,
# instead of the list of ops (flip, which a negative slice step's refusal points at, is an op).
COPYING_METHODS = {
    "fliplr": "it reverses the columns, into new memory",
    "flipud": "it reverses the rows, into new memory",
    "roll": "it shifts the elements round, into new memory",
    "repeat": "it tiles the data, into new memory",
    "tile": "it tiles the data, into new memory",
    "rot90": "it rotates the elements, into new memory",
}
# Beside such a refusal, instead of "the input is outside the expression language": it is not.
UNMODELLED_WHY = ("This op runs in torch, but the explorer does not model it, so nothing from this "
                  "step on was run.")


def refuse_copying_method(name: str, column: int, written: str = "") -> None:
    """Raise the refusal of ``.name`` (or ``written``, torch.roll say), with its own reason,
    when it is a copying method the explorer does not model; return otherwise."""
    if name not in COPYING_METHODS:
        return
    raise ExpressionError(
        f"{written or '.' + name} always copies ({COPYING_METHODS[name]}), and the explorer, "
        f"which follows views and the copies reshape, contiguous, clone, flip and .to make, "
        f"does not model it", column, why=UNMODELLED_WHY)


def describe_assignment(expr: str) -> str | None:
    """What to take away from ``expr`` when it starts with ``name =``; None otherwise."""
    assigned = _ASSIGNMENT.match(expr)
    return f"write the chain itself, without {assigned.group(1)!r}" if assigned else None


# The Contiguous column is Tensor.is_contiguous() with no argument (row-major); a format asked
# for by memory_format= is another question, whose answer the column may contradict.
FORMAT_QUERY = (".is_contiguous(memory_format=...) is not a column: the table's Contiguous column "
                "is the default, row-major contiguity, which a channels_last tensor does not "
                "have. Leave the call out and read the Stride column: channels_last-contiguous "
                "strides grow C, W, H, N (e.g. shape (2, 3, 4, 5), strides (60, 1, 15, 3))")


def describe_query(name: str, call: ast.Call | None = None) -> str | None:
    """Where the table answers ``.name`` (a method or an attribute, ``call`` its call if any),
    or None when ``name`` asks nothing it shows."""
    if name == "is_contiguous" and call is not None and _asks_another_format(call):
        return FORMAT_QUERY
    if name not in QUERY_COLUMNS:
        return None
    return (f".{name} is answered for every step in the table's {QUERY_COLUMNS[name]} column: "
            f"leave it out (the explorer follows ops that make a tensor)")


def _asks_another_format(call: ast.Call) -> bool:
    """Whether is_contiguous(...) names a memory format other than torch.contiguous_format,
    the default the Contiguous column answers."""
    values = [*call.args, *(keyword.value for keyword in call.keywords)]
    return any(_name_of(value) != "contiguous_format" for value in values)


def _name_of(node: ast.AST) -> str | None:
    """``torch.contiguous_format`` or a bare ``contiguous_format``: the name it ends with."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None
