"""Tensor.to(memory_format=..., copy=...) against torch 2.13: self or a copy, strides, errors."""

from __future__ import annotations

import collections
import random

import pytest
from click.testing import CliRunner
from oplayer_args import args_for
from oplayer_recipes import run_recipe
from oplayer_support import Case, compare_results, run_both

from quizapp.cli import explain_cmd
from quizapp.engine import explain
from quizapp.engine.contiguity import is_contiguous_in_format
from quizapp.engine.expression import ExpressionError, parse_expression
from quizapp.engine.ops import OPS
from quizapp.engine.signatures import bind_step
from quizapp.engine.tensor import TorchError

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::UserWarning")]

CL = {"memory_format": "channels_last"}


def format_layout(case: Case):
    """Case.layout with ranks 0-6, often first made channels-last and then sliced or permuted."""
    case.random_shape = lambda max_rank=5: Case.random_shape(case, max_rank + 1)
    e, t = case.layout()
    rng = case.rng
    if e.ndim in (4, 5) and rng.random() < 0.5:
        import torch  # noqa: PLC0415

        fmt = "channels_last" if e.ndim == 4 else "channels_last_3d"
        try:
            e, t = case.add(OPS["contiguous"](e, memory_format=fmt).value,
                            t.contiguous(memory_format=getattr(torch, fmt)))
        except TorchError:
            return e, t
        if rng.random() < 0.5:
            d = rng.randrange(e.ndim)
            index = (slice(None),) * d + (slice(rng.randint(0, 1), None, rng.choice((1, 2))),)
            e, t = case.add(OPS["__getitem__"](e, index=index).value, t[index])
    return e, t


def run_generated(seed: int, count: int) -> collections.Counter:
    """``count`` generated .to() cases, every field compared with torch; returns what happened."""
    seen: collections.Counter = collections.Counter()
    for i in range(count):
        rng = random.Random(f"to:{seed}:{i}")
        case = Case(rng)
        e, t = format_layout(case)
        kwargs = args_for("to", rng, case, e)
        mine, ref = run_both(case, e, t, "to", kwargs)
        where = f"to({kwargs}) on {e!r}"
        if compare_results(case, e, t, mine, ref, where) == "error":
            seen["error"] += 1
            continue
        fmt = kwargs["memory_format"] or "preserve_format"
        seen["same" if ref is t else "copy"] += 1
        seen[f"rank {e.ndim}"] += 1
        seen[fmt] += 1
        seen["zero-size"] += 0 in e.shape
        if fmt != "preserve_format" and ref is t:
            seen["same though not contiguous"] += not is_contiguous_in_format(e.shape, e.stride,
                                                                               fmt)
        if fmt != "preserve_format" and ref is not t and not kwargs.get("copy"):
            seen["copy though contiguous"] += is_contiguous_in_format(e.shape, e.stride, fmt)
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_generated_cases_match_torch(seed):
    seen = run_generated(seed, 1000)
    assert seen["same"] > 100 and seen["copy"] > 100 and seen["error"] > 20, seen
    assert all(seen[f"rank {r}"] > 5 for r in range(7)), seen
    assert all(seen[f] > 30 for f in ("contiguous_format", "channels_last", "channels_last_3d",
                                      "preserve_format")), seen
    assert seen["zero-size"] > 10 and seen["same though not contiguous"] > 5, seen
    assert seen["copy though contiguous"] > 0, seen


def test_row_major_2_1_4_5_is_copied_by_to_but_returned_by_contiguous():
    to = run_recipe(("empty", {"size": (2, 1, 4, 5)}), ("to", CL))
    assert to[1][0] is not to[0][0] and to[1][0].stride == (20, 1, 5, 1)
    assert to[1][0].storage is not to[0][0].storage and to[1][0].storage_offset == 0
    same = run_recipe(("empty", {"size": (2, 1, 4, 5)}), ("contiguous", CL))
    assert same[1][0] is same[0][0] and same[1][0].stride == (20, 20, 5, 1)
    why = OPS["to"](to[0][0], **CL).why
    assert "already channels-last contiguous" in why and ".to() copies" in why


