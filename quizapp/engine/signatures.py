"""Bind a step's arguments to the op layer's canonical keywords the way torch's parser would."""

# The forms follow torch's Python signatures (torch/_C/_VariableFunctions.pyi, _tensor.py):
# overloads are tried in order; a lone list-of-ints parameter also takes ints as varargs (the
# allow_varargs_intlist rule of python_arg_parser.cpp).  What torch's argument parser refuses
# with a TypeError is an ExpressionError here; a few forms torch accepts are left out of the
# language the same way (bools as integers, named dims).

from __future__ import annotations

import math
from dataclasses import dataclass

from quizapp.engine.arg_parser import describe_arity_error
from quizapp.engine.dtypes import DTYPES, canonicalize_dtype
from quizapp.engine.expression import (
    DTYPE_NAMES,
    MEMORY_FORMATS,
    Chain,
    Comparison,
    ExpressionError,
    Step,
    TorchName,
)
from quizapp.engine.ops import OPS
from quizapp.engine.ops.indexing import UnknowableRead, getitem
from quizapp.engine.signature_table import (
    CONSTRUCTOR_SIGNATURES,
    IMPLIED_DEFAULTS,
    OP_SIGNATURES,
    Param,
)
from quizapp.engine.steps import render_value
from quizapp.engine.tensor import Storage, Tensor, TorchError
from quizapp.engine.unsupported import refuse_unsupported_conversions, refuse_unsupported_dtypes
from quizapp.engine.work_bounds import (
    MAX_ALLOCATED_ELEMENTS,
    MAX_PIECES,
    MAY_COPY,
    compute_piece_count,
    validate_constructor_size,
)

MAX_DIMS = 25  # longest size/stride/dims list and deepest nested data list

_KIND_TEXT = {
    "int": "an integer", "int?": "an integer or None", "ints": "a tuple of integers",
    "int|ints": "an integer or a tuple of integers", "scalar": "a number",
    "fill": "a number or True/False", "bool": "True or False", "dtype?": "torch.<dtype> or None",
    "format": "torch.<memory format>", "format?": "torch.<memory format> or None",
    "tensor": "a tensor expression such as torch.empty(2, 3)", "data": "a number or nested list",
    "index": "integers, slices, None or ...",
}


