"""squeeze / unsqueeze / permute / transposes / movedim against torch 2.13."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

OPS_HERE = (
    "squeeze",
    "unsqueeze",
    "permute",
    "transpose",
    "swapaxes",
    "swapdims",
    "t",
    "T",
    "mT",
    "movedim",
    "moveaxis",
)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", OPS_HERE)
def test_generated_cases_match_torch(name, seed):
    stats = differential(name, seed, 1200, args_for)
    assert stats["ok"] > 150
    if name != "T":
        assert stats["error"] > 10


def test_no_op_dim_ops_still_return_new_views():
    for step in (
        ("transpose", {"dim0": 1, "dim1": 1}),
        ("permute", {"dims": (0, 1)}),
        ("squeeze", {"dim": None}),
        ("t", {}),
        ("movedim", {"source": (), "destination": ()}),
    ):
        pairs = run_recipe(("arange", {"end": 6}), ("view", {"size": (2, 3)}), step)
        before, after = pairs[-2][0], pairs[-1][0]
        assert after is not before and after.is_view
        assert (after.shape, after.stride) == (before.shape, before.stride) or step[0] == "t"


def test_mT_of_a_scalar_is_the_same_tensor_but_T_is_a_new_view():
    same = run_recipe(("tensor", {"data": 2.5}), ("mT", {}))
    assert same[-1][0] is same[0][0]
    new = run_recipe(("tensor", {"data": 2.5}), ("T", {}))
    assert new[-1][0] is not new[0][0] and new[-1][0].is_view


def test_unsqueeze_next_to_an_empty_dim_gets_stride_zero():
    pairs = run_recipe(("empty", {"size": (3, 0)}), ("unsqueeze", {"dim": 1}))
    assert pairs[-1][0].stride[1] == 0


def test_unsqueeze_uses_the_sliced_stride():
    pairs = run_recipe(
        ("arange", {"end": 8}),
        ("view", {"size": (2, 4)}),
        ("__getitem__", {"index": (slice(None), slice(None, None, 2))}),
        ("unsqueeze", {"dim": 1}),
    )
    assert pairs[-1][0].stride[1] == pairs[-2][0].shape[1] * pairs[-2][0].stride[1]


@pytest.mark.parametrize(
    "step",
    [
        ("permute", {"dims": (0, 0, 5)}),
        ("permute", {"dims": (5, 0, 1)}),
        ("permute", {"dims": (0, 1)}),
        ("squeeze", {"dim": (0, -3)}),
        ("movedim", {"source": (0, 0), "destination": (1, 2)}),
        ("movedim", {"source": (0, 1), "destination": (2,)}),
        ("t", {}),
        ("transpose", {"dim0": 0, "dim1": 3}),
    ],
)
def test_dim_errors(step):
    pairs = run_recipe(("empty", {"size": (2, 1, 4)}), step)
    assert isinstance(pairs[-1][0], TorchError) and pairs[-1][0].why


def test_T_reverses_every_dim_of_a_3d_tensor():
    pairs = run_recipe(("empty", {"size": (2, 3, 4)}), ("T", {}))
    assert pairs[-1][0].shape == tuple(reversed(pairs[0][0].shape))
