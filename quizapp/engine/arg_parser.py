"""torch's own TypeError for a call with missing, extra or unknown arguments (arity, not types)."""

# torch/csrc/utils/python_arg_parser.cpp: PythonArgParser::raw_parse parses a lone signature
# raising its error; with several, print_error keeps the non-hidden signatures whose
# min_args <= len(args) + len(kwargs) <= max_args and, if exactly one is left, raises that one's
# error (FunctionSignature::parse: extra_args, then missing_args in parameter order, then
# extra_kwargs), else "received an invalid combination of arguments".  Tensor.split and
# Tensor.unflatten are Python methods (torch/_tensor.py): CPython words their errors.  Only
# arity and names are modelled here: a value
# of the wrong type stays a refusal of the language (signatures.bind_step).

from __future__ import annotations

from dataclasses import dataclass

from quizapp.engine.expression import MEMORY_FORMATS
from quizapp.engine.steps import Chain, Step, TorchName


@dataclass(frozen=True, slots=True)
class P:
    """One parameter of a signature as torch's parser sees it."""

    name: str
    optional: bool = False
    kw_only: bool = False
    int_list: bool = False  # an int list that also takes ints as varargs when it stands alone


def _sig(*params: P) -> tuple[P, ...]:
    return params


_SIZE, _OTHER = P("size", int_list=True), P("other")
_TWO = (P("dim0"), P("dim1"))
_MOVE = (_sig(P("source"), P("destination")), _sig(P("source"), P("destination")))
# The visible (non-hidden) signatures of each method, in torch's order; dimname overloads do
# not take part.  Read from the "expected one of" lists torch 2.13 prints.
NATIVE: dict[str, tuple[tuple[P, ...], ...]] = {
    "view": (_sig(P("dtype")), _sig(_SIZE)),
    "view_as": (_sig(_OTHER),),
    "reshape": (_sig(P("shape", int_list=True)),),
    "reshape_as": (_sig(_OTHER),),
    "flatten": (_sig(P("start_dim", True), P("end_dim", True)),),
    "squeeze": (_sig(), _sig(P("dim")), _sig(P("dim", int_list=True))),
    "unsqueeze": (_sig(P("dim")),),
    "permute": (_sig(P("dims", int_list=True)),),
    "transpose": (_sig(*_TWO),),
    "swapaxes": (_sig(P("axis0"), P("axis1")),),
    "swapdims": (_sig(*_TWO),),
    "movedim": _MOVE,
    "moveaxis": _MOVE,
    "expand": (_sig(_SIZE, P("implicit", True, True)),),
    "expand_as": (_sig(_OTHER),),
    "broadcast_to": (_sig(_SIZE),),
    "narrow": (_sig(P("dim"), P("start"), P("length")), _sig(P("dim"), P("start"), P("length"))),
    "select": (_sig(P("dim"), P("index")),),
    "unbind": (_sig(P("dim", True)),),
    "chunk": (_sig(P("chunks"), P("dim", True)),),
    "tensor_split": (_sig(P("indices", int_list=True), P("dim", True)),
                     _sig(P("tensor_indices_or_sections"), P("dim", True)),
                     _sig(P("sections"), P("dim", True))),
    "diagonal": (_sig(P("offset", True), P("dim1", True), P("dim2", True)),),
    "unfold": (_sig(P("dimension"), P("size"), P("step")),),
    "as_strided": (_sig(P("size", int_list=True), P("stride", int_list=True),
                        P("storage_offset", True)),),
    "contiguous": (_sig(P("memory_format", True, True)),),
    "clone": (_sig(P("memory_format", True, True)),),
    "flip": (_sig(P("dims", int_list=True)),),
}
PYTHON_METHODS: dict[str, tuple[P, ...]] = {  # def split(self, split_size, dim=0), ...
    "split": (P("split_size"), P("dim", True)),
    "unflatten": (P("dim"), P("sizes")),
}
NO_ARGUMENTS = frozenset({"t", "ravel", "detach"})  # METH_NOARGS