class _Mismatch(Exception):
    """This overload does not take these arguments; ``reason`` says why, ``at`` which argument."""

    def __init__(self, reason: str, at: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.at = at


@dataclass(frozen=True, slots=True)
class BoundCall:
    """A step with its arguments bound: op-layer name, canonical keywords, ``[k]`` pick, and
    whether a keyword holds a tensor argument (a nested Chain the backend runs first)."""

    name: str
    kwargs: dict
    pick: int | None
    tensors: bool = False


_new_object = object.__new__
_set_name, _set_kwargs, _set_pick, _set_tensors = (
    vars(BoundCall)[field].__set__ for field in ("name", "kwargs", "pick", "tensors"))


def _bound(name: str, kwargs: dict, pick: int | None, tensors: bool) -> BoundCall:
    """``BoundCall(...)`` without the frozen dataclass's __init__ (once per step)."""
    call = _new_object(BoundCall)
    _set_name(call, name)
    _set_kwargs(call, kwargs)
    _set_pick(call, pick)
    _set_tensors(call, tensors)
    return call


@dataclass(frozen=True, slots=True)
class _Overload:
    """One overload, with what binding asks of it on every step worked out once."""

    params: tuple[Param, ...]
    positional: tuple[Param, ...]  # the parameters before the keyword-only ones
    names: frozenset[str]
    varargs: bool  # a lone positional int list, which takes ints as varargs too
    tensors: bool  # a parameter takes a tensor argument
    implied: tuple[tuple[str, object], ...]  # IMPLIED_DEFAULTS of the op, bound first


def _overloads(table: dict[str, tuple[tuple[Param, ...], ...]]) -> dict[str, tuple[_Overload, ...]]:
    plans = {}
    for name, overloads in table.items():
        implied = tuple(IMPLIED_DEFAULTS.get(name, {}).items())
        plan = []
        for params in overloads:
            positional = tuple(p for p in params if not p.kw_only)
            # _match binds the i-th positional value to params[i]: keyword-only ones come last
            assert params[: len(positional)] == positional, name
            plan.append(_Overload(params, positional, frozenset(p.name for p in params),
                                  len(positional) == 1 and positional[0].kind == "ints",
                                  any(p.kind == "tensor" for p in params), implied))
        plans[name] = tuple(plan)
    return plans


_PLANS = {"constructor": _overloads(CONSTRUCTOR_SIGNATURES), "method": _overloads(OP_SIGNATURES)}


def bind_step(step: Step) -> BoundCall:
    """Bind ``step`` to the first overload that takes its arguments, or raise ExpressionError."""
    kind = step.kind
    if kind == "attribute":
        return _bound(step.name, {}, None, False)
    if kind == "index":
        return _bound("__getitem__", {"index": canonicalize_index(step, step.args[0])}, None,
                      False)
    if step.kwargs or step.name == "to" or not _all_ints(step.args):
        refuse_unsupported_conversions(step)  # only ints: no dtype and no .to() to refuse
        refuse_unsupported_dtypes(step)
    if step.name == "view" and kind == "method":
        dtype = _view_dtype_argument(step)
        if dtype is not None:  # torch's first overload, view(dtype): an op of its own
            return _bound("view_dtype", {"dtype": dtype}, None, False)
    overloads = _PLANS[kind][step.name]
    first: _Mismatch | None = None
    for plan in overloads:
        try:
            kwargs = _match(plan, step)
        except _Mismatch as exc:
            first = first or exc
            continue
        if kind == "constructor":
            validate_constructor_size(step, kwargs)
        return _bound(step.name, kwargs, step.pick, plan.tensors)
    params_of = tuple(plan.params for plan in overloads)
    arity = describe_arity_error(step, lambda name, value: _accepts(params_of, name, value))
    if arity is not None:  # torch's parser refuses the call before any value is looked at
        raise ArgumentsRefused(arity, "torch's argument parser refuses this call: it does not "
                               "take these arguments (their number or names)")
    forms = " or ".join(_describe(step, params) for params in params_of)
    if len(overloads) > 1 or first is None:
        raise ExpressionError(f"expected {forms}", step.column)
    column = step.column
    if first.at is not None and first.at < len(step.arg_columns):
        column = step.arg_columns[first.at]
    raise ExpressionError(f"{first.reason}; expected {forms}", column)


def _view_dtype_argument(step: Step) -> str | None:
    """The dtype of .view(torch.<dtype>) or .view(dtype=torch.<dtype>), or None."""
    if len(step.args) + len(step.kwargs) != 1:
        return None
    value = step.args[0] if step.args else step.kwargs[0][1]
    if step.kwargs and step.kwargs[0][0] != "dtype":
        return None
    if isinstance(value, TorchName) and value.name in DTYPE_NAMES:
        dtype = canonicalize_dtype(value.name)
        assert dtype is not None  # a known name
        return dtype.name
    return None


def _all_ints(values: tuple) -> bool:
    for value in values:
        if type(value) is not int:
            return False
    return True


class ArgumentsRefused(Exception):
    """torch's TypeError for a call whose arguments' number or names fit no signature."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.message, self.why = message, why


def _accepts(overloads: tuple[tuple[Param, ...], ...], name: str, value: object) -> bool:
    """Whether some overload's parameter ``name`` takes ``value`` (the language's kinds)."""
    for params in overloads:
        for p in params:
            if p.name == name:
                try:
                    canonicalize_value(p.kind, value)
                except _Mismatch:
                    continue
                return True
    return False


def _match(plan: _Overload, step: Step) -> dict:
    """torch's FunctionSignature::parse for one overload, on the literal values of ``step``;
    the op layer's keywords (the op's implied defaults first, then its parameters in order)."""
    positional = plan.positional
    args = step.args
    varargs = plan.varargs and bool(args) and type(args[0]) in (int, float, bool)
    if varargs:  # view(2, 3) == view((2, 3)); view(2.0, 3) is refused naming the 2.0
        args = (args,)
    if len(args) > len(positional):
        raise _Mismatch(f"takes at most {_count(len(positional), 'positional argument')}, got "
                        f"{len(args)}", len(positional))
    bound = dict(plan.implied)
    if not step.kwargs:  # the common case: positional values bind the leading parameters
        for i, p in enumerate(plan.params):
            if i < len(args):
                bound[p.canonical] = _canonical(p, args[i], i, varargs)
            elif p.required:
                raise _Mismatch(f"argument {p.name!r} is missing")
            else:
                bound[p.canonical] = p.default
        return bound
    raw = {p.name: (value, i) for i, (p, value) in enumerate(zip(positional, args, strict=False))}
    names = plan.names
    for j, (name, value) in enumerate(step.kwargs):
        if name not in names:
            raise _Mismatch(f"no argument named {name!r}", len(step.args) + j)
        if name in raw:
            raise _Mismatch(f"argument {name!r} given twice", len(step.args) + j)
        raw[name] = (value, len(step.args) + j)
    for p in plan.params:
        if p.name not in raw:
            if p.required:
                raise _Mismatch(f"argument {p.name!r} is missing")
            bound[p.canonical] = p.default
            continue
        value, at = raw[p.name]
        bound[p.canonical] = _canonical(p, value, at, varargs)
    return bound


def _canonical(p: Param, value: object, at: int, varargs: bool) -> object:
    """``canonicalize_value`` for parameter ``p``, whose value is argument ``at``."""
    kind = p.kind
    if kind == "int" and type(value) is int:  # most arguments: nothing to convert
        return value
    try:
        return _CANONICALIZE[kind](value)
    except _Mismatch as exc:
        if varargs and at == 0 and exc.at is not None:
            at = exc.at  # the offending integer is an argument of its own: point at it
        raise _Mismatch(f"argument {p.name!r} must be {_KIND_TEXT[kind]}{exc.reason}",
                        at) from None


def canonicalize_value(kind: str, value: object) -> object:
    """The op layer's form of one argument of the given kind, or _Mismatch."""
    return _CANONICALIZE[kind](value)


