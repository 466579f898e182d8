"""A hand-written reader for well-formed chain text: the ast walk's Chain, without ``ast``."""

# parse_expression gives every text to read_chain first.  It reads the language's common
# form -- torch.<constructor>(...) then .method(...), .T / .mT and [index] steps, literal
# arguments and nested chains -- separated by spaces, and builds exactly the Chain the ast
# walk (expression._ChainParser) builds: the same values, code, columns and picks.  Whatever
# it does not read with certainty (a syntax error, an unknown name, a value the language
# refuses, a newline, a comment, parentheses around a value, hex or 1_000 numbers, ...) makes
# it return None, and the ast walk reads the text and words the error: so the reader never
# words an error of its own, and a text it reads is one Python's parser reads the same way.
# tests/engine/test_chain_reader.py checks both paths agree on generated and hostile texts.

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from itertools import accumulate
from keyword import iskeyword

from quizapp.engine.steps import Chain, Step, TorchName, render_arguments, render_index

# Tokens with the spaces before them; findall skips what matches nothing, so the lengths must
# add up to the whole text.  Numbers follow Python's literals: 1, 1., .5, 1.5e-3, 1e5.  A
# parenthesised list of plain ints -- (2, 3), (-1,), () -- is one token: most calls and many
# tuples are just that, and one token is read with str methods instead of token by token.
_INT = r"-?(?:0|[1-9]\d*)"
_TOKENS = re.compile(
    rf" *(?:\( *(?:{_INT} *(?:, *{_INT} *)*(?:, *)?)?\)|[(),\[\]:=+-]|[A-Za-z_]\w*|\.\.\."
    r"|\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?|\.)")
_CONSTANTS = {"True": True, "False": False, "None": None, "...": Ellipsis}
_SIGNS = {"-": -1, "+": 1}
_CLOSERS = frozenset({",", ")", "]"})
_ENDS_PART = frozenset({",", "]", ":"})  # what follows a slice part left out
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_PLUS_TWO = (2).__add__  # from one ", "-separated piece's column to the next one's

_new_object = object.__new__
(_set_kind, _set_name, _set_args, _set_kwargs, _set_code, _set_column, _set_pick,
 _set_arg_columns) = (vars(Step)[field].__set__ for field in (
    "kind", "name", "args", "kwargs", "code", "column", "pick", "arg_columns"))
_set_steps, _set_error = (vars(Chain)[field].__set__ for field in ("steps", "error"))


class _Unread(Exception):
    """The text is not in the form this reader takes: the ast walk reads it instead."""


def _step(kind: str, name: str, args: tuple, kwargs: tuple, code: str, column: int,
          pick: int | None, arg_columns: tuple[int, ...]) -> Step:
    """``Step(...)`` without the frozen dataclass's __init__ (once per step)."""
    step = _new_object(Step)
    _set_kind(step, kind)
    _set_name(step, name)
    _set_args(step, args)
    _set_kwargs(step, kwargs)
    _set_code(step, code)
    _set_column(step, column)
    _set_pick(step, pick)
    _set_arg_columns(step, arg_columns)
    return step


def _chain(steps: tuple[Step, ...]) -> Chain:
    chain = _new_object(Chain)
    _set_steps(chain, steps)
    _set_error(chain, None)
    return chain


@dataclass(frozen=True, slots=True)
class ChainNames:
    """The names the reader takes (expression.py, which owns the language, gives them)."""

    constructors: frozenset[str]
    methods: frozenset[str]
    attributes: frozenset[str]  # .T, .mT
    tuple_ops: frozenset[str]  # methods followed by [k]
    torch_names: frozenset[str]  # torch.<dtype or memory format> as a value
    max_steps: int


def read_chain(expr: str, names: ChainNames) -> Chain | None:
    """The Chain of ``expr`` as the ast walk reads it, or None if this reader leaves it."""
    found = _TOKENS.findall(expr)
    if not found or found[0][0] == " ":
        return None  # Python refuses a leading space in an expression (unexpected indent)
    ends = list(accumulate(map(len, found)))
    if ends[-1] != len(expr) and expr[ends[-1]:].strip(" "):
        return None  # a character no token takes (a newline, a tab, '*', '#', ...)
    tokens = list(map(str.lstrip, found))
    tokens.append("")  # the end: no token is empty, so nothing takes it
    reader = _Reader(tokens, ends, names)
    try:
        chain = reader.chain(0)
    except (_Unread, IndexError):  # IndexError: the text ended inside a step
        return None
    return chain if reader.i == len(found) else None


