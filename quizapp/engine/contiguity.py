"""Contiguity predicates exactly as torch caches them (c10/core/Contiguity.h, MemoryFormat.h)."""

from __future__ import annotations

_INT64_MAX = 2**63 - 1
_CL_ORDER_2D = (1, 3, 2, 0)
_CL_ORDER_3D = (1, 4, 3, 2, 0)


def is_contiguous(shape: tuple, stride: tuple) -> bool:
    """c10::_compute_contiguous: row-major, size-1 dims ignored; empty tensors always are."""
    expected = 1
    for d in range(len(shape) - 1, -1, -1):
        size = shape[d]
        if size == 1:
            continue  # size-1 exemption: its stride is never used to address memory
        if size == 0:
            return True  # zero-numel rule: any strides
        if stride[d] != expected:
            for s in shape[:d]:
                if s == 0:
                    return True
            return False
        expected *= size
    return True


def _channels_last_contiguous(shape: tuple, stride: tuple, order: tuple) -> bool:
    # c10::_compute_channels_last_contiguous_2d/_3d: no zero-numel shortcut here, and the
    # expected stride is an int64 that wraps (empty tensors with huge dims reach it).
    expected = 1
    for d in order:
        size = shape[d]
        if size != 1:
            if stride[d] != expected:
                return False
            expected *= size
            if expected > _INT64_MAX:
                expected = ((expected + 2**63) % 2**64) - 2**63
    return True


def is_channels_last_contiguous(shape: tuple, stride: tuple) -> bool:
    """is_contiguous(memory_format=torch.channels_last): rank 4 only, strides ordered C, W, H, N."""
    return len(shape) == 4 and _channels_last_contiguous(shape, stride, _CL_ORDER_2D)


def is_channels_last_3d_contiguous(shape: tuple, stride: tuple) -> bool:
    """is_contiguous(memory_format=torch.channels_last_3d): rank 5 only, order C, W, H, D, N."""
    return len(shape) == 5 and _channels_last_contiguous(shape, stride, _CL_ORDER_3D)


def is_contiguous_in_format(shape: tuple, stride: tuple, memory_format: str) -> bool:
    """Tensor.is_contiguous(memory_format=...) for the three concrete memory formats."""
    if memory_format == "channels_last":
        return is_channels_last_contiguous(shape, stride)
    if memory_format == "channels_last_3d":
        return is_channels_last_3d_contiguous(shape, stride)
    return is_contiguous(shape, stride)


def _raw_non_overlapping_and_dense(shape: tuple, stride: tuple) -> bool:
    # c10::_compute_non_overlapping_and_dense: sort dims by stride (size < 2 last), then check
    # that each stride equals the product of the sizes of the dims inside it.
    ndim = len(shape)
    if ndim == 1:
        return shape[0] < 2 or stride[0] == 1
    perm = sorted(range(ndim), key=lambda d: (shape[d] < 2, 0 if shape[d] < 2 else stride[d]))
    required = 1
    for d in perm:
        size = shape[d]
        if size < 2:
            return True
        if stride[d] != required:
            return False
        required *= size
        if required > _INT64_MAX:  # int64 in torch: wraps
            required = ((required + 2**63) % 2**64) - 2**63
    return True


def is_non_overlapping_and_dense(shape: tuple, stride: tuple) -> bool:
    """TensorImpl's cached flag: contiguous in some memory format, or a permutation of dense."""
    if is_contiguous(shape, stride):
        return True
    rank = len(shape)
    if rank == 4 and is_channels_last_contiguous(shape, stride):
        return True
    if rank == 5 and is_channels_last_3d_contiguous(shape, stride):
        return True
    return _raw_non_overlapping_and_dense(shape, stride)


def is_strides_like_channels_last(shape: tuple, stride: tuple) -> bool:
    """c10::is_channels_last_strides_2d_s4 / 3d_s5: strides ordered like channels-last."""
    order = _CL_ORDER_2D if len(shape) == 4 else _CL_ORDER_3D if len(shape) == 5 else None
    if order is None or stride[1] == 0:
        return False
    minimum = 0
    for d in order:
        if shape[d] == 0 or stride[d] < minimum:
            return False
        if d == 0 and minimum == stride[1]:
            return False  # N111 / N11W ambiguity resolves to contiguous format
        minimum = stride[d]
        if shape[d] > 1:
            minimum *= shape[d]
            if minimum > _INT64_MAX:  # int64 in torch: wraps
                minimum = ((minimum + 2**63) % 2**64) - 2**63
    return True


def suggest_memory_format(shape: tuple, stride: tuple) -> str:
    """TensorBase::suggest_memory_format(exact_match=False)."""
    if is_strides_like_channels_last(shape, stride):
        return "channels_last" if len(shape) == 4 else "channels_last_3d"
    return "contiguous_format"
