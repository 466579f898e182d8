"""view / reshape / flatten / unflatten / ravel against torch 2.13: generated cases and tables."""

from __future__ import annotations

import pytest
from oplayer_args import args_for
from oplayer_recipes import differential, run_recipe

from quizapp.engine.factories import CONSTRUCTORS
from quizapp.engine.ops import OPS
from quizapp.engine.tensor import TorchError
from quizapp.engine.view_chunks import chunks_text

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

OPS_HERE = ("view", "view_as", "reshape", "reshape_as", "ravel", "flatten", "unflatten")


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", OPS_HERE)
def test_generated_cases_match_torch(name, seed):
    stats = differential(name, seed, 1500, args_for)
    assert stats["ok"] > 200  # the generator really produces successful calls ...
    if name != "ravel":
        assert stats["error"] > 30  # ... and invalid ones whose errors were compared


def test_view_of_a_sliced_tensor_can_still_succeed():
    pairs = run_recipe(
        ("arange", {"end": 24}),
        ("view", {"size": (2, 3, 4)}),
        ("__getitem__", {"index": (slice(None), slice(None), slice(None, None, 2))}),
        ("view", {"size": (6, 2)}),
    )
    sliced, viewed = pairs[2][0], pairs[3][0]
    assert OPS["contiguous"](sliced).value is not sliced  # the input was not contiguous
    assert viewed.is_view and viewed.storage is sliced.storage


def test_view_splitting_a_transposed_dim_succeeds_but_merging_fails():
    pairs = run_recipe(
        ("arange", {"end": 12}),
        ("view", {"size": (3, 4)}),
        ("t", {}),
        ("view", {"size": (2, 2, 3)}),
    )
    assert pairs[-1][0].is_view
    refused = run_recipe(
        ("arange", {"end": 12}), ("view", {"size": (3, 4)}), ("t", {}), ("view", {"size": (12,)})
    )
    assert isinstance(refused[-1][0], TorchError)


def test_expanded_tensor_views_into_its_zero_stride_chunk_only():
    ok = run_recipe(
        ("zeros", {"size": (3, 1)}), ("expand", {"size": (3, 4)}), ("view", {"size": (3, 2, 2)})
    )
    assert 0 in ok[-1][0].stride
    bad = run_recipe(
        ("zeros", {"size": (3, 1)}), ("expand", {"size": (3, 4)}), ("view", {"size": (12,)})
    )
    assert isinstance(bad[-1][0], TorchError)


def test_size_one_dims_with_odd_strides_are_exempt_and_not_preserved():
    ok = run_recipe(
        ("empty_strided", {"size": (2, 1, 3), "stride": (3, 100, 1)}), ("view", {"size": (6,)})
    )
    assert ok[-1][0].is_view
    same = run_recipe(
        ("empty_strided", {"size": (2, 1, 3), "stride": (3, 100, 1)}), ("view", {"size": (2, 1, 3)})
    )
    assert same[-1][0].stride != same[0][0].stride  # computeStride recomputes the size-1 stride


@pytest.mark.parametrize(
    "shape, target",
    [
        ((0,), (-1,)),
        ((0, 6), (10, 3, -1)),
        ((0, 6), (-1, 0)),
        ((0, 6), (0, -1)),
        ((2, 0, 3), (2, 0, 3)),
    ],
)
def test_zero_element_views(shape, target):
    run_recipe(("empty", {"size": shape}), ("view", {"size": target}))


@pytest.mark.parametrize(
    "target", [(5, 5), (-1, -1, 2), (-2, 12), (5, -1), (0, -1), (24,), (2, -1, 4)]
)
def test_view_errors_and_inference(target):
    run_recipe(("arange", {"end": 24}), ("view", {"size": target}))


