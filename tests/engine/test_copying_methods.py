"""Copying methods the explorer does not model (roll, repeat, ...) are named as such; flip,
which a negative slice step points at, is modelled, and laid out as the engine's clone."""

from __future__ import annotations

import random

import pytest
import torch

from quizapp.engine.explain import explain
from quizapp.engine.expression import parse_expression
from quizapp.engine.misuse import COPYING_METHODS
from quizapp.engine.steps import ExpressionError


@pytest.mark.parametrize("method", sorted(COPYING_METHODS))
def test_a_copying_method_is_named_as_one_not_answered_with_the_list_of_ops(method: str) -> None:
    chain = parse_expression(f"torch.arange(6).view(2, 3).{method}(0)")
    assert len(chain.steps) == 2  # the steps before it still run
    message = chain.error.message
    assert f".{method} always copies" in message and "does not model it" in message
    assert "expected a supported op" not in message
    # The claim "always copies" is torch's own behaviour, even where nothing would move.
    x = torch.arange(6).view(2, 3)
    calls = {"fliplr": x.fliplr, "flipud": x.flipud,
             "roll": lambda: x.roll(0), "repeat": lambda: x.repeat(1, 1),
             "tile": lambda: x.tile((1,)), "rot90": lambda: x.rot90(0)}
    assert calls[method]().untyped_storage().data_ptr() != x.untyped_storage().data_ptr()


def test_a_negative_slice_step_points_at_flip_and_flip_runs() -> None:
    refused = explain("torch.arange(6)[::-1]")["error"]
    assert refused["message"] == "step must be greater than zero"  # torch's words
    assert refused["why"].endswith("use flip")
    assert explain("torch.arange(6).flip(0)")["values"] == [5, 4, 3, 2, 1, 0]
    rolled = explain("torch.arange(6).roll(1)")["error"]
    # Not "the input is outside the expression language": roll is torch, only not modelled.
    assert rolled["why"] == ("This op runs in torch, but the explorer does not model it, so "
                             "nothing from this step on was run.")
    assert explain("torch.roll(torch.arange(6), 1)")["error"]["why"] == rolled["why"]
    assert "outside the expression language" in explain("torch.arange(6).foo()")["error"]["why"]


def generated_layouts(count: int, seed: int = 2026):
    """(engine chain text, the same tensor built in torch, dims to flip), over permutes, narrows,
    stepped slices and expands: dense, gapped and overlapping layouts alike."""
    rng = random.Random(seed)
    for _ in range(count):
        shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 4))]
        numel = 1
        for size in shape:
            numel *= size
        text = f"torch.arange({numel}).view({', '.join(map(str, shape))})"
        x = torch.arange(numel).view(shape)
        perm = list(range(len(shape)))
        rng.shuffle(perm)
        text += f".permute({', '.join(map(str, perm))})"
        x = x.permute(perm)
        if rng.random() < 0.5:
            dim = rng.randrange(x.dim())
            step = rng.randint(1, 2)
            text += f"[{':, ' * dim}::{step}]"
            x = x[(slice(None),) * dim + (slice(None, None, step),)]
        if rng.random() < 0.3:
            dim = rng.randrange(x.dim() + 1)
            sizes = [-1] * (x.dim() + 1)
            sizes[dim] = 3
            text += f".unsqueeze({dim}).expand({', '.join(map(str, sizes))})"
            x = x.unsqueeze(dim).expand(*sizes)
        dims = rng.sample(range(x.dim()), rng.randint(1, x.dim()))
        yield text, x, dims


def test_flip_is_laid_out_as_the_engines_clone_on_generated_layouts() -> None:
    """The flip message sends people to .clone() for flip's strides: torch's flip and the
    engine's clone must agree on every generated layout (torch is the oracle)."""
    checked = 0
    for text, x, dims in generated_layouts(400):
        cloned = explain(text + ".clone()")
        assert cloned["error"] is None, (text, cloned["error"])
        last = cloned["steps"][-1]
        flipped = x.flip(dims)
        assert (tuple(last["shape"]), tuple(last["stride"])) == (
            tuple(flipped.shape), flipped.stride()), (text, dims)
        checked += 1
    assert checked == 400


def test_the_function_forms_name_the_copy_or_the_method_to_write() -> None:
    """torch.roll(x, ...) got the list of constructors and nothing about roll (re-test)."""
    with pytest.raises(ExpressionError) as rolled:
        parse_expression("torch.roll(torch.arange(6), 1)")
    assert str(rolled.value).startswith("column 1: torch.roll always copies")
    with pytest.raises(ExpressionError) as flipped:
        parse_expression("torch.flip(torch.arange(6), (0,))")
    assert "torch.arange(6).view(2, 3).flip(...)" in str(flipped.value)
    with pytest.raises(ExpressionError) as transposed:
        parse_expression("torch.transpose(torch.arange(6).view(2, 3), 0, 1)")
    assert ("torch.transpose(x, ...) is written here as a method after a constructor, e.g. "
            "torch.arange(6).view(2, 3).transpose(...)") in str(transposed.value)
    # What the message offers parses.
    assert parse_expression("torch.arange(6).view(2, 3).transpose(0, 1)").error is None
    with pytest.raises(ExpressionError) as unknown:
        parse_expression("torch.foo(3)")
    assert str(unknown.value).endswith("got torch.foo")