def describe_arity_error(step: Step, accepts) -> str | None:
    """torch's TypeError message for ``step`` when its arguments' count or names fail every
    signature torch has, or None (the call's trouble, if any, is the values' types).

    ``accepts(param_name, value)`` says whether the language takes ``value`` for that parameter
    of the op: torch checks each value it meets before it notices a missing one, so an arity
    error behind a value of the wrong type is that value's refusal, not torch's message here.
    """
    if step.kind != "method" or _holds_tensor(step) or _holds_bool(step):
        return None  # a tensor argument brings __torch_function__ into torch's wording
    name, args, kwargs = step.name, step.args, [k for k, _ in step.kwargs]
    if name in NO_ARGUMENTS:
        # CPython names the method's class as the call reached it ("TensorBase.t()" for x.t(1)
        # in source, "Tensor.t()" through getattr): not one message, so left to the language
        return None
    if name in PYTHON_METHODS:
        return _python_error(f"Tensor.{name}", PYTHON_METHODS[name], len(args), kwargs)
    checked = _TypeChecked(accepts, step)
    signatures = NATIVE.get(name)
    if signatures is None:
        return None
    if len(signatures) == 1:
        return _parse_error(name, signatures[0], args, kwargs, checked)
    count = len(args) + len(kwargs)
    plausible = [s for s in signatures if _min_args(s) <= count <= len(s)]
    if any(_parses(sig, args, kwargs) for sig in signatures):
        return None  # one signature takes the call as to count and names: a type problem
    if len(plausible) == 1:
        return _parse_error(name, plausible[0], args, kwargs, checked)
    if len(kwargs) > 2:
        return None  # torch lists keywords in its hash map's order, not modelled past two
    return (f"{name}() received an invalid combination of arguments - got "
            f"{_type_list(args, step.kwargs)}, but expected one of:")


def _min_args(signature: tuple[P, ...]) -> int:
    return sum(not p.optional for p in signature)


class _TypeChecked:
    """The values of one call looked up by parameter, checked with the language's kinds."""

    def __init__(self, accepts, step: Step) -> None:
        self.accepts, self.step = accepts, step

    def positional(self, param: P, i: int, varargs: bool) -> bool:
        value = tuple(self.step.args) if varargs else self.step.args[i]
        return self.accepts(param.name, value)

    def keyword(self, param: P) -> bool:
        value = dict(self.step.kwargs)[param.name]
        return self.accepts(param.name, value)


def _parse_error(name: str, signature: tuple[P, ...], args: tuple, kwargs: list[str],
                 checked: _TypeChecked) -> str | None:
    """FunctionSignature::parse's first arity or keyword error for this signature, or None
    (also when a value it checks first has a type the language refuses)."""
    positional = [p for p in signature if not p.kw_only]
    nargs = len(args)
    # allow_varargs_intlist: a lone positional int list whose first argument is an int takes
    # every positional argument (is_int_or_symint_list looks at the first item only)
    varargs = len(positional) == 1 and positional[0].int_list and nargs > 1
    if varargs and type(args[0]) is not int:
        return None  # a list first, then more: torch's own unpacking, left to the language
    if nargs > len(positional) and not varargs:
        return _extra_args(name, signature, positional, nargs)
    taken = 1 if varargs else nargs
    for i, param in enumerate(signature):
        if i < taken:
            if not varargs and not checked.positional(param, i, varargs):
                return None
            continue
        if param.name in kwargs:
            if not checked.keyword(param):
                return None
            continue
        if not param.optional:
            missing = [f'"{p.name}"' for p in signature[i:] if not p.optional]
            plural = "s" if len(missing) == 1 else ""  # sic: torch's inverted plural
            return (f"{name}() missing {len(missing)} required positional argument{plural}: "
                    f"{', '.join(missing)}")
    names = [p.name for p in signature]
    for key in kwargs:
        if key not in names:
            return f"{name}() got an unexpected keyword argument '{key}'"
        if names.index(key) < taken:
            return f"{name}() got multiple values for argument '{key}'"
    return None


