"""diagonal / unfold / as_strided against torch 2.13 (offsets, bounds checks, wrap-around)."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", ("diagonal", "unfold", "as_strided"))
def test_generated_cases_match_torch(name, seed):
    stats = differential(name, seed, 1500, args_for)
    assert stats["ok"] > 250 and stats["error"] > 40


@pytest.mark.parametrize("offset", [-3, -1, 0, 1, 2, 4, 5])
def test_diagonal_offsets_move_the_storage_offset_only_when_non_empty(offset):
    pairs = run_recipe(
        ("arange", {"end": 12}),
        ("view", {"size": (3, 4)}),
        ("__getitem__", {"index": S1}),
        ("diagonal", {"offset": offset}),
    )
    diag = pairs[-1][0]
    if diag.shape[-1] == 0:
        assert diag.storage_offset == pairs[-2][0].storage_offset


S1 = slice(1, None)


@pytest.mark.parametrize(
    "args",
    [
        (0, 3, 2),
        (0, 0, 1),
        (0, 10, 1),
        (1, 2, 2**62),
        (0, 2, 2**63 - 1),
        (-1, 1, 1),
        (0, -1, 1),
        (0, 2, 0),
    ],
)
def test_unfold_table(args):
    dimension, size, step = args
    run_recipe(
        ("arange", {"end": 10.0}),
        ("view", {"size": (5, 2)}),
        ("t", {}),
        ("unfold", {"dimension": dimension, "size": size, "step": step}),
    )


@pytest.mark.parametrize(
    "size, stride, offset",
    [
        ((2, 2), (1, 5), 1),
        ((2,), (1, 1), None),
        ((2, 2), (1, -1), None),
        ((2, 2), (1, 1), -1),
        ((2, -2), (1, 1), 1),
        ((0, -1), (1, 1), 0),
        ((0,), (1,), 1000),
        ((3,), (2,), None),
        ((2**62, 1), (4, 1), 0),
    ],
)
def test_as_strided_table(size, stride, offset):
    run_recipe(
        ("arange", {"end": 6.0}),
        ("__getitem__", {"index": slice(1, None)}),
        ("as_strided", {"size": size, "stride": stride, "storage_offset": offset}),
    )


def test_as_strided_checks_bounds_in_bytes_and_keeps_the_root_as_base():
    x = CONSTRUCTORS["empty"](size=(2, 3), dtype="int16").value
    ok = OPS["as_strided"](OPS["t"](x).value, size=(3,), stride=(2,)).value
    assert ok.base is x
    with pytest.raises(TorchError) as info:
        OPS["as_strided"](x, size=(2, 2), stride=(1, 5), storage_offset=1)
    assert "itemsize 2" in info.value.message and "12" in info.value.message
