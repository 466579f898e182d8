"""contiguous / clone / detach against torch 2.13: same-object returns, strides, storages."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.values import values_of

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", ("contiguous", "clone", "detach"))
def test_generated_cases_match_torch(name, seed):
    stats = differential(name, seed, 1500, args_for)
    assert stats["ok"] > 300
    if name != "detach":
        assert stats["error"] > 10


def test_contiguous_returns_self_when_already_contiguous_in_that_format():
    same = run_recipe(("empty", {"size": (2, 3, 4, 5)}), ("contiguous", {}))
    assert same[-1][0] is same[0][0]
    cl = run_recipe(
        ("empty", {"size": (2, 3, 4, 5)}),
        ("contiguous", {"memory_format": "channels_last"}),
        ("contiguous", {"memory_format": "channels_last"}),
    )
    assert cl[-1][0] is cl[-2][0] and cl[-2][0] is not cl[0][0]


@pytest.mark.parametrize(
    "steps",
    [
        (("permute", {"dims": (2, 0, 1)}),),
        (
            ("permute", {"dims": (2, 0, 1)}),
            ("__getitem__", {"index": (slice(None), slice(None), slice(None, None, 2))}),
        ),
        (("__getitem__", {"index": (slice(None), slice(1, None))}),),
        (("expand", {"size": (3, 2, 3, 4)}),),
        (("t",),),
        (("unsqueeze", {"dim": 1}), ("as_strided", {"size": (3, 3), "stride": (1, 1)})),
    ],
)
@pytest.mark.parametrize("memory_format", ["preserve_format", "contiguous_format"])
def test_clone_of_permuted_and_sliced_tensors(steps, memory_format):
    steps = tuple(s if len(s) > 1 else (s[0], {}) for s in steps)
    if steps[0][0] == "t":
        steps = (("view", {"size": (6, 4)}),) + steps
    pairs = run_recipe(
        ("arange", {"end": 24.0}),
        ("view", {"size": (2, 3, 4)}),
        *steps,
        ("clone", {"memory_format": memory_format}),
    )
    copy = pairs[-1][0]
    assert copy.storage is not pairs[0][0].storage and copy.storage_offset == 0 and not copy.is_view


@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 0, 3, 4), (4, 1, 1, 1), (1, 3, 1, 4)])
@pytest.mark.parametrize("op", ["contiguous", "clone"])
def test_channels_last_strides(shape, op):
    run_recipe(("empty", {"size": shape}), (op, {"memory_format": "channels_last"}))
    run_recipe(("empty", {"size": shape + (2,)}), (op, {"memory_format": "channels_last_3d"}))
    run_recipe(("empty", {"size": shape[1:]}), (op, {"memory_format": "channels_last"}))


def test_clone_of_an_odd_size_one_stride_keeps_it():
    pairs = run_recipe(("empty_strided", {"size": (2, 1, 3), "stride": (3, 100, 1)}), ("clone", {}))
    assert pairs[-1][0].stride == (3, 100, 1)


def test_huge_clone_is_constant_time_and_reads_lazily():
    x = CONSTRUCTORS["arange"](end=10**12, dtype="int64").value
    wide = OPS["as_strided"](x, size=(10**6, 10**6), stride=(1, 10**6 - 1)).value
    copy = OPS["clone"](wide).value
    assert copy.stride == (1, 10**6) and copy.storage.nbytes == 8 * 10**12
    corner = OPS["__getitem__"](copy, index=(slice(None, 2), slice(None, 3))).value
    # arange holds its own position, so element [i][j] of the strided view is i*1 + j*(10**6-1)
    assert values_of(corner) == [[i + j * (10**6 - 1) for j in range(3)] for i in range(2)]


def test_detach_shares_storage_but_is_not_a_view():
    pairs = run_recipe(
        ("arange", {"end": 6}), ("view", {"size": (2, 3)}), ("detach", {}), ("view", {"size": (6,)})
    )
    detached, viewed = pairs[2][0], pairs[3][0]
    assert not detached.is_view and detached.base is None and viewed.base is detached


def follow_dense_order_rule(shape: tuple, stride: tuple) -> tuple:
    """The rule the explorer and the clone_strides puzzle state (engine.reasons.DENSE_ORDER_RULE),
    applied as a learner would: from row-major order (last dim innermost), sort the dims by
    stride, smallest innermost, a tie putting the smaller size inside; a stride-0 dim keeps its
    row-major place. Then dense strides, innermost first (a size-1 dim does not grow them)."""
    row_major = list(range(len(shape) - 1, -1, -1))
    movable = iter(sorted((d for d in row_major if stride[d]), key=lambda d: (stride[d], shape[d])))
    order = [d if stride[d] == 0 else next(movable) for d in row_major]
    dense, step = [0] * len(shape), 1
    for d in order:
        dense[d] = step
        step *= max(shape[d], 1)
    return tuple(dense)


def test_the_stated_dense_order_rule_gives_torchs_clone_strides():
    import random

    import torch

    rng, compared = random.Random(13), 0
    while compared < 1500:
        shape = tuple(rng.randint(1, 4) for _ in range(rng.randint(2, 5)))
        stride = tuple(rng.choice((0, 0, 1, 2, 3, 4, 6, 8, 12)) for _ in shape)
        x = torch.empty(sum((n - 1) * s for n, s in zip(shape, stride, strict=True)) + 1)
        x = x.as_strided(shape, stride)
        copied = x.clone().stride()
        if copied == stride:
            continue  # a dense input keeps its strides: the rule is for the other inputs
        assert copied == follow_dense_order_rule(shape, stride), (shape, stride)
        compared += 1
