"""Result tensors as TensorImpl builds them: view bookkeeping plus the numel check on new sizes."""

from __future__ import annotations

from math import prod

from .reasons import torch_error
from .tensor import DType, Storage, Tensor, format_sizes

INT64_MAX = 2**63 - 1
UINT64 = 2**64
_new_tuple = tuple.__new__


def unsigned_product(shape) -> tuple[int, bool]:
    """c10::safe_multiplies_u64: sizes multiplied as uint64; an overflow flag sticks once set."""
    product = 1
    overflowed = False
    for size in shape:
        product *= size % UINT64  # a negative size is read as 2**64 + size
        if product >= UINT64:
            overflowed = True
            product %= UINT64
    return product, overflowed


def validate_sizes_nonnegative(size: tuple, factory: str) -> None:
    """at::detail::check_size_nonnegative, run before torch allocates (zeros() words it apart)."""
    for s in size:
        if s < 0:
            if factory == "zeros":
                raise torch_error(
                    "RuntimeError",
                    "zeros: Dimension size must be non-negative.",
                    "factory_negative",
                    factory,
                    size,
                    s,
                )
            raise torch_error(
                "RuntimeError",
                f"Trying to create tensor with negative dimension {s}: {format_sizes(size)}",
                "factory_negative",
                factory,
                size,
                s,
            )


def validate_numel(shape) -> None:
    """TensorImpl::safe_compute_numel: the unsigned 64-bit product must not overflow int64.

    Every op that sets sizes runs it, so a reordering of an empty tensor's huge dims can fail
    where the original order passed: (0, 2**62, 4) is fine, (2**62, 4, 0) overflows first.
    """
    if 0 not in shape and (not shape or min(shape) > 0) and prod(shape) <= INT64_MAX:
        return  # positive sizes: no partial product exceeds the (small enough) total
    product, overflowed = unsigned_product(shape)
    if overflowed or product > INT64_MAX:
        raise torch_error(
            "RuntimeError", "numel: integer multiplication overflow", "numel_overflow", tuple(shape)
        )


def replace_negative_strides(shape: tuple, stride: tuple) -> tuple:
    """TensorImpl::set_sizes_and_strides: a negative stride (from the last dim inwards) becomes
    1 for the last dim, else max(size[i+1], 1) * stride[i+1], an int64 product torch checks."""
    fixed = list(stride)
    overflowed = False
    for i in range(len(fixed) - 1, -1, -1):
        if fixed[i] < 0:
            product = 1 if i == len(fixed) - 1 else max(shape[i + 1], 1) * fixed[i + 1]
            fixed[i] = ((product + 2**63) % UINT64) - 2**63
            overflowed |= fixed[i] != product
    if overflowed:
        raise torch_error("RuntimeError", "Stride calculation overflowed", "stride_overflow", shape)
    return tuple(fixed)


def check_new_sizes(shape: tuple, stride: tuple) -> tuple:
    """TensorImpl::set_sizes_and_strides then refresh_numel: the strides torch stores."""
    if stride and min(stride) < 0:
        stride = replace_negative_strides(shape, stride)
    validate_numel(shape)
    return stride


def make_view(t: Tensor, shape: tuple, stride: tuple, storage_offset: int) -> Tensor:
    """A new view of ``t``'s storage; ``_base`` is the root non-view tensor (ADInplaceOrView).

    Only shapes with a 0 can overflow the numel check (positive sizes were checked when the
    input was made, and reordering them keeps the product), so only those pay for it.
    """
    if 0 in shape:  # only empty shapes can overflow, or wrap a stride negative
        stride = check_new_sizes(shape, stride)
    return _new_tuple(Tensor, (shape, stride, storage_offset, t[3], t[4], True, t[6] or t))


def make_tensor(shape: tuple, stride: tuple, storage: Storage, dtype: DType) -> Tensor:
    """A fresh non-view tensor at offset 0 of ``storage`` (factories and copies)."""
    return _new_tuple(Tensor, (shape, stride, 0, storage, dtype, False, None))
