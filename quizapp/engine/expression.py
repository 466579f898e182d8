"""Parse a torch-like chain into steps: a hand-written reader, else Python's ``ast`` (never eval)."""

from __future__ import annotations

import ast
import math
import re
import warnings

from quizapp.engine.chain_reader import ChainNames, read_chain
from quizapp.engine.dtypes import DTYPE_ALIASES, DTYPES, UNSUPPORTED_DTYPE_NAMES
from quizapp.engine.misuse import describe_assignment, describe_query, refuse_copying_method
from quizapp.engine.steps import (
    Chain,
    Comparison,
    ExpressionError,
    Line,
    Program,
    Step,
    TorchName,
    render_arguments,
    render_index,
)

__all__ = ["KNOWN_DATA", "MAX_LINES", "UNSUPPORTED_DTYPE_NAMES", "Chain", "Comparison",
           "ExpressionError", "Line", "Program",
           "Step", "TorchName", "parse_expression", "parse_program", "validate_text"]

# The language:
#   chain       := constructor step*
#   constructor := torch.<CONSTRUCTOR_NAMES>(args)
#   step        := .<METHOD_NAMES>(args) | .<tuple op>(args)[k] | .T | .mT | [index]
#   args        := literal, ... , name=literal, ...   (bound per op by signatures.bind_step)
#   literal     := int | float | True | False | None | ... | (literal, ...) | [literal, ...]
#                  | torch.<dtype or memory format> | a nested chain (a tensor argument)
#   program     := line (newline-or-; line)*   (at most MAX_LINES lines; ``import torch`` is skipped)
#   line        := name = chain | chain         (a bare chain only as the last line)
#   chain        may also start from a name an earlier line bound: y = x.t(), y.view_as(x)
# Only a sign in front of a number is evaluated; every other operator is refused.  A problem in
# the whole text (length, characters, brackets, syntax, step count, constructor) raises with
# step 0 and no steps run; a problem inside step k ends the chain there, so the steps before it
# still run (ExpressionError.step = k).  Step code is rebuilt from the parsed values in Python's
# own spelling (render_value): "torch.arange(24.)" becomes "torch.arange(24.0)".

MAX_CHARS = 2000  # bound checked before anything else touches the text
KNOWN_DATA = frozenset({"arange", "zeros", "ones", "full", "tensor"})  # constructors whose values
# the engine knows (empty, rand, randn and empty_strided hold memory it cannot know)
_COMPARE_OPS = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==",
                ast.NotEq: "!="}
MAX_LINES = 8  # lines of a program, the last one included (``import torch`` lines not counted)
MAX_STEPS = 64  # steps of the whole expression, constructor and tensor arguments included
MAX_BRACKET_DEPTH = 40  # 25 nested-list dims plus the calls and indexes around them
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
CONSTRUCTOR_NAMES = frozenset(
    {"arange", "empty", "zeros", "ones", "rand", "randn", "full", "empty_strided", "tensor"}
)
ATTRIBUTE_OPS = frozenset({"T", "mT"})
METHOD_NAMES = frozenset(
    {"view", "view_as", "reshape", "reshape_as", "ravel", "flatten", "unflatten", "squeeze",
     "unsqueeze", "permute", "transpose", "swapaxes", "swapdims", "t", "movedim", "moveaxis",
     "expand", "expand_as", "broadcast_to", "narrow", "select", "unbind", "split", "chunk",
     "tensor_split", "diagonal", "unfold", "as_strided", "contiguous", "clone", "detach",
     "to", "flip"}
)
TUPLE_OPS = frozenset({"split", "chunk", "unbind", "tensor_split"})
MEMORY_FORMATS = frozenset(
    {"contiguous_format", "channels_last", "channels_last_3d", "preserve_format"}
)
DTYPE_NAMES = frozenset(DTYPES) | frozenset(DTYPE_ALIASES)  # torch.float64, torch.long, ...
TO_SUPPORTED = (".to() takes only memory_format=torch.<memory format> (and copy=True/False); "
                "the explorer follows shapes and strides, so dtype and device conversions such "
                "as .to(torch.float64) or .to('cpu') are not supported")
_READER_NAMES = ChainNames(CONSTRUCTOR_NAMES, METHOD_NAMES, ATTRIBUTE_OPS, TUPLE_OPS,
                           DTYPE_NAMES | MEMORY_FORMATS | UNSUPPORTED_DTYPE_NAMES, MAX_STEPS)
