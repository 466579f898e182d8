"""view(dtype) against torch 2.13: sizes, strides and offset rescaled by the element sizes,
the same storage, torch's errors, and the bytes read as the new dtype."""

from __future__ import annotations

import collections
import random
import warnings

import pytest
import torch
from document_support import without_why
from expr_chains import ChainGenerator
from expr_ops import (
    OP_MAKERS,
    as_strided,
    dtype_view,
    expand,
    flatten,
    index,
    narrow_select,
    permute,
    transpose,
    view,
)

from quizapp.engine import explain, torch_explain
from quizapp.engine.torch_explain import document_differences

pytestmark = pytest.mark.torch
LAYOUT_MAKERS = (permute, transpose, as_strided, index, index, expand, narrow_select, view,
                 flatten)
CASES = 500


def generated(rng: random.Random, count: int):
    """Chains: a constructor, up to three layout steps, a dtype view, maybe one step more."""
    gen = ChainGenerator(rng, torch)
    made = 0
    while made < count:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text, build = gen.constructor()
            try:
                t = build(None)
                for _ in range(rng.choice((0, 1, 1, 2, 3))):
                    step_text, run = rng.choice(LAYOUT_MAKERS)(gen, t)
                    t = run(t)
                    text += step_text
                step_text, run = dtype_view(gen, t)
                text += step_text
                if rng.random() < 0.4:
                    t = run(t)
                    text += rng.choice(LAYOUT_MAKERS + (dtype_view,))(gen, t)[0]
            except Exception:  # noqa: BLE001 - the chain ends with the failing step
                pass
        made += 1
        yield text


@pytest.mark.parametrize("seed", range(4))
def test_generated_dtype_views_match_torch(seed: int) -> None:
    rng = random.Random(f"dtype views:{seed}")
    mismatches, seen = [], collections.Counter()
    for expr in generated(rng, CASES):
        engine, oracle = explain(expr), torch_explain(expr)
        if without_why(engine) != without_why(oracle):
            mismatches.append((expr, document_differences(engine, oracle)))
        error = oracle["error"]
        seen[error["message"].split(" must")[0][:24] if error else "ok"] += 1
        seen["values"] += oracle["values"] is not None
    shown = "\n".join(f"  {expr}\n    {diffs}" for expr, diffs in mismatches[:5])
    assert not mismatches, f"{len(mismatches)} of {CASES} differ:\n{shown}"
    print(f"seed {seed}: {dict(seen)}")
    assert seen["ok"] > 150 and seen["values"] > 100, seen
    for message in ("self.stride(-1)", "self.size(-1)", "self.dim() cannot be 0 t"):
        assert seen[message] > 0, seen


@pytest.mark.parametrize(("expr", "shape", "stride", "offset"), [
    ("torch.arange(12, dtype=torch.int32).view(3, 4).view(torch.int16)", [3, 8], [8, 1], 0),
    ("torch.arange(12, dtype=torch.int32).view(3, 4).view(torch.int64)", [3, 2], [2, 1], 0),
    ("torch.arange(12, dtype=torch.int32)[2:].view(torch.int64)", [5], [1], 1),
    ("torch.arange(12, dtype=torch.int32).view(3, 4)[:, 1:3].view(torch.int8)", [3, 8],
     [16, 1], 4),
    ("torch.arange(8, dtype=torch.int32).view(2, 4).expand(3, 2, 4).view(torch.int8)",
     [3, 2, 16], [0, 16, 1], 0),
])
def test_rescaled_layouts(expr: str, shape: list, stride: list, offset: int) -> None:
    engine, oracle = explain(expr), torch_explain(expr)
    assert without_why(engine) == without_why(oracle), document_differences(engine, oracle)
    last = engine["steps"][-1]
    assert (last["shape"], last["stride"], last["storage_offset"]) == (shape, stride, offset)
    assert last["storage"] == 0 and not last["is_view"]  # same memory; torch keeps no _base


@pytest.mark.parametrize("expr", [
    "torch.arange(12, dtype=torch.int32)[1:11].view(torch.int64)",  # the offset
    "torch.arange(15, dtype=torch.int32).view(5, 3)[:, :2].view(torch.int64)",  # stride(0)
    "torch.arange(16, dtype=torch.int32).as_strided((4, 2), (3, 2)).view(torch.int64)",
    "torch.arange(12, dtype=torch.int32).view(3, 4).t().view(torch.int16)",
])
def test_torchs_refusals(expr: str) -> None:
    engine, oracle = explain(expr), torch_explain(expr)
    assert oracle["error"]["type"] == "RuntimeError"
    assert without_why(engine) == without_why(oracle), document_differences(engine, oracle)
    assert engine["error"]["why"]


def test_the_bytes_are_read_as_the_new_dtype() -> None:
    assert explain("torch.tensor([1.0]).view(torch.int32)")["values"] == [1065353216]
    assert explain("torch.tensor([1, 2], dtype=torch.uint8).view(torch.bool)")["values"] == [
        True, True]


def test_the_chain_generator_now_makes_dtype_views() -> None:
    assert dtype_view in OP_MAKERS