def test_a_sliced_channels_last_tensor_is_returned_as_it_is():
    pairs = run_recipe(
        ("empty", {"size": (2, 3, 4, 5)}),
        ("contiguous", CL),
        ("__getitem__", {"index": (slice(None), slice(None), slice(None, None, 2))}),
        ("to", CL),
    )
    assert pairs[-1][0] is pairs[-2][0] and pairs[-1][0].stride == (60, 1, 30, 3)
    assert "not even channels-last contiguous" in OPS["to"](pairs[-2][0], **CL).why


def test_a_transposed_matrix_is_already_contiguous_format_for_to():
    pairs = run_recipe(("empty", {"size": (3, 4)}), ("t", {}),
                       ("to", {"memory_format": "contiguous_format"}))
    assert pairs[-1][0] is pairs[-2][0] and pairs[-1][0].stride == (1, 4)


@pytest.mark.parametrize(("kwargs", "same"), [
    ({}, True), ({"memory_format": "preserve_format"}, True), ({"copy": False}, True),
    ({"copy": True}, False), ({"memory_format": "contiguous_format", "copy": True}, False),
])
def test_preserve_format_aliases_unless_copy_is_asked(kwargs, same):
    pairs = run_recipe(("zeros", {"size": (3, 1)}), ("expand", {"size": (2, 3, 4)}), ("to", kwargs))
    assert (pairs[-1][0] is pairs[-2][0]) is same
    if not same:  # the copy of an expanded tensor gets dense strides, offset 0, its own storage
        assert pairs[-1][0].stride == (12, 4, 1) and not pairs[-1][0].is_view


@pytest.mark.parametrize(("shape", "fmt", "message"), [
    ((2, 3, 4), "channels_last", "required rank 4 tensor to use channels_last format"),
    ((2, 3, 4, 5), "channels_last_3d", "required rank 5 tensor to use channels_last_3d format"),
    ((), "channels_last", "required rank 4 tensor to use channels_last format"),
])
def test_wrong_rank_formats_raise_torchs_error(shape, fmt, message):
    pairs = run_recipe(("empty", {"size": shape}), ("to", {"memory_format": fmt}))
    assert isinstance(pairs[-1][0], TorchError) and pairs[-1][0].message == message


def test_explain_check_agrees_with_torch():
    expr = "torch.empty(2, 3, 4, 5).to(memory_format=torch.channels_last)"
    result = CliRunner().invoke(explain_cmd.explain, ["--check", expr])
    assert result.exit_code == 0, result.output
    assert "agreement: every field agrees with torch" in result.output
    step = explain(expr)["steps"][1]
    assert step["stride"] == [60, 1, 15, 3] and step["storage"] == 1
    assert "laid out channels-last" in step["why"]


@pytest.mark.parametrize("call", [".to(torch.float64)", ".to(dtype=torch.float64)",
                                  '.to("cpu")', ".to(device=None)", ".to(torch.empty(2))",
                                  ".to(torch.complex64)", ".to(non_blocking=True)"])
def test_dtype_and_device_conversions_are_refused_clearly(call):
    expr = "torch.empty(2, 3)" + call
    error = explain(expr)["error"]
    assert error["type"] == "ExpressionError"
    assert ".to() takes only memory_format=" in error["message"]
    assert "dtype and device conversions" in error["message"]


@pytest.mark.parametrize("call", [".to(copy=1)", ".to(copy=None)",
                                  ".to(memory_format=torch.float64)", ".to(memory_format=1)"])
def test_malformed_arguments_are_refused_like_torchs_parser(call):
    import torch  # noqa: PLC0415

    with pytest.raises(ExpressionError):
        bind_step(parse_expression("torch.empty(2)" + call).steps[-1])
    x = torch.empty(2)
    with pytest.raises(TypeError):
        eval("x" + call, {"torch": torch, "x": x})  # noqa: S307 - fixed test literals
