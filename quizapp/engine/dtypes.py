"""The torch dtypes the engine knows: names, aliases, element sizes and type promotion order."""

from __future__ import annotations

from .tensor import DType

# torch's dtype table (c10/core/ScalarType.h): name, itemsize, kind, legacy type string.
_TABLE = (
    ("float32", 4, "float", "FloatTensor"),
    ("float64", 8, "float", "DoubleTensor"),
    ("float16", 2, "float", "HalfTensor"),
    ("bfloat16", 2, "float", "BFloat16Tensor"),
    ("int64", 8, "int", "LongTensor"),
    ("int32", 4, "int", "IntTensor"),
    ("int16", 2, "int", "ShortTensor"),
    ("int8", 1, "int", "CharTensor"),
    ("uint8", 1, "int", "ByteTensor"),
    ("bool", 1, "bool", "BoolTensor"),
)

DTYPES: dict[str, DType] = {
    name: DType(name, itemsize, kind, legacy) for name, itemsize, kind, legacy in _TABLE
}

# The other spellings torch accepts for the same dtype objects (torch.float is torch.float32, ...).
DTYPE_ALIASES: dict[str, str] = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
}

# torch 2.13's other dtype names (dir(torch)): the parser knows them so that the refusal can say
# they are dtypes the engine leaves out, rather than unknown names.
UNSUPPORTED_DTYPE_NAMES = frozenset({
    "bit", "bits16", "bits1x8", "bits2x4", "bits4x2", "bits8", "cdouble", "cfloat", "chalf",
    "complex128", "complex32", "complex64", "float4_e2m1fn_x2", "float8_e4m3fn",
    "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "int1", "int2",
    "int3", "int4", "int5", "int6", "int7", "qint32", "qint8", "quint2x4", "quint4x2", "quint8",
    "uint1", "uint16", "uint2", "uint3", "uint32", "uint4", "uint5", "uint6", "uint64", "uint7",
})

DEFAULT_FLOAT = DTYPES["float32"]  # torch.get_default_dtype()
DEFAULT_INT = DTYPES["int64"]
BOOL = DTYPES["bool"]

# Integer ranges: (bits, signed) for the wrap-around torch's static_cast performs.
INT_BITS: dict[str, tuple[int, bool]] = {
    "int64": (64, True),
    "int32": (32, True),
    "int16": (16, True),
    "int8": (8, True),
    "uint8": (8, False),
}

# C++ type names torch prints in "value cannot be converted to type X without overflow" when a
# c10::Scalar is converted (full, arange); torch.tensor() prints the dtype name instead.
CPP_TYPE_NAMES: dict[str, str] = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "int64_t",
    "int32": "int",
    "int16": "int16_t",
    "int8": "int8_t",
    "uint8": "uint8_t",
    "bool": "bool",
}


def tensor_type_string(dtype: DType) -> str:
    """The type string torch prints for a CPU tensor in messages such as expand's.

    Types with a legacy Python class print as torch.FloatTensor, ...; bfloat16 and bool have
    none, so torch prints the dispatch name (CPUBFloat16Type, CPUBoolType).
    """
    if dtype.name in ("bfloat16", "bool"):
        return f"CPU{dtype.scalar_type}Type"
    return f"torch.{dtype.legacy_type}"


def canonicalize_dtype(name: str | DType | None) -> DType | None:
    """The DType for a torch dtype name or alias ("float", "long", ...); None stays None."""
    if name is None or isinstance(name, DType):
        return name
    key = DTYPE_ALIASES.get(name, name)
    try:
        return DTYPES[key]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r}") from None


def infer_python_scalar_dtype(value: object) -> DType:
    """torch's dtype for a Python scalar: bool -> bool, int -> int64, float -> default float."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return DEFAULT_INT
    return DEFAULT_FLOAT


def promote_types(a: DType, b: DType) -> DType:
    """c10::promoteTypes restricted to what Python literals produce: bool < int64 < float32."""
    order = ("bool", "int", "float")
    return a if order.index(a.kind) >= order.index(b.kind) else b