_TO_CALL_OPEN = re.compile(r"\.\s*to\s*\([^()]*$")  # the text up to a quote is inside .to(
_FILENAME = "<quizapp expression>"
# The tokenizer warns about inputs like ``1if``; such text is rejected anyway, so keep it quiet.
warnings.filterwarnings("ignore", category=SyntaxWarning, module=re.escape(_FILENAME))


def parse_expression(expr: object) -> Chain:
    """Parse ``expr``; whole-input problems raise, a problem inside step k ends the chain there."""
    if not isinstance(expr, str):
        raise ExpressionError("expected the expression as a string")
    validate_text(expr)
    chain = read_chain(expr, _READER_NAMES)
    if chain is not None:
        return chain
    return parse_with_ast(expr)


def parse_with_ast(expr: str) -> Chain:
    """parse_expression's reading by Python's ``ast``, for text ``validate_text`` passed: every
    text read_chain leaves, and each language error's wording and column."""
    try:
        tree = ast.parse(expr, filename=_FILENAME, mode="eval")
    except SyntaxError as exc:
        column = _absolute_column(expr, exc.lineno or 1, (exc.offset or 1) - 1)
        raise ExpressionError(describe_assignment(expr) or
                              f"expected a torch expression ({exc.msg})", column) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError("expected a simpler expression (too deeply nested)") from None
    parser = _ChainParser(expr)
    return parser.chain(tree.body, nested=False)


def parse_program(expr: object) -> Program:
    """Parse ``expr`` as a lone chain or as lines binding names (``x = ...`` then ``x.t()``).

    A text that is one expression is the lone chain ``parse_expression`` reads (same steps,
    same errors).  Otherwise it is read as Python statements: each line but the last binds a
    name to a chain; the last binds one or is a chain.  Whole-text problems (length,
    characters, syntax, more than MAX_LINES lines, the shared MAX_STEPS) raise with no line
    run; a problem in line k ends the program there, and the lines before it still run.
    """
    if not isinstance(expr, str):
        raise ExpressionError("expected the expression as a string")
    validate_text(expr)
    chain = read_chain(expr, _READER_NAMES)  # the common lone chain, read without ast
    if chain is not None:
        return Program((Line(None, chain, render_chain(chain)),), named=False)
    try:
        lone = ast.parse(expr, filename=_FILENAME, mode="eval")
    except SyntaxError:
        pass
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError("expected a simpler expression (too deeply nested)") from None
    else:
        chain = _ChainParser(expr).chain(lone.body, nested=False)
        return Program((Line(None, chain, render_chain(chain)),), named=False, error=chain.error)
    # A pasted line may keep its indentation: the first line's leading blanks are dropped
    # (and counted back into every column), since Python would refuse them.
    text = expr.lstrip(" \t")
    shift = len(expr) - len(text)
    try:
        tree = ast.parse(text, filename=_FILENAME, mode="exec")
    except SyntaxError as exc:
        column = shift + _absolute_column(text, exc.lineno or 1, (exc.offset or 1) - 1)
        if isinstance(exc, IndentationError):
            raise ExpressionError(f"expected every line to start at the left edge "
                                  f"({exc.msg} on line {exc.lineno})", column) from None
        raise ExpressionError(f"expected a torch expression, or lines such as x = "
                              f"torch.arange(6) then x.view(2, 3) ({exc.msg})", column) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError("expected a simpler expression (too deeply nested)") from None
    statements = [s for s in tree.body if not _imports_torch(s)]
    parser = _ChainParser(text, shift)
    if len(statements) > MAX_LINES:
        raise ExpressionError(f"expected at most {MAX_LINES} lines, got {len(statements)}",
                              parser.column(statements[MAX_LINES]))
    if not statements:
        raise ExpressionError("expected a chain after import torch, such as "
                              "torch.arange(6).view(2, 3)")
    lines: list[Line] = []
    for number, statement in enumerate(statements):
        last = number == len(statements) - 1
        try:
            target, value = parser.statement(statement, last)
            chain = parser.chain(value, nested=False)
        except _BudgetError:
            raise
        except ExpressionError as exc:
            if not lines:
                raise
            return Program(tuple(lines), named=True, error=exc)
        code = render_chain(chain) if target is None else f"{target} = {render_chain(chain)}"
        lines.append(Line(target, chain, code))
        if chain.error is not None:
            return Program(tuple(lines), named=True, error=chain.error)
        if target is not None:
            parser.names.add(target)
            parser.roots[target] = parser.root_of(chain)
    return Program(tuple(lines), named=True)


