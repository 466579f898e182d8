"""Python basic indexing (ints, slices with steps, None, Ellipsis) against torch 2.13."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]


@pytest.mark.parametrize("seed", range(4))
def test_generated_cases_match_torch(seed):
    stats = differential("__getitem__", seed, 1500, args_for)
    assert stats["ok"] > 250 and stats["error"] > 100


S = slice
INDEXES = [
    (1, S(None), S(None, None, 2)),
    (Ellipsis, 0),
    (None, Ellipsis, None),
    (Ellipsis, Ellipsis, 1),
    (-1, -1, -1),
    (S(5, 1),),
    (S(2**63 - 1, None),),
    (S(-(2**63), None),),
    (S(None, None, -1),),
    (S(None, None, 0), 9),
    (9, S(None, None, 0)),
    (None, 5),
    (1, 1, 1, 1),
    (),
    Ellipsis,
    None,
    0,
    S(1, None, 2),
    (S(None), S(None), S(None, None, 2**62)),
]


@pytest.mark.parametrize("index", INDEXES)
def test_index_table(index):
    run_recipe(
        ("arange", {"end": 24}), ("view", {"size": (2, 3, 4)}), ("__getitem__", {"index": index})
    )


@pytest.mark.parametrize("index", [0, -1, 1, S(None), None, Ellipsis, (None, 0), (Ellipsis, None)])
def test_scalar_index_table(index):
    run_recipe(("tensor", {"data": 7}), ("__getitem__", {"index": index}))


def test_basic_indexing_never_returns_self():
    for index in ((), Ellipsis, S(None)):
        pairs = run_recipe(("arange", {"end": 4}), ("__getitem__", {"index": index}))
        assert pairs[-1][0] is not pairs[0][0] and pairs[-1][0].is_view


def test_error_message_counts_tuple_positions():
    pairs = run_recipe(("empty", {"size": (3,)}), ("__getitem__", {"index": (None, Ellipsis, 5)}))
    assert isinstance(pairs[-1][0], TorchError) and "dimension 2" in pairs[-1][0].message


def test_indices_outside_the_language_are_refused_by_the_engine():
    """Lists are advanced indexing (test_advanced_indexing); bools and floats are not taken."""
    x = CONSTRUCTORS["empty"](size=(3,)).value
    assert OPS["__getitem__"](x, index=[0, 1]).value.shape == (2,)
    for index in (True, (0, False), 1.5):
        with pytest.raises(TypeError):
            OPS["__getitem__"](x, index=index)
