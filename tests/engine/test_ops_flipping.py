"""flip(dims) against torch 2.13: a copy laid out as empty_like(Preserve), values reversed."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine import explain
from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seed", range(3))
def test_generated_cases_match_torch(seed):
    """Random layouts (permuted, gapped, overlapping, expanded, empty, 0-d) and dims."""
    stats = differential("flip", seed, 1500, args_for)
    assert stats["ok"] > 700 and stats["error"] > 50


@pytest.mark.parametrize("steps", [
    (("view", {"size": (2, 3, 4)}), ("flip", {"dims": (0, 2)})),
    (("view", {"size": (2, 3, 4)}), ("permute", {"dims": (2, 0, 1)}), ("flip", {"dims": (1,)})),
    (("view", {"size": (4, 6)}), ("__getitem__", {"index": (slice(None), slice(None, None, 2))}),
     ("flip", {"dims": (-1,)})),
    (("view", {"size": (1, 24)}), ("expand", {"size": (3, 24)}), ("flip", {"dims": (0, 1)})),
    (("view", {"size": (2, 3, 4)}), ("flip", {"dims": ()})),
    (("view", {"size": (2, 3, 4)}), ("flip", {"dims": (1, -2)})),
    (("view", {"size": (2, 3, 4)}), ("flip", {"dims": (3,)})),
])
def test_flip_table(steps):
    run_recipe(("arange", {"end": 24}), *steps)


def test_a_flip_of_nothing_or_of_one_element_still_copies():
    for steps in ((("flip", {"dims": ()}),), (("view", {"size": (1, 1)}), ("flip", {"dims": (0,)}))):
        pairs = run_recipe(("arange", {"end": 1}), *steps)
        assert pairs[-1][0].storage is not pairs[0][0].storage and not pairs[-1][0].is_view


def test_a_repeated_dim_is_named_after_wrapping():
    pairs = run_recipe(("arange", {"end": 6}), ("view", {"size": (2, 3)}),
                       ("flip", {"dims": (1, -1)}))
    assert isinstance(pairs[-1][0], TorchError)
    assert pairs[-1][0].message == "dim 1 appears multiple times in the list of dims"


def test_the_explorer_runs_flip_where_it_used_to_refuse_it():
    doc = explain("torch.arange(6).view(2, 3).t().flip(0)")
    assert doc["error"] is None and doc["values"] == [[2, 5], [1, 4], [0, 3]]
    assert doc["steps"][-1]["stride"] == [1, 3] and doc["steps"][-1]["storage"] == 1
    assert "flip always copies" in doc["steps"][-1]["why"]