def render_chain(chain: Chain) -> str:
    """The normalised text of a chain: its steps' code, joined."""
    return "".join(step.code for step in chain.steps)


def _imports_torch(statement: ast.stmt) -> bool:
    """``import torch``, which pasted code often starts with: nothing to run."""
    return (isinstance(statement, ast.Import) and len(statement.names) == 1
            and statement.names[0].name == "torch" and statement.names[0].asname is None)


_NOT_PRINTABLE = re.compile(r"[^ -~\t\n\r]")
_QUOTE = re.compile(r"['\"]")


def validate_text(expr: str) -> None:
    """Length, character set and bracket depth: checked on the raw text before ``ast`` sees it.

    The first problem in reading order is reported: each kind is found by one scan (regular
    expressions; the bracket walk only when there are enough brackets to go too deep).
    """
    if len(expr) > MAX_CHARS:
        raise ExpressionError(f"expected at most {MAX_CHARS} characters, got {len(expr)}",
                              MAX_CHARS + 1)
    found = []  # (position, kind) of the first problem of each kind
    for pattern, kind in ((_NOT_PRINTABLE, "char"), (_QUOTE, "quote")):
        match = pattern.search(expr)
        if match:
            found.append((match.start(), kind))
    if expr.count("(") + expr.count("[") + expr.count("{") > MAX_BRACKET_DEPTH:
        depth = 0
        for i, ch in enumerate(expr):
            if ch in "([{":
                depth += 1
                if depth > MAX_BRACKET_DEPTH:
                    found.append((i, "depth"))
                    break
            elif ch in ")]}":
                depth -= 1
    if found:
        i, kind = min(found)
        if kind == "depth":
            raise ExpressionError(f"expected brackets nested at most {MAX_BRACKET_DEPTH} deep",
                                  i + 1)
        if kind == "quote":
            if _TO_CALL_OPEN.search(expr, 0, i):  # .to("cpu"): say what .to() supports
                raise ExpressionError(f"expected no strings: {TO_SUPPORTED}", i + 1)
            raise ExpressionError("expected no strings: use torch.<name> for dtypes and formats",
                                  i + 1)
        raise ExpressionError(f"expected printable ASCII characters, got {expr[i]!r}", i + 1)
    if not expr.strip():
        raise ExpressionError("expected an expression such as torch.arange(6).view(2, 3)")


def _absolute_column(expr: str, lineno: int, col: int) -> int:
    """1-based position in the whole text of (line, 0-based column); the text is ASCII."""
    lines = expr.split("\n")
    return sum(len(line) + 1 for line in lines[: lineno - 1]) + col + 1