def _refuse(value: object) -> object:
    raise _Mismatch(f", got {_describe_value(value)}")


def _int(value: object) -> object:
    return value if type(value) is int else _refuse(value)


def _optional_int(value: object) -> object:
    return value if value is None or type(value) is int else _refuse(value)


def _ints(value: object) -> object:
    if not isinstance(value, tuple | list):
        return _refuse(value)
    if len(value) > MAX_DIMS:
        raise _Mismatch(f" of at most {MAX_DIMS} entries")
    for i, v in enumerate(value):
        if type(v) is not int:  # name the value, its type and where it sits
            note = ", and the explorer takes only integers here" if isinstance(v, bool) else ""
            raise _Mismatch(f", got {_describe_value(v)} at position {i}{note}", i)
    return value if type(value) is tuple else tuple(value)


def _int_or_ints(value: object) -> object:
    return value if type(value) is int else _ints(value)


def _scalar(value: object) -> object:
    return value if type(value) in (int, float) else _refuse(value)


def _fill(value: object) -> object:
    return value if type(value) in (int, float, bool) else _refuse(value)


def _bool(value: object) -> object:
    return value if isinstance(value, bool) else _refuse(value)


def _dtype(value: object) -> object:
    if value is None:
        return None
    if isinstance(value, TorchName) and value.name in DTYPE_NAMES:
        dtype = canonicalize_dtype(value.name)
        assert dtype is not None  # canonicalize_dtype gives None only for None
        return dtype.name
    return _refuse(value)


def _format(value: object) -> object:
    if isinstance(value, TorchName) and value.name in MEMORY_FORMATS:
        return value.name
    return _refuse(value)


def _optional_format(value: object) -> object:
    return "preserve_format" if value is None else _format(value)


def _tensor(value: object) -> object:
    return value if isinstance(value, Chain) else _refuse(value)


_CANONICALIZE = {
    "int": _int, "int?": _optional_int, "ints": _ints, "int|ints": _int_or_ints,
    "scalar": _scalar, "fill": _fill, "bool": _bool, "dtype?": _dtype, "format": _format,
    "format?": _optional_format, "tensor": _tensor,
    "data": lambda value: canonicalize_data(value, 0),
}