class _Reader:
    """Recursive descent over the tokens; ``i`` is the next token's index."""

    def __init__(self, tokens: list[str], ends: list[int], names: ChainNames) -> None:
        self.tokens, self.ends, self.names = tokens, ends, names
        self.i = 0
        self.steps_left = names.max_steps

    def start(self, i: int) -> int:
        """0-based offset of token ``i`` (its end less its length)."""
        return self.ends[i] - len(self.tokens[i])

    def take_step(self) -> None:
        self.steps_left -= 1
        if self.steps_left < 0:
            raise _Unread  # the ast walk words the step budget

    def chain(self, start: int) -> Chain:
        """torch.<constructor>(...) and the steps after it, from token ``start``."""
        tokens, names = self.tokens, self.names
        name = tokens[start + 2]
        if tokens[start] != "torch" or tokens[start + 1] != "." or name not in names.constructors:
            raise _Unread
        self.i = start + 3
        self.take_step()
        args, kwargs, columns, text = self.arguments()
        steps = [_step("constructor", name, args, kwargs, f"torch.{name}({text})",
                       self.start(start) + 1, None, columns)]
        while True:
            token = tokens[self.i]
            if token == ".":
                self.take_step()
                steps.append(self.op_step())
            elif token == "[":
                self.take_step()
                steps.append(self.index_step())
            else:  # the end, or of a nested chain: the caller takes the ',' ')' or ']'
                return _chain(tuple(steps))

    def op_step(self) -> Step:
        tokens, names = self.tokens, self.names
        i = self.i + 1  # the name after the "."
        name = tokens[i]
        column = self.start(i)  # the ast walk's column: just before the name
        self.i = i + 1
        following = tokens[i + 1]
        if name in names.attributes:
            if following[:1] == "(":
                raise _Unread
            return _step("attribute", name, (), (), f".{name}", column, None, ())
        if name not in names.methods or following[:1] != "(":
            raise _Unread
        args, kwargs, columns, text = self.arguments()
        if name not in names.tuple_ops:
            return _step("method", name, args, kwargs, f".{name}({text})", column, None, columns)
        if tokens[self.i] != "[":
            raise _Unread
        self.i += 1
        pick = self.signed_number()
        if tokens[self.i] != "]" or type(pick) is not int:
            raise _Unread
        self.i += 1
        return _step("method", name, args, kwargs, f".{name}({text})[{pick}]", column, pick,
                     columns)

    def index_step(self) -> Step:
        """``[items]``: the column just after what precedes the '[', the items' first one."""
        tokens = self.tokens
        i = self.i
        column = self.ends[i - 1] + 1
        self.i = i + 1
        first = self.start(i + 1) + 1
        items = [self.index_item()]
        tupled = False
        while tokens[self.i] == ",":
            tupled = True
            self.i += 1
            if tokens[self.i] == "]":
                break
            items.append(self.index_item())
        if tokens[self.i] != "]":
            raise _Unread
        self.i += 1
        index = tuple(items) if tupled else items[0]
        return _step("index", "__getitem__", (index,), (), render_index(index), column, None,
                     (first,))

    def index_item(self) -> object:
        """A value, or a slice of integers (``a:b:c``, any part left out)."""
        tokens = self.tokens
        parts: list[object] = [None, None, None]
        if tokens[self.i] != ":":
            value = self.value()
            if tokens[self.i] != ":":
                return value
            parts[0] = value
        for at in (1, 2):
            if tokens[self.i] != ":":
                break
            self.i += 1
            if tokens[self.i] not in _ENDS_PART:
                parts[at] = self.value()
        for part in parts:
            if part is not None and type(part) is not int:
                raise _Unread  # the ast walk refuses it with its column
        return slice(*parts)

    def arguments(self) -> tuple[tuple, tuple, tuple[int, ...], str]:
        """``(positional, name=value)`` at the next token: values, (name, value) pairs, each
        one's column, and their normalised text."""
        tokens = self.tokens
        token = tokens[self.i]
        if token != "(":
            if token[:1] != "(":
                raise _Unread  # torch.<name> not called, ...
            ints, int_columns = self.int_list(self.i)  # a list of plain ints, one token
            self.i += 1
            return ints, (), int_columns, ", ".join(map(str, ints))
        self.i += 1
        values: list[object] = []
        kwargs: list[tuple[str, object]] = []
        columns: list[int] = []
        while tokens[self.i] != ")":
            columns.append(self.start(self.i) + 1)
            if tokens[self.i + 1] == "=":
                name = tokens[self.i]
                if not (name[0].isalpha() or name[0] == "_") or iskeyword(name) or any(
                        name == k for k, _ in kwargs):
                    raise _Unread  # Python's own syntax errors
                self.i += 2
                kwargs.append((name, self.value()))
            elif kwargs:
                raise _Unread  # a positional argument after a keyword one
            else:
                values.append(self.value())
            if tokens[self.i] == ",":
                self.i += 1
            elif tokens[self.i] != ")":
                raise _Unread
        self.i += 1
        args: tuple = tuple(values)
        named = tuple(kwargs)
        return args, named, tuple(columns), render_arguments(args, named)

    def int_list(self, i: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The ints of a ``(2, -1, 3)`` token and the column of each."""
        token = self.tokens[i]
        inner = token[1:-1]
        first = self.start(i) + 2  # 1-based column of the character after "("
        commas = inner.count(",")
        if inner and inner[0] != " " and inner[-1] != " " and inner[-1] != "," and (
                inner.count(" ") == commas == inner.count(", ")):  # written "2, -1, 3"
            pieces = inner.split(", ")
            values = tuple(map(int, pieces))
            columns = tuple(accumulate(map(_PLUS_TWO, map(len, pieces[:-1])), initial=first))
        else:
            pieces = inner.split(",")
            if not pieces[-1].strip(" "):
                pieces.pop()  # a trailing comma, or ()
            values = tuple(map(int, pieces))
            starts, offset = [], first
            for piece in pieces:
                starts.append(offset + len(piece) - len(piece.lstrip(" ")))
                offset += len(piece) + 1
            columns = tuple(starts)
        if values and not (INT64_MIN <= min(values) and max(values) <= INT64_MAX):
            raise _Unread
        return values, columns

    def value(self) -> object:
        """A literal argument, a torch.<name> or a nested chain."""
        tokens = self.tokens
        token = tokens[self.i]
        head = token[0]
        if head.isdigit() or (head == "." and token != "." and token != "..."):
            self.i += 1
            number = _number(token)
            if type(number) is int and number > INT64_MAX:
                raise _Unread
            return number
        if token in _SIGNS:
            return self.signed_number()
        if token in _CONSTANTS:
            self.i += 1
            return _CONSTANTS[token]
        if head == "(":
            if token != "(":  # (2, 3) as one token: a tuple, unless (2) is 2 in parentheses
                if "," not in token and token.strip("( )"):
                    raise _Unread
                values, _ = self.int_list(self.i)
                self.i += 1
                return values
            return self.sequence(")")
        if token == "[":
            return self.sequence("]")
        if token == "torch" and tokens[self.i + 1] == ".":
            name = tokens[self.i + 2]
            if tokens[self.i + 3][:1] == "(":
                return self.chain(self.i)
            if name in self.names.torch_names and tokens[self.i + 3] in _CLOSERS:
                self.i += 3
                return TorchName(name)
        raise _Unread

    def sequence(self, closer: str) -> object:
        """``(a, b)`` / ``(a,)`` as a tuple, ``[a, b]`` as a list."""
        tokens = self.tokens
        self.i += 1
        items: list[object] = []
        commas = 0
        while tokens[self.i] != closer:
            items.append(self.value())
            if tokens[self.i] == ",":
                commas += 1
                self.i += 1
            elif tokens[self.i] != closer:
                raise _Unread
        self.i += 1
        if closer == "]":
            return items
        if len(items) == 1 and not commas:
            raise _Unread  # (x) is x in parentheses, whose column the ast walk knows
        return tuple(items)

    def signed_number(self) -> object:
        """A number with an optional sign (the one operator the language evaluates)."""
        token = self.tokens[self.i]
        sign = _SIGNS.get(token)
        if sign is not None:
            self.i += 1
            token = self.tokens[self.i]
        if not token[:1].isdigit() and not (token[:1] == "." and len(token) > 1
                                            and token != "..."):
            raise _Unread
        self.i += 1
        number = _number(token)
        value = number if sign is None else sign * number
        if type(value) is int and not INT64_MIN <= value <= INT64_MAX:
            raise _Unread
        return value


def _number(token: str) -> int | float:
    """An int (no leading zeros) or a finite float, as Python reads the literal."""
    if token.isdigit():
        if token[0] == "0" and len(token) > 1:
            raise _Unread  # 00 is 0 but 007 is a syntax error: the ast walk sorts them out
        return int(token)  # (at most MAX_CHARS digits: far below int()'s digit limit)
    number = float(token)
    if not math.isfinite(number):
        raise _Unread
    return number
