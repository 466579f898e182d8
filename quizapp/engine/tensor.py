"""Frozen tensor layout values: dtype, storage and the view metadata the engine reasons about."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True, slots=True)
class DType:
    """A torch dtype as the engine needs it: its name, element size and kind."""

    name: str  # "float32", "int64", "bool", ... (torch's name without the "torch." prefix)
    itemsize: int
    kind: str  # "float", "int", "bool"
    legacy_type: str  # "FloatTensor", "LongTensor", ... (torch's legacy type string, used in messages)


@dataclass(frozen=True, slots=True, eq=False)
class Storage:
    """One flat buffer; identity (``is``) is storage identity.

    ``nbytes`` is the size torch reports for it.  ``read`` maps a storage position to the element
    stored there, or is None when the data is unknown (``empty``, ``rand``, ...).
    """

    nbytes: int
    read: Callable[[int], object] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Tensor:
    """Layout of one tensor: shape and stride in elements, offset, storage, dtype, view bookkeeping.

    ``base`` follows torch's ``_base``: the root non-view tensor for a view, None otherwise.
    """

    shape: tuple[int, ...]
    stride: tuple[int, ...]
    storage_offset: int
    storage: Storage
    dtype: DType
    is_view: bool = False
    base: Tensor | None = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n


class TorchError(Exception):
    """An error torch raises for this input: the class name torch uses and the first line of its message."""

    def __init__(self, type_name: str, message: str, why: str = "") -> None:
        super().__init__(message)
        self.type_name = type_name  # "RuntimeError", "IndexError", "ValueError", "TypeError"
        self.message = message
        self.why = why  # one plain-English sentence: which rule was broken