def canonicalize_data(value: object, depth: int) -> object:
    """torch.tensor data: a number or a rectangular nested list (tuples become lists)."""
    if type(value) in (int, float, bool):
        return value
    if not isinstance(value, tuple | list):
        raise _Mismatch(f", got {_describe_value(value)}")
    if depth >= MAX_DIMS:
        raise _Mismatch(f" nested at most {MAX_DIMS} deep")
    items = [canonicalize_data(v, depth + 1) for v in value]
    shapes = {_data_shape(v) for v in items}
    if len(shapes) > 1:
        raise _Mismatch(" with every row of the same length (a rectangular nested list)")
    return items


def _data_shape(value: object) -> tuple[int, ...]:
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0] if value else None
    return tuple(shape)


MAX_INDEX_LIST = 256  # entries of one list index


def canonicalize_index(step: Step, index: object) -> object:
    """Ints, slices of ints, None, ``...``, flat lists of ints or of bools, and masks written
    as ``tensor <op> number`` (alone or in a tuple)."""
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if type(item) is list:
            _validate_list_index(step, item)
        elif not (type(item) is int or item is None or item is Ellipsis
                  or isinstance(item, slice | Comparison)):
            raise ExpressionError("expected an index of integers, slices, None, ..., lists of "
                                  "integers or of True/False, or a comparison such as x > 3, "
                                  f"got {_describe_value(item)}", step.arg_columns[0])
    if any(isinstance(item, Comparison) for item in items) and sum(
            item is Ellipsis for item in items) > 1:
        raise ExpressionError("expected at most one ... in an index with a mask",
                              step.arg_columns[0])
    return index


# cpu_index_kernel checks the index values in parallel chunks of at::internal::GRAIN_SIZE
# elements, so past that many which bad index torch names first is not defined.
MAX_PICKED = 32768


def validate_advanced_index(step: Step, bound: BoundCall, shape: tuple[int, ...]) -> None:
    """Bound an index with lists or masks: the input's elements (of ``shape``) times the
    longest list."""
    index = bound.kwargs["index"]
    items = index if isinstance(index, tuple) else (index,)
    lengths = [len(item) for item in items if type(item) is list]
    if not lengths and not any(isinstance(item, Comparison) for item in items):
        return
    numel = math.prod(shape)
    if numel * max([1, *lengths]) > MAX_PICKED:
        raise ExpressionError(f"expected an index with lists or masks to pick at most "
                              f"{MAX_PICKED} elements: the tensor has {numel}"
                              + (f", and the longest list {max(lengths)} entries" if lengths
                                 else ""), step.arg_columns[0])


def _validate_list_index(step: Step, item: list) -> None:
    """A list index as the explorer models it: flat, all ints or all bools, bounded."""
    if len(item) > MAX_INDEX_LIST:
        raise ExpressionError(f"expected a list index of at most {MAX_INDEX_LIST} entries, got "
                              f"{len(item)}", step.arg_columns[0])
    kinds = {bool if isinstance(v, bool) else type(v) for v in item}
    if kinds <= {int} or kinds == {bool}:
        return
    if list in kinds or tuple in kinds:
        raise ExpressionError("expected a flat list index such as [0, 2], one list per dim: "
                              "x[[0, 1], [2, 3]], not x[[[0, 1], [2, 3]]] (torch reads a list "
                              "of lists as a tuple of indices, a rule it deprecates)",
                              step.arg_columns[0])
    if kinds == {int, bool}:
        raise ExpressionError("expected a list index of all integers or all True/False, not "
                              "both", step.arg_columns[0])
    raise ExpressionError("expected a list index of integers or of True/False, got "
                          f"{_describe_value(item)}", step.arg_columns[0])


# Ops whose every check comes before any copy (at::native::reshape_symint: infer_size and the
# dim checks, then view or clone); clone, contiguous and .to() allocate first, so a big input
# is refused for them on its size alone.
CHECKS_BEFORE_COPYING = frozenset({"reshape", "flatten", "ravel"})


