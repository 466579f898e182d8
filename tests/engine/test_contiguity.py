"""Contiguity predicates and stride helpers against torch 2.13 on random strided layouts."""

from __future__ import annotations

import random

import pytest
import torch

from quizapp.engine.contiguity import (
    is_channels_last_3d_contiguous,
    is_channels_last_contiguous,
    is_contiguous,
    is_non_overlapping_and_dense,
    suggest_memory_format,
)
from quizapp.engine.geometry import (
    compute_channels_last_strides,
    compute_contiguous_strides,
    infer_dense_strides,
)

pytestmark = pytest.mark.torch


def random_layout(rng) -> tuple[tuple, tuple]:
    rank = rng.choice((0, 1, 2, 3, 4, 4, 4, 5, 5))
    shape = tuple(rng.choice((1, 2, 2, 3, 4)) if rng.random() < 0.96 else 0 for _ in range(rank))
    if rng.random() < 0.6:  # a permutation of dense strides, possibly with odd size-1 strides
        order = list(range(rank))
        rng.shuffle(order)
        if rank in (4, 5) and rng.random() < 0.5:  # N, spatial dims..., C innermost
            order = [0] + list(range(2, rank)) + [1]
        stride, acc = [0] * rank, 1
        for d in reversed(order):
            stride[d] = acc
            acc *= max(shape[d], 1)
    else:
        stride = [rng.choice((0, 1, 2, 3, 4, 6, 12, 24)) for _ in shape]
    stride = [rng.choice((s, 5, 100)) if shape[d] == 1 else s for d, s in enumerate(stride)]
    return shape, tuple(stride)


@pytest.mark.parametrize("seed", range(4))
def test_predicates_and_helpers_match_torch(seed):
    rng = random.Random(seed)
    seen = {"contiguous": 0, "channels_last": 0, "dense_only": 0, "neither": 0}
    for _ in range(1500):
        shape, stride = random_layout(rng)
        t = torch.empty_strided(shape, stride)
        mine = (
            is_contiguous(shape, stride),
            is_channels_last_contiguous(shape, stride),
            is_channels_last_3d_contiguous(shape, stride),
            is_non_overlapping_and_dense(shape, stride),
        )
        theirs = (
            t.is_contiguous(),
            t.is_contiguous(memory_format=torch.channels_last),
            t.is_contiguous(memory_format=torch.channels_last_3d),
            torch.ops.aten.is_non_overlapping_and_dense(t),
        )
        assert mine == theirs, (shape, stride)
        key = (
            "contiguous"
            if mine[0]
            else "channels_last"
            if mine[1] or mine[2]
            else ("dense_only" if mine[3] else "neither")
        )
        seen[key] += 1
        if not mine[3]:  # empty_like keeps the dim order with dense strides
            assert infer_dense_strides(shape, stride) == torch.empty_like(t).stride(), (
                shape,
                stride,
            )
        if t.numel() > 0 and shape:  # cat allocates in the suggested memory format
            expected = (
                compute_channels_last_strides(shape)
                if suggest_memory_format(shape, stride) != "contiguous_format"
                else compute_contiguous_strides(shape)
            )
            assert torch.cat([t]).stride() == expected, (shape, stride)
    assert min(seen.values()) > 50, seen  # every kind of layout was exercised


@pytest.mark.parametrize("seed", range(2))
def test_allocation_strides_match_torch(seed):
    rng = random.Random(100 + seed)
    for _ in range(400):
        shape = tuple(rng.choice((0, 1, 2, 3, 5)) for _ in range(rng.randint(0, 5)))
        assert compute_contiguous_strides(shape) == torch.empty(shape).stride()
        if len(shape) in (4, 5):
            fmt = torch.channels_last if len(shape) == 4 else torch.channels_last_3d
            assert (
                compute_channels_last_strides(shape)
                == torch.empty(shape, memory_format=fmt).stride()
            )


@pytest.mark.parametrize(
    "shape, stride",
    [
        ((1, 16, 5, 5), (20, 25, 5, 1)),
        ((2, 0, 3, 4), (0, 1, 0, 0)),
        ((2, 0, 3, 4), (7, 3, 2, 1)),
        ((4, 1, 1, 1), (1, 1, 1, 1)),
        ((2, 1, 4, 5), (20, 20, 5, 1)),
        ((1, 4, 1, 3), (12, 1, 4, 4)),
        ((3, 3), (1, 1)),
        ((3, 4), (1, 0)),
        ((2, 3, 4, 3), (60, 1, 15, 6)),
        ((), ()),
        ((5,), (2,)),
    ],
)
def test_surprising_layouts(shape, stride):
    t = torch.empty_strided(shape, stride)
    assert is_contiguous(shape, stride) == t.is_contiguous()
    assert is_channels_last_contiguous(shape, stride) == t.is_contiguous(
        memory_format=torch.channels_last
    )
    assert is_non_overlapping_and_dense(
        shape, stride
    ) == torch.ops.aten.is_non_overlapping_and_dense(t)
    assert infer_dense_strides(shape, stride) == torch.empty_like(
        t
    ).stride() or is_non_overlapping_and_dense(shape, stride)