def test_reshape_copies_only_when_no_view_exists():
    copy = run_recipe(
        ("arange", {"end": 24}),
        ("view", {"size": (2, 3, 4)}),
        ("permute", {"dims": (2, 0, 1)}),
        ("reshape", {"shape": (2, 12)}),
    )
    alias = run_recipe(
        ("arange", {"end": 24}),
        ("view", {"size": (2, 3, 4)}),
        ("permute", {"dims": (2, 0, 1)}),
        ("reshape", {"shape": (4, 6, 1)}),
    )
    assert copy[-1][0].storage is not copy[0][0].storage and not copy[-1][0].is_view
    assert alias[-1][0].storage is alias[0][0].storage and alias[-1][0].base is alias[0][0]


def test_flatten_returns_self_when_nothing_merges_and_copies_when_it_must():
    pairs = run_recipe(
        ("arange", {"end": 6}),
        ("view", {"size": (2, 3)}),
        ("flatten", {"start_dim": 1, "end_dim": -1}),
    )
    assert pairs[-1][0] is pairs[-2][0]
    scalar = run_recipe(("tensor", {"data": 5}), ("flatten", {}))
    assert scalar[-1][0].shape == (1,) and scalar[-1][0].is_view
    copied = run_recipe(
        ("arange", {"end": 6}), ("view", {"size": (2, 3)}), ("t", {}), ("flatten", {})
    )
    assert not copied[-1][0].is_view


def test_ravel_of_a_non_contiguous_tensor_is_a_view_of_a_copy():
    pairs = run_recipe(
        ("arange", {"end": 6}), ("__getitem__", {"index": slice(None, None, 2)}), ("ravel", {})
    )
    flat = pairs[-1][0]
    assert flat.is_view and flat.storage is not pairs[0][0].storage and flat.base is not None


@pytest.mark.parametrize(
    "dim, sizes", [(1, (2, -1)), (-1, (4, 2)), (1, (-1, -1)), (1, ()), (0, (1, 2, 1)), (5, (1,))]
)
def test_unflatten_cases(dim, sizes):
    run_recipe(
        ("arange", {"end": 24.0}),
        ("view", {"size": (4, 6)}),
        ("unflatten", {"dim": dim, "sizes": sizes}),
    )


def test_refused_view_why_names_the_chunks_and_the_breaking_pair():
    pairs = run_recipe(
        ("arange", {"end": 24}),
        ("view", {"size": (2, 3, 4)}),
        ("__getitem__", {"index": (slice(None), slice(None), slice(None, 2))}),
    )
    sliced, theirs = pairs[-1]
    with pytest.raises(TorchError) as info:
        OPS["view"](sliced, size=(12,))
    why = info.value.why
    assert "dims (0, 1)" in why and "dim 2" in why and "another" in why
    # Plain words first, then the rule with torch's own strides filled in.
    assert why.index("would have to step evenly across dims 1 and 2") < why.index(
        "stride[1] = stride[2] × size[2]")
    span = theirs.stride(2) * theirs.shape[2]
    assert f"but here {theirs.stride(1)} ≠ {theirs.stride(2)} × {theirs.shape[2]} = {span}" in why


def test_chunks_are_not_called_contiguous_when_their_stride_is_not_one():
    """A column (stride 4) and a diagonal (stride 5) merge into one stride but are not
    contiguous: the explorer's contiguity column says "no" beside this text."""
    assert chunks_text((3,), (4,)) == "dim 0 (3 elements) forms one evenly strided block"
    assert chunks_text((2, 3), (1, 2)) == ("dim 0 (2 elements) forms one evenly strided block, "
                                          "dim 1 (3 elements) another")
    assert "contiguous" not in chunks_text((4, 5, 3), (0, 3, 1))


def test_copying_reshape_why_says_why_no_alias_existed():
    t = OPS["t"](OPS["view"](CONSTRUCTORS["arange"](end=6).value, size=(2, 3)).value).value
    outcome = OPS["reshape"](t, shape=(6,))
    assert "copy" in outcome.why and "dim 0" in outcome.why and "dim 1" in outcome.why
    mismatch = pytest.raises(TorchError, OPS["view"], t, size=(4,))
    assert "6" in mismatch.value.why and "4" in mismatch.value.why