def would_copy(bound: BoundCall, fields: dict) -> bool:
    """Whether the op really copies its input (by the engine, on the same layout): torch
    raises its own error before it allocates anything, and a view allocates nothing."""
    if bound.name not in CHECKS_BEFORE_COPYING or any(
            isinstance(v, Chain) for v in bound.kwargs.values()):
        return True  # judged by size alone (.to() allocates before it checks its format)
    shape, stride = tuple(fields["shape"]), tuple(fields["stride"])
    dtype = DTYPES[fields["dtype"]]
    probe = Tensor(shape, stride, fields["storage_offset"], Storage(2**63 - 1), dtype)
    try:
        return OPS[bound.name](probe, **bound.kwargs).allocated
    except TorchError:
        return False


def validate_work(step: Step, bound: BoundCall, shape: tuple[int, ...], layout=None) -> None:
    """Refuse steps torch_explain could not carry out in bounded memory: big copies, many pieces.

    Checked on the input's shape before either backend runs the step, so explain and
    torch_explain refuse the same steps; inputs torch itself refuses are left to torch.
    """
    if step.name in MAY_COPY:
        numel = math.prod(shape)
        if numel > MAX_ALLOCATED_ELEMENTS and (layout is None or would_copy(bound, layout())):
            raise ExpressionError(f"expected at most {MAX_ALLOCATED_ELEMENTS} elements in a "
                                  f"tensor that .{step.name}() would copy, got {numel}", step.column)
    if bound.pick is None:
        return
    count = compute_piece_count(step.name, bound.kwargs, shape)
    if count is not None and count > MAX_PIECES:
        raise ExpressionError(f"expected .{step.name}() to make at most {MAX_PIECES} tensors, "
                              f"it would make {count}", step.column)


# Beside the refusal below: the input is in the language, torch's answer is what is undefined.
UNDEFINED_READ_WHY = ("torch would read this size from memory past the tensor's sizes and strides, "
                      "so its answer is not defined and the explorer does not guess it; nothing "
                      "from this step on was run.")


def validate_index_reads(step: Step, bound: BoundCall, layout) -> None:
    """Refuse an index whose extra '...' items make torch read a size from outside the
    tensor's size and stride storage (see ops.indexing.size_read_past_end); reads inside it
    are modelled.  Replayed on the input's layout (``layout()``, asked only for an index with
    two or more '...') before either backend runs the step."""
    index = bound.kwargs["index"]
    if type(index) is not tuple or sum(item is Ellipsis for item in index) < 2:
        return
    fields = layout()
    shape, stride = tuple(fields["shape"]), tuple(fields["stride"])
    probe = Tensor(shape, stride, fields["storage_offset"], Storage(2**63 - 1), DTYPES["int8"])
    try:
        getitem(probe, index)
    except UnknowableRead as exc:
        raise ExpressionError(
            f"expected an index whose '...' items keep torch reading sizes the tensor has: "
            f"here torch would read the size of dim {exc.dim} of a {exc.ndim}-d tensor, past "
            f"the sizes and strides it stores", step.arg_columns[0],
            why=UNDEFINED_READ_WHY) from None
    except TorchError:
        return


def _describe(step: Step, params: tuple[Param, ...]) -> str:
    prefix = "torch." if step.kind == "constructor" else "."
    positional = [p for p in params if not p.kw_only]
    if len(positional) == 1 and positional[0].kind == "ints":  # takes ints as varargs too
        parts = [f"*{positional[0].name}: integers"]
        params = tuple(p for p in params if p.kw_only)
        star = True
    else:
        parts, star = [], False
    for p in params:
        if p.kw_only and not star:
            parts.append("*")
            star = True
        text = f"{p.name}: {_KIND_TEXT[p.kind]}"
        shown = f"torch.{p.default}" if isinstance(p.default, str) else repr(p.default)
        parts.append(text if p.required else f"{text} = {shown}")
    return f"{prefix}{step.name}({', '.join(parts)})"


def _describe_value(value: object) -> str:
    """The value as written and what it is: ``2.0 (a float)``, ``(2, 3) (a tuple)``."""
    if isinstance(value, Chain):
        return "a tensor"
    if isinstance(value, TorchName):
        return f"torch.{value.name}"
    if isinstance(value, slice):
        return "a slice"
    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"{value} (a bool)"
    if value is Ellipsis:
        return "..."
    kind = {int: "an int", float: "a float", tuple: "a tuple", list: "a list"}.get(type(value))
    text = render_value(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} ({kind})" if kind else text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
