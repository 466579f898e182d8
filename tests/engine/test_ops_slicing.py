"""narrow / select / unbind / split / chunk / tensor_split against torch 2.13."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS, Pieces
from quizapp.engine.tensor import Tensor

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

OPS_HERE = ("narrow", "select", "unbind", "split", "chunk", "tensor_split")


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", OPS_HERE)
def test_generated_cases_match_torch(name, seed):
    stats = differential(name, seed, 1500, args_for)
    assert stats["ok"] > 150 and stats["error"] > 30


def test_storage_offsets_after_select_and_narrow():
    pairs = run_recipe(
        ("arange", {"end": 60}),
        ("view", {"size": (3, 4, 5)}),
        ("narrow", {"dim": 1, "start": 1, "length": 2}),
        ("select", {"dim": 2, "index": -2}),
    )
    assert pairs[2][0].storage_offset == pairs[2][1].storage_offset() > 0
    assert pairs[3][0].storage_offset > pairs[2][0].storage_offset


def test_narrow_at_the_very_end_is_an_empty_view():
    pairs = run_recipe(
        ("arange", {"end": 12}),
        ("view", {"size": (3, 4)}),
        ("narrow", {"dim": 1, "start": 4, "length": 0}),
    )
    assert pairs[-1][0].shape == (3, 0) and pairs[-1][0].storage_offset == 4


@pytest.mark.parametrize(
    "step",
    [
        ("chunk", {"chunks": 3, "dim": 1}),
        ("chunk", {"chunks": 4, "dim": 0}),
        ("split", {"split_size": (1, 0, 6), "dim": 1}),
        ("tensor_split", {"indices_or_sections": (5, -1, 1), "dim": 1}),
        ("tensor_split", {"indices_or_sections": 3, "dim": 1}),
        ("split", {"split_size": 10, "dim": 1}),
        ("unbind", {"dim": 1}),
    ],
)
def test_pieces_are_views_with_advancing_offsets(step):
    case = run_recipe(
        ("arange", {"end": 35}),
        ("view", {"size": (5, 7)}),
        step,
    )
    pieces = OPS[step[0]](case[1][0], **step[1]).value
    assert all(p.is_view and p.storage is case[0][0].storage for p in pieces)


def test_chunk_may_return_fewer_pieces_than_asked():
    x = CONSTRUCTORS["empty"](size=(5,)).value
    assert len(OPS["chunk"](x, chunks=4).value) == 3


def test_huge_unbind_is_lazy_and_bounded():
    x = CONSTRUCTORS["empty"](size=(10**12, 2), dtype="int8").value
    pieces = OPS["unbind"](x, dim=0).value
    assert isinstance(pieces, Pieces) and len(pieces) == 10**12
    last = pieces[-1]
    assert isinstance(last, Tensor) and last.storage_offset == (10**12 - 1) * 2
    with pytest.raises(IndexError):
        pieces[10**12]
    empties = OPS["chunk"](CONSTRUCTORS["empty"](size=(0,)).value, chunks=10**15).value
    assert len(empties) == 10**15 and empties[5].shape == (0,)