def _parses(signature: tuple[P, ...], args: tuple, kwargs: list[str]) -> bool:
    """Whether FunctionSignature::parse takes this many arguments with these names (so the
    call's only trouble can be a value's type)."""
    positional = [p for p in signature if not p.kw_only]
    varargs = len(positional) == 1 and positional[0].int_list and len(args) > 1
    taken = 1 if varargs else len(args)
    if taken > len(positional):
        return False
    names = [p.name for p in signature]
    if any(key not in names or names.index(key) < taken for key in kwargs):
        return False
    return all(p.optional or i < taken or p.name in kwargs for i, p in enumerate(signature))


def _extra_args(name: str, signature: tuple[P, ...], positional: list[P], nargs: int) -> str:
    most, least = len(positional), _min_args(signature)
    were = "was" if nargs == 1 else "were"
    if least != most:
        return (f"{name}() takes from {least} to {most} positional arguments but {nargs} "
                f"{were} given")
    return (f"{name}() takes {most} positional argument{'' if most == 1 else 's'} but {nargs} "
            f"{were} given")


def _python_error(qualname: str, params: tuple[P, ...], nargs: int, kwargs: list[str]) -> str | None:
    """CPython's errors for ``def f(self, ...)``, in its order: keywords (unknown, or given
    positionally too), then too many positional arguments (self counts), then missing ones."""
    names = [p.name for p in params]
    for key in kwargs:
        if key not in names:
            return f"{qualname}() got an unexpected keyword argument '{key}'"
        if names.index(key) < nargs:
            return f"{qualname}() got multiple values for argument '{key}'"
    if nargs > len(params):
        least, most = 1 + sum(not p.optional for p in params), 1 + len(params)
        takes = f"from {least} to {most}" if least != most else str(most)
        return (f"{qualname}() takes {takes} positional arguments but {nargs + 1} "
                f"{'was' if nargs == 0 else 'were'} given")
    missing = [f"'{p.name}'" for p in params[nargs:] if not p.optional and p.name not in kwargs]
    if not missing:
        return None
    if len(missing) == 1:
        listed = missing[0]
    elif len(missing) == 2:
        listed = " and ".join(missing)
    else:
        listed = ", ".join(missing[:-1]) + ", and " + missing[-1]
    plural = "" if len(missing) == 1 else "s"
    return f"{qualname}() missing {len(missing)} required positional argument{plural}: {listed}"


def _type_list(args: tuple, kwargs: tuple) -> str:
    """torch::format_invalid_args' "(int, tuple, dim=int)"; keywords alone end in ", ", and
    two keywords come out in the reverse of the order written (measured)."""
    text = ", ".join(_type_name(a) for a in args)
    named = [f"{k}={_type_name(v)}" for k, v in reversed(kwargs)]
    if args:
        return "(" + text + "".join(f", {kw}" for kw in named) + ")"
    return "(" + "".join(f"{kw}, " for kw in named) + ")"


def _type_name(value: object) -> str:
    if value is None:
        return "NoneType"
    if value is Ellipsis:
        return "ellipsis"
    if isinstance(value, TorchName):
        return "torch.memory_format" if value.name in MEMORY_FORMATS else "torch.dtype"
    return type(value).__name__


def _holds_bool(step: Step) -> bool:
    return any(isinstance(v, bool) for v in [*step.args, *(v for _, v in step.kwargs)])


def _holds_tensor(step: Step) -> bool:
    stack = [*step.args, *(v for _, v in step.kwargs)]
    while stack:
        value = stack.pop()
        if isinstance(value, Chain):
            return True
        if isinstance(value, tuple | list):
            stack.extend(value)
    return False
