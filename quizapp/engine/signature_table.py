"""torch 2.13's Python signatures for the language's constructors and ops, overloads in order."""

# Read from torch/_C/_VariableFunctions.pyi, torch/_C/__init__.pyi (the generated argument
# parser signatures) and torch/_tensor.py (split and unflatten are Python methods); dimname
# overloads and expand(implicit=...) are left out of the language.

from __future__ import annotations

from dataclasses import dataclass

_REQUIRED = object()


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter: torch's name, the kind of value it takes, default, keyword-only flag.

    ``canonical`` is the op layer's keyword for it (torch's name unless two overloads share it).
    """

    name: str
    kind: str  # see signatures._KIND_TEXT
    default: object = _REQUIRED
    kw_only: bool = False
    canonical: str = ""

    def __post_init__(self) -> None:
        if not self.canonical:
            object.__setattr__(self, "canonical", self.name)

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED


def _p(name: str, kind: str, default: object = _REQUIRED, canonical: str = "") -> Param:
    return Param(name, kind, default, False, canonical)


_DTYPE = Param("dtype", "dtype?", None, kw_only=True)
_DIM0 = _p("dim", "int", 0)
_TWO_DIMS = (_p("dim0", "int"), _p("dim1", "int"))
_MOVEDIM = ((_p("source", "ints"), _p("destination", "ints")),
            (_p("source", "int"), _p("destination", "int")))

OP_SIGNATURES: dict[str, tuple[tuple[Param, ...], ...]] = {
    "view": ((_p("size", "ints"),),),  # view(dtype) is bound apart (signatures.bind_step)
    "view_as": ((_p("other", "tensor"),),),
    "reshape": ((_p("shape", "ints"),),),
    "reshape_as": ((_p("other", "tensor"),),),
    "ravel": ((),),
    "flatten": ((_p("start_dim", "int", 0), _p("end_dim", "int", -1)),),
    "unflatten": ((_p("dim", "int"), _p("sizes", "ints")),),
    "squeeze": ((), (_p("dim", "int"),), (_p("dim", "ints"),)),
    "unsqueeze": ((_p("dim", "int"),),),
    "permute": ((_p("dims", "ints"),),),
    "transpose": (_TWO_DIMS,),
    "swapaxes": ((_p("axis0", "int"), _p("axis1", "int")),),
    "swapdims": (_TWO_DIMS,),
    "t": ((),),
    "movedim": _MOVEDIM,
    "moveaxis": _MOVEDIM,
    "expand": ((_p("size", "ints"),),),
    "expand_as": ((_p("other", "tensor"),),),
    "broadcast_to": ((_p("size", "ints"),),),
    "narrow": ((_p("dim", "int"), _p("start", "int"), _p("length", "int")),),
    "select": ((_p("dim", "int"), _p("index", "int")),),
    "unbind": ((_DIM0,),),
    "split": ((_p("split_size", "int|ints"), _DIM0),),
    "chunk": ((_p("chunks", "int"), _DIM0),),
    "tensor_split": ((_p("sections", "int", canonical="indices_or_sections"), _DIM0),
                     (_p("indices", "ints", canonical="indices_or_sections"), _DIM0)),
    "diagonal": ((_p("offset", "int", 0), _p("dim1", "int", 0), _p("dim2", "int", 1)),),
    "unfold": ((_p("dimension", "int"), _p("size", "int"), _p("step", "int")),),
    "as_strided": ((_p("size", "ints"), _p("stride", "ints"),
                    _p("storage_offset", "int?", None)),),
    "contiguous": ((Param("memory_format", "format", "contiguous_format", kw_only=True),),),
    "clone": ((Param("memory_format", "format?", "preserve_format", kw_only=True),),),
    "detach": ((),),
    "flip": ((_p("dims", "ints"),),),
    # to(*, copy, memory_format) only: the dtype/device/tensor forms are refused before binding
    # (unsupported.refuse_unsupported_conversions), so this one overload is the language's form.
    "to": ((Param("copy", "bool", False, kw_only=True),
            Param("memory_format", "format?", None, kw_only=True)),),
}

_SIZED = ((_p("size", "ints"), _DTYPE),)
CONSTRUCTOR_SIGNATURES: dict[str, tuple[tuple[Param, ...], ...]] = {
    "arange": ((_p("end", "scalar"), _DTYPE),
               (_p("start", "scalar"), _p("end", "scalar"), _DTYPE),
               (_p("start", "scalar"), _p("end", "scalar"), _p("step", "scalar", 1), _DTYPE)),
    "empty": _SIZED,
    "zeros": _SIZED,
    "ones": _SIZED,
    "rand": _SIZED,
    "randn": _SIZED,
    "full": ((_p("size", "ints"), _p("fill_value", "fill"), _DTYPE),),
    "empty_strided": ((_p("size", "ints"), _p("stride", "ints"), _DTYPE),),
    "tensor": ((_p("data", "data"), _DTYPE),),
}

# Canonical keywords an overload leaves out but the op layer's signature names.
IMPLIED_DEFAULTS: dict[str, dict[str, object]] = {
    "squeeze": {"dim": None},
    "arange": {"start": 0, "step": 1},
}
