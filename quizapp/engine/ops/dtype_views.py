"""Tensor.view(dtype): the same bytes read as another dtype, sizes and strides rescaled."""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass

from ..dtypes import DTYPES
from ..outcome import Outcome, make_outcome
from ..reasons import torch_error
from ..tensor import DType, Storage, Tensor

_new_tuple = tuple.__new__
# struct formats of each dtype's bytes (little-endian, as on every CPU torch runs on here);
# bfloat16 is the high half of a float32 and is handled apart.
_FORMATS = {"float32": "<f", "float64": "<d", "float16": "<e", "int64": "<q", "int32": "<i",
            "int16": "<h", "int8": "<b", "uint8": "<B", "bool": "<B"}


@dataclass(frozen=True, slots=True, eq=False)
class Reinterpreted(Storage):
    """A storage read as another dtype: the same memory as ``root`` (its identity for the
    explain document), with ``read`` giving elements of the new dtype."""

    root: Storage | None = None


def root_storage(storage: Storage) -> Storage:
    """The storage whose identity a tensor's memory has (a dtype view shares its root's)."""
    return storage.root if type(storage) is Reinterpreted and storage.root is not None else storage


def _to_bytes(value: object, dtype: DType) -> bytes:
    if dtype.name == "bfloat16":
        return struct.pack("<f", value)[2:]
    if dtype.name == "bool":
        return bytes((1 if value else 0,))
    return struct.pack(_FORMATS[dtype.name], value)


def _from_bytes(data: bytes, dtype: DType) -> object:
    if dtype.name == "bfloat16":
        return struct.unpack("<f", b"\x00\x00" + data)[0]
    if dtype.name == "bool":
        return data[0] != 0  # a byte other than 0 reads as True (tolist's static_cast)
    return struct.unpack(_FORMATS[dtype.name], data)[0]


def _reader(read: Callable[[int], object], old: DType, new: DType) -> Callable[[int], object]:
    """Elements of ``new`` at each position, from the bytes of the ``old`` elements."""
    old_size, new_size = old.itemsize, new.itemsize

    def read_new(pos: int) -> object:
        start, stop = pos * new_size, (pos + 1) * new_size
        data = b"".join(_to_bytes(read(p), old) for p in range(start // old_size,
                                                                 -(-stop // old_size)))
        skip = start % old_size
        return _from_bytes(data[skip:skip + new_size], new)

    return read_new


def view_dtype(t: Tensor, dtype: str) -> Outcome:
    """aten/src/ATen/native/TensorConversions.cpp view_dtype: a new TensorImpl over the same
    storage (not a view for autograd: _is_view() is False, there is no _base).  Equal element
    sizes keep sizes, strides and offset.  Otherwise a 0-d tensor is refused; a smaller
    element multiplies every stride, the offset and the last size by the ratio (the last dim
    must have stride 1); a larger one divides them, once the last size, the offset, the last
    stride (which must be 1) and every other stride have been checked in that order."""
    old, new = t[4], DTYPES[dtype]
    shape, stride, offset = t[0], t[1], t[2]
    what = f"to view {old.scalar_type} as {new.scalar_type} (different element sizes)"
    if old.itemsize != new.itemsize:
        if not shape:
            raise torch_error("RuntimeError", f"self.dim() cannot be 0 {what}", "view_dtype_scalar",
                              old.name, new.name)
        last = len(shape) - 1
        if old.itemsize > new.itemsize:
            ratio = old.itemsize // new.itemsize
            if stride[last] != 1:
                raise torch_error("RuntimeError", f"self.stride(-1) must be 1 {what}, but got "
                                  f"{stride[last]}", "view_dtype_stride", old.name, new.name,
                                  -1, stride[last], 1)
            stride = tuple(s * ratio for s in stride[:last]) + (1,)
            shape = shape[:last] + (shape[last] * ratio,)
            offset *= ratio
        else:
            ratio = new.itemsize // old.itemsize
            checks = [("size(-1)", shape[last], "view_dtype_size"),
                      ("storage_offset()", offset, "view_dtype_offset")]
            for name, value, key in checks:
                if value % ratio:
                    raise torch_error("RuntimeError", f"self.{name} must be divisible by {ratio} "
                                      f"{what}, but got {value}", key, old.name, new.name,
                                      value, ratio)
            if stride[last] != 1:
                raise torch_error("RuntimeError", f"self.stride(-1) must be 1 {what}, but got "
                                  f"{stride[last]}", "view_dtype_stride", old.name, new.name,
                                  -1, stride[last], 1)
            for d in range(last):
                if stride[d] % ratio:
                    raise torch_error("RuntimeError", f"self.stride({d}) must be divisible by "
                                      f"{ratio} {what}, but got {stride[d]}",
                                      "view_dtype_stride", old.name, new.name, d, stride[d],
                                      ratio)
            stride = tuple(s // ratio for s in stride[:last]) + (1,)
            shape = shape[:last] + (shape[last] // ratio,)
            offset //= ratio
    source = t[3]
    root = root_storage(source)
    read = None if source.read is None else _reader(source.read, old, new)
    storage = Reinterpreted(source.nbytes, read, root)
    result = _new_tuple(Tensor, (shape, stride, offset, storage, new, False, None))
    return make_outcome(result, "view_dtype", (t, result))