class _ChainParser:
    """Walks the ``ast`` of one expression; every node kind not listed here is refused."""

    def __init__(self, expr: str, shift: int = 0) -> None:
        self.expr = expr
        self.line_starts = [shift]  # offset of each line's first character (the text is ASCII)
        for line in expr.split("\n")[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)
        self.steps_left = MAX_STEPS
        self.names: set[str] = set()  # names bound by the lines parsed so far
        self.roots: dict[str, str] = {}  # name -> the constructor its tensor comes from

    def column(self, node: ast.expr | ast.keyword | ast.stmt) -> int:
        return self.line_starts[node.lineno - 1] + node.col_offset + 1

    def statement(self, node: ast.stmt, last: bool) -> tuple[str | None, ast.expr]:
        """(name bound, chain node) of one line: ``name = chain``, or a chain if ``last``."""
        if isinstance(node, ast.Assign):
            target = node.targets[0]
            if len(node.targets) > 1:
                raise ExpressionError("expected one name per line (x = ...), not a = b = ...",
                                      self.column(node.targets[1]))
            if isinstance(target, ast.Tuple | ast.List):
                raise ExpressionError(
                    "expected one name per line: a, b = ... unpacks a tuple, which the explorer "
                    "writes as a = x.split(2)[0] then b = x.split(2)[1]", self.column(target))
            if not isinstance(target, ast.Name):
                raise ExpressionError("expected a name to bind (x = ...): assigning into a "
                                      "tensor or an attribute changes it in place, which the "
                                      "explorer does not model", self.column(target))
            if target.id == "torch":
                raise ExpressionError("expected a name other than torch, which names the module",
                                      self.column(target))
            return target.id, node.value
        if isinstance(node, ast.Expr):
            value = node.value
            if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                    and value.func.id == "print"):
                raise ExpressionError("expected the chain without print(...): the explorer "
                                      "shows every step and the values of the last one",
                                      self.column(value))
            if not last:
                raise ExpressionError("expected name = chain on every line but the last: the "
                                      "result of this line would have no name to use it by",
                                      self.column(node))
            return None, value
        if isinstance(node, ast.AugAssign):
            raise ExpressionError("expected name = chain: in-place arithmetic such as += is not "
                                  "part of the language", self.column(node))
        kind = type(node).__name__.lower()
        article = "an" if kind[0] in "aeiou" else "a"
        raise ExpressionError(f"expected name = chain or a chain on each line, got {article} "
                              f"{kind} statement", self.column(node))

    def chain(self, node: ast.expr, nested: bool) -> Chain:
        nodes = self.unwind(node)
        root = nodes[0]
        steps: list[Step] = []
        if isinstance(root, ast.Name):
            if root.id not in self.names:
                bound = ", ".join(sorted(self.names))
                known = (f"a name bound on an earlier line ({bound})" if bound else
                         "a name bound on an earlier line, as in x = torch.arange(6) then x.t()")
                raise ExpressionError(f"expected a constructor such as torch.arange(...) or "
                                      f"{known}, got {root.id}", self.column(root))
            steps.append(Step("name", root.id, (), (), root.id, self.column(root)))
        elif not (isinstance(root, ast.Call) and isinstance(root.func, ast.Attribute)
                  and isinstance(root.func.value, ast.Name) and root.func.value.id == "torch"):
            what = "a tensor argument" if nested else "the expression"
            raise ExpressionError(f"expected {what} to start with a constructor such as "
                                  "torch.arange(...)", self.column(root))
        try:
            if not steps:
                assert isinstance(root, ast.Call)  # checked above: torch.<name>(...)
                self.take_step()
                steps.append(self.constructor(root))
            i = 1
            while i < len(nodes):
                self.take_step()
                step, i = self.op_step(nodes, i)
                steps.append(step)
        except ExpressionError as exc:
            if nested or not steps or isinstance(exc, _BudgetError):
                raise
            exc.step = len(steps)
            return Chain(tuple(steps), exc)
        return Chain(tuple(steps))

    def root_of(self, chain: Chain) -> str:
        """The constructor a chain's tensor comes from, followed back through names."""
        first = chain.steps[0]
        return self.roots[first.name] if first.kind == "name" else first.name

    def comparison(self, node: ast.Compare) -> Comparison:
        """``tensor <op> number`` as an index item: a mask of the tensor's shape."""
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE_OPS:
            raise ExpressionError("expected one comparison (>, >=, <, <=, == or !=) of a tensor "
                                  "with a number, such as x > 3", self.column(node))
        left, right = node.left, node.comparators[0]
        if not isinstance(left, ast.Call | ast.Subscript | ast.Attribute | ast.Name):
            raise ExpressionError("expected the tensor on the left of the comparison, such as "
                                  "x > 3", self.column(node))
        scalar = self.value(right, in_index=False)
        if type(scalar) not in (int, float, bool):
            raise ExpressionError("expected a number on the right of the comparison, such as "
                                  "x > 3", self.column(right))
        chain = self.chain(left, nested=True)
        root = self.root_of(chain)
        if root not in KNOWN_DATA:
            raise ExpressionError(
                f"expected a mask of known values: torch.{root} holds values the explorer does "
                f"not know, so it cannot say which elements the comparison picks (build the "
                f"tensor with torch.arange, zeros, ones, full or tensor)", self.column(node))
        assert isinstance(scalar, int | float)  # a bool is an int
        return Comparison(chain, _COMPARE_OPS[type(node.ops[0])], scalar)

    def take_step(self) -> None:
        self.steps_left -= 1
        if self.steps_left < 0:
            raise _BudgetError(f"expected at most {MAX_STEPS} steps in the whole expression")

    def unwind(self, node: ast.expr) -> list[ast.expr]:
        """The chain's nodes innermost first; iterative, so long chains cannot recurse."""
        nodes = []
        while True:
            nodes.append(node)
            if len(nodes) > 3 * MAX_STEPS + 3:
                raise _BudgetError(f"expected at most {MAX_STEPS} steps in the whole expression")
            if isinstance(node, ast.Call):
                node = node.func
            elif isinstance(node, ast.Attribute | ast.Subscript):
                if isinstance(node.value, ast.Name):
                    if node.value.id != "torch":  # a chain from a name: the name is its root
                        nodes.append(node.value)
                    break
                node = node.value
            else:
                break
        nodes.reverse()
        if isinstance(nodes[0], ast.Attribute) and len(nodes) > 1:
            nodes = nodes[1:]  # torch.<ctor> is folded into the constructor call
        return nodes

    def constructor(self, call: ast.Call) -> Step:
        assert isinstance(call.func, ast.Attribute)  # chain checked torch.<name>(...)
        name = call.func.attr
        if name not in CONSTRUCTOR_NAMES:
            allowed = ", ".join(f"torch.{n}" for n in sorted(CONSTRUCTOR_NAMES))
            # torch.flip(x, ...) and torch.transpose(x, ...): the function form of a method.
            method = (f"; torch.{name}(x, ...) is written here as a method after a constructor, "
                      f"e.g. torch.arange(6).view(2, 3).{name}(...)" if name in METHOD_NAMES
                      else "")
            refuse_copying_method(name, self.column(call), f"torch.{name}")
            raise ExpressionError(f"expected a constructor ({allowed}), got torch.{name}{method}",
                                  self.column(call))
        args, kwargs, columns = self.arguments(call)
        code = f"torch.{name}({render_arguments(args, kwargs)})"
        return Step("constructor", name, args, kwargs, code, self.column(call), None,
                    columns)

    def op_step(self, nodes: list[ast.expr], i: int) -> tuple[Step, int]:
        node = nodes[i]
        if isinstance(node, ast.Subscript):
            index = self.value(node.slice, in_index=True)
            column = self.after(node.value)
            columns: tuple[int, ...] = (self.column(node.slice),)
            return Step("index", "__getitem__", (index,), (), render_index(index), column, None,
                        columns), i + 1
        if isinstance(node, ast.Call):  # a call of something that is not a method
            raise ExpressionError("expected a method call such as .view(...)",
                                  self.after(node.func))
        # Each node after the first is one unwind went through: a Call, Subscript or Attribute.
        assert isinstance(node, ast.Attribute)
        name = node.attr
        column = self.after(node) - len(name) - 1  # the "." before the name
        following = nodes[i + 1] if i + 1 < len(nodes) else None
        call = following if isinstance(following, ast.Call) else None
        called = call is not None
        if name in ATTRIBUTE_OPS:
            if called:
                raise ExpressionError(f"expected .{name} without parentheses (it is an attribute)",
                                      column)
            return Step("attribute", name, (), (), f".{name}", column), i + 1
        if name not in METHOD_NAMES:
            refuse_copying_method(name, column)  # no copying method is a question the table answers
            raise ExpressionError(describe_query(name, call)
                                  or f"expected a supported op (."
                                  f"{', .'.join(sorted(METHOD_NAMES))}, .T, .mT), got .{name}",
                                  column)
        if call is None:
            raise ExpressionError(f"expected a call: .{name}(...)", column)
        args, kwargs, columns = self.arguments(call)
        code = f".{name}({render_arguments(args, kwargs)})"
        if name not in TUPLE_OPS:
            return Step("method", name, args, kwargs, code, column, None, columns), i + 2
        pick_node = nodes[i + 2] if i + 2 < len(nodes) else None
        if not isinstance(pick_node, ast.Subscript):
            raise ExpressionError(f".{name}(...) returns a tuple: expected [k] after it",
                                  self.after(call))
        simple = isinstance(pick_node.slice, ast.Constant | ast.UnaryOp)
        pick = self.value(pick_node.slice, in_index=False) if simple else None
        if type(pick) is not int:
            raise ExpressionError("expected one integer k in [k] to pick a tensor from the tuple",
                                  self.column(pick_node.slice))
        code += f"[{pick}]"
        return Step("method", name, args, kwargs, code, column, pick, columns), i + 3

    def after(self, node: ast.expr) -> int:
        """1-based column just after ``node`` (where a ``[`` or ``(`` that follows it sits)."""
        assert node.end_lineno is not None and node.end_col_offset is not None  # set by ast.parse
        return self.line_starts[node.end_lineno - 1] + node.end_col_offset + 1

    def arguments(self, call: ast.Call) -> tuple[tuple, tuple, tuple[int, ...]]:
        """Positional values, (name, value) pairs and the column where each one starts."""
        args = []
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                raise ExpressionError("expected plain arguments, not *unpacking", self.column(arg))
            args.append(self.value(arg, in_index=False))
        kwargs = []
        for kw in call.keywords:
            if kw.arg is None:
                raise ExpressionError("expected name=value arguments, not **unpacking",
                                      self.column(kw.value))
            kwargs.append((kw.arg, self.value(kw.value, in_index=False)))
        columns = [self.column(a) for a in call.args] + [self.column(k) for k in call.keywords]
        return tuple(args), tuple(kwargs), tuple(columns)

    def value(self, node: ast.expr, in_index: bool) -> object:
        """A literal argument: numbers, True/False/None, ..., tuples, lists, torch names, tensors."""
        if isinstance(node, ast.Constant):
            return self.constant(node, node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            operand = node.operand
            if isinstance(operand, ast.Constant) and type(operand.value) in (int, float):
                sign = -1 if isinstance(node.op, ast.USub) else 1
                number = operand.value
                assert isinstance(number, int | float)  # its type is int or float (checked above)
                return self.constant(node, sign * number)
            raise ExpressionError("expected a number after the sign", self.column(operand))
        if isinstance(node, ast.Tuple | ast.List):
            inside = in_index and isinstance(node, ast.Tuple)  # a list's items are literals
            items = [self.value(item, inside) for item in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.Slice) and in_index:
            parts = [None if p is None else self.value(p, False)
                     for p in (node.lower, node.upper, node.step)]
            for part, part_node in zip(parts, (node.lower, node.upper, node.step), strict=True):
                if part is not None and (type(part) is not int):
                    assert part_node is not None  # a part comes from a node
                    raise ExpressionError("expected integers or nothing in a slice",
                                          self.column(part_node))
            return slice(*parts)
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "torch"):
            if (node.attr in DTYPE_NAMES or node.attr in MEMORY_FORMATS
                    or node.attr in UNSUPPORTED_DTYPE_NAMES):  # refused with a reason on binding
                return TorchName(node.attr)
            raise ExpressionError(f"expected a dtype or memory format such as torch.float64, got "
                                  f"torch.{node.attr}", self.column(node))
        if isinstance(node, ast.Call | ast.Subscript | ast.Attribute) or (
                isinstance(node, ast.Name) and node.id in self.names):
            return self.chain(node, nested=True)
        if isinstance(node, ast.Name):
            raise ExpressionError(f"expected a number, True/False/None, a tuple or list, "
                                  f"torch.<dtype> or a tensor, got {node.id}, which no earlier "
                                  f"line binds", self.column(node))
        if isinstance(node, ast.Compare) and in_index:
            return self.comparison(node)
        if isinstance(node, ast.BinOp | ast.BoolOp | ast.Compare):
            raise ExpressionError("expected a literal: arithmetic is not part of the language",
                                  self.column(node))
        raise ExpressionError("expected a number, True/False/None, a tuple or list, torch.<dtype>"
                              " or a tensor", self.column(node))

    def constant(self, node: ast.expr, value: object) -> object:
        if value is None or value is Ellipsis or isinstance(value, bool):
            return value
        if isinstance(value, int):
            if not INT64_MIN <= value <= INT64_MAX:
                raise ExpressionError("expected an integer that fits in int64", self.column(node))
            return value
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ExpressionError("expected a finite number", self.column(node))
            return value
        raise ExpressionError(f"expected a number, True, False, None or ..., got {value!r}",
                              self.column(node))


class _BudgetError(ExpressionError):
    """Too many steps: a whole-input problem, reported at step 0 with no steps run."""
