"""Frozen tensor layout values: dtype, storage and the view metadata the engine reasons about."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from operator import itemgetter


@dataclass(frozen=True, slots=True)
class DType:
    """A torch dtype as the engine needs it: its name, element size and kind."""

    name: str  # "float32", "int64", "bool", ... (torch's name without the "torch." prefix)
    itemsize: int
    kind: str  # "float", "int", "bool"
    legacy_type: (
        str  # "FloatTensor", "LongTensor", ... (torch's legacy type string, used in messages)
    )

    @property
    def scalar_type(self) -> str:
        """c10's ScalarType name ("Float", "Long", ...), as "not implemented" messages print it."""
        return self.legacy_type[: -len("Tensor")]


@dataclass(frozen=True, slots=True, eq=False)
class Storage:
    """One flat buffer; identity (``is``) is storage identity.

    ``nbytes`` is the size torch reports for it.  ``read`` maps a storage position to the element
    stored there, or is None when the data is unknown (``empty``, ``rand``, ...).
    """

    nbytes: int
    read: Callable[[int], object] | None = None


_new_tuple = tuple.__new__
_new_object = object.__new__
# The slot descriptors, read from the class's namespace (mypy types a slot read on the class as
# the field's value): setting through them skips the frozen dataclass __init__.
_set_nbytes = vars(Storage)["nbytes"].__set__
_set_read = vars(Storage)["read"].__set__


def new_storage(nbytes: int, read: Callable[[int], object] | None = None) -> Storage:
    """``Storage(nbytes, read)`` without the frozen dataclass's __init__ (the copy hot path)."""
    storage = _new_object(Storage)
    _set_nbytes(storage, nbytes)
    _set_read(storage, read)
    return storage


class Tensor(tuple):
    """Layout of one tensor: shape and stride in elements, offset, storage, dtype, view bookkeeping.

    ``base`` follows torch's ``_base``: the root non-view tensor for a view, None otherwise.
    A Tensor is an immutable tuple underneath (creating one is the op layer's hot path), but it
    compares and hashes by identity like a torch tensor; test ``isinstance(x, Tensor)``, never
    ``isinstance(x, tuple)``, to tell a Tensor from a tuple of Tensors.
    """

    __slots__ = ()

    def __new__(
        cls,
        shape: tuple[int, ...],
        stride: tuple[int, ...],
        storage_offset: int,
        storage: Storage,
        dtype: DType,
        is_view: bool = False,
        base: Tensor | None = None,
    ) -> Tensor:
        return _new_tuple(cls, (shape, stride, storage_offset, storage, dtype, is_view, base))

    shape = property(itemgetter(0), doc="Sizes, one per dim.")
    stride = property(itemgetter(1), doc="Strides in elements, one per dim.")
    storage_offset = property(itemgetter(2), doc="Index of element [0, ..., 0] in the storage.")
    storage = property(itemgetter(3), doc="The Storage this tensor reads from.")
    dtype = property(itemgetter(4), doc="The DType of its elements.")
    is_view = property(itemgetter(5), doc="torch's _is_view().")
    base = property(itemgetter(6), doc="torch's _base: the root non-view tensor, or None.")

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return (
            f"Tensor(shape={self[0]}, stride={self[1]}, storage_offset={self[2]}, "
            f"dtype={self[4].name}, is_view={self[5]})"
        )

    @property
    def ndim(self) -> int:
        return len(self[0])

    @property
    def numel(self) -> int:
        return prod(self[0])


def format_sizes(seq) -> str:
    """c10's IntArrayRef printing: "[2, 3]", "[]" -- used in every torch message."""
    return "[" + ", ".join(map(str, seq)) + "]"


class TorchError(Exception):
    """An error torch raises for this input: its class name and the first line of its message."""

    def __init__(self, type_name: str, message: str, why: str = "",
                 reason: tuple[str, tuple] | None = None) -> None:
        super().__init__(message)
        self.type_name = type_name  # "RuntimeError", "IndexError", "ValueError", "TypeError"
        self.message = message
        self.why = why  # one plain-English sentence: which rule was broken
        self.reason = reason  # (key, numbers) the why was rendered from, for pictures
