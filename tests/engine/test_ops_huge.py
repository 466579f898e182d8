"""Dims near INT64_MAX against torch 2.13: wrapping int64 sums, checked products, SymInt limits."""

from __future__ import annotations

import pytest
from oplayer_huge import EMPTY_ONLY_OPS, HUGE_OPS, huge_args_for, huge_empty_layout, huge_layout
from oplayer_recipes import differential, run_recipe

from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

MAX = 2**63 - 1
HUGE_ROW = (("empty", {"size": (1,)}), ("as_strided", {"size": (MAX,), "stride": (0,)}))
# an empty tensor whose first dim is huge and strided: offsets and strides can wrap
EMPTY_WIDE = (
    ("empty", {"size": (1,)}),
    ("as_strided", {"size": (0, 2**62 + 1, 2**40), "stride": (1, 1, 2**40), "storage_offset": 1}),
)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", HUGE_OPS)
def test_generated_huge_cases_match_torch(name, seed):
    stats = differential(name, seed, 400, huge_args_for, huge_layout)  # compares every case
    assert stats["ok"] > 20  # and enough of them succeed to test more than the error paths


@pytest.mark.parametrize("name", EMPTY_ONLY_OPS + ("view", "unflatten", "squeeze", "__getitem__"))
def test_generated_huge_empty_cases_match_torch(name):
    stats = differential(name, 0, 400, huge_args_for, huge_empty_layout)
    assert stats["ok"] > 20


@pytest.mark.parametrize(
    "step",
    [
        ("chunk", {"chunks": 3}, 0),  # size + chunks - 1 wraps: split sees a negative size
        ("chunk", {"chunks": 1}, 0),
        ("split", {"split_size": 5}, 0),  # size + split_size - 1 wraps: one whole piece
        ("split", {"split_size": 2**62}, 0),
        ("__getitem__", {"index": slice(None, -4809636876955598056, 2)}),  # clipped to -2**62
        ("__getitem__", {"index": (slice(-(2**63), None),)}),
        ("unfold", {"dimension": 0, "size": 3, "step": 1}),  # numel of the windows overflows
        ("unfold", {"dimension": 0, "size": 0, "step": 1}),  # window count wraps to -2**63
    ],
)
def test_int64_corners_of_a_huge_dim(step):
    pairs = run_recipe(*HUGE_ROW, step)
    assert len(pairs) == 3


@pytest.mark.parametrize("offset", [1, 2**61 - 1, 2**61, MAX])
@pytest.mark.parametrize("dtype", ["bool", "float32"])
def test_as_strided_bounds_include_the_offset_in_the_checked_sum(offset, dtype):
    pairs = run_recipe(
        ("empty", {"size": (9,), "dtype": dtype}),
        ("as_strided", {"size": (MAX,), "stride": (1,), "storage_offset": offset}),
    )
    assert isinstance(pairs[-1][0], TorchError)


@pytest.mark.parametrize(
    "step",
    [
        ("select", {"dim": 2, "index": 31119268464}),  # offset wraps negative: refused
        ("select", {"dim": 2, "index": 2**24}),  # offset wraps back to a small one
        ("narrow", {"dim": 2, "start": 31119268464, "length": 2}),
        ("__getitem__", {"index": (slice(None), slice(None), 31119268464)}),
        ("__getitem__", {"index": (slice(None), slice(None), slice(2**24, None))}),
        ("diagonal", {"offset": 2**24, "dim1": 1, "dim2": 2}),
        ("unsqueeze", {"dim": 3}),
        ("unflatten", {"dim": 1, "sizes": (1, -1)}),
        ("flatten", {"start_dim": 1}),  # 2**62 * 2**40 wraps to 0 in multiply_integers
    ],
)
def test_offsets_and_strides_of_empty_tensors_wrap_like_int64(step):
    run_recipe(*EMPTY_WIDE, step)


@pytest.mark.parametrize(
    "layout, step",
    [
        (((0, 2, 2**62 + 1), (0, 0, 2)), ("unsqueeze", {"dim": 2})),  # below SymInt's range
        (((0, 2, 2**62 - 1), (0, 0, 4)), ("unsqueeze", {"dim": 2})),  # wraps to -4
        (((0, 2, 2**62 - 1), (0, 0, 4)), ("__getitem__", {"index": (slice(None),) * 2 + (None,)})),
        (((2**62 + 1, 3, 0), (2, 2, 2)), ("expand", {"size": (2, 1, 2**62 + 1, 3, 0)})),
        (((2**62 - 1, 3, 0), (4, 2, 2)), ("expand", {"size": (1, 2**62 - 1, 3, 0)})),
        (((0, 2, 2**62), (1, 1, 1)), ("flatten", {"start_dim": 1})),  # below SymInt's range
        (((0, 2**62 - 1, 4), (1, 1, 1)), ("flatten", {"start_dim": 1})),  # wraps to -4
    ],
)
def test_wrapped_strides_of_new_dims_are_refused_like_as_strided(layout, step):
    size, stride = layout
    pairs = run_recipe(
        ("empty", {"size": (1,)}),
        ("as_strided", {"size": size, "stride": stride, "storage_offset": 1}),
        step,
    )
    assert isinstance(pairs[-1][0], TorchError)
