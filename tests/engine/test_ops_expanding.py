"""expand / expand_as / broadcast_to against torch 2.13, including the negative-size quirks."""

from __future__ import annotations

import pytest
import torch
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe
from oplayer_support import Case

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", ("expand", "expand_as", "broadcast_to"))
def test_generated_cases_match_torch(name, seed):
    stats = differential(name, seed, 1500, args_for)
    assert stats["ok"] > 250 and stats["error"] > 30


@pytest.mark.parametrize(
    "shape, target",
    [
        ((3,), (1, 3)),
        ((3,), (2, 3)),
        ((1,), (0,)),
        ((0,), (3,)),
        ((1,), (2, -1)),
        ((2, 3), (3,)),
        ((2, 3), (-1, 2, 3)),
        ((2, 3), (2, 4)),
        ((), (-1,)),
        ((), (0, -1)),
        ((1,), (0, -3)),
        ((3,), (0, -3)),
        ((3, 1), (2**62, 3, 4)),
        ((), (2, 3)),
        ((1, 1), (3, 4)),
    ],
)
def test_expand_table(shape, target):
    run_recipe(("zeros", {"size": shape, "dtype": "int64"}), ("expand", {"size": target}))


def test_expand_never_copies_and_repeats_through_stride_zero():
    pairs = run_recipe(
        ("arange", {"end": 3}), ("view", {"size": (3, 1)}), ("expand", {"size": (2, 3, 4)})
    )
    out = pairs[-1][0]
    assert out.storage is pairs[0][0].storage and out.stride[0] == 0 and out.stride[2] == 0


def test_expand_message_names_the_legacy_type():
    for dtype in ("float32", "bool", "bfloat16", "uint8"):
        pairs = run_recipe(("zeros", {"size": (2, 3), "dtype": dtype}), ("expand", {"size": (3,)}))
        assert isinstance(pairs[-1][0], TorchError)


@pytest.mark.parametrize(
    "steps",
    [
        (("permute", {"dims": (1, 0)}), ("unsqueeze", {"dim": 1}), ("expand", {"size": (4, 3, 3)})),
        (
            ("__getitem__", {"index": (slice(None), slice(None, 1))}),
            ("expand", {"size": (2, 3, 4)}),
        ),
        (("__getitem__", {"index": (None, 0)}), ("broadcast_to", {"size": (5, -1)})),
        (("unsqueeze", {"dim": 0}), ("expand", {"size": (2, -1, -1)}), ("contiguous", {})),
        (("unsqueeze", {"dim": 0}), ("expand", {"size": (2, -1, -1)}), ("clone", {})),
        (("unsqueeze", {"dim": 0}), ("expand", {"size": (2, -1, -1)}), ("view", {"size": (2, 12)})),
    ],
)
def test_expand_of_permuted_and_sliced_tensors(steps):
    pairs = run_recipe(("arange", {"end": 12.0}), ("view", {"size": (3, 4)}), *steps)
    assert not isinstance(pairs[-1][0], TorchError)


def test_expand_as_takes_the_other_tensors_shape():
    case = Case(None)
    other = case.add(CONSTRUCTORS["zeros"](size=(2, 3, 4)).value, torch.zeros(2, 3, 4))[0]
    pairs = run_recipe(("arange", {"end": 4}), ("expand_as", {"other": other}), case=case)
    assert pairs[-1][0].shape == other.shape and pairs[-1][0].stride[:2] == (0, 0)


@pytest.mark.parametrize(
    "step",
    [
        ("clone", {}),
        ("contiguous", {}),
        ("flatten", {}),
        ("ravel", {}),
        ("reshape", {"shape": (0,)}),
        ("contiguous", {"memory_format": "channels_last"}),
        ("view", {"size": (-1,)}),
    ],
)
def test_what_follows_a_negative_size_from_expand(step):
    run_recipe(("zeros", {"size": (1,)}), ("expand", {"size": (-2, 0)}), step)
