"""Advanced indexing (lists of ints, lists of bools, masks x > 3) against torch 2.13: on
generated layouts and indices, the result's shape, strides (TensorIterator's), storage,
values and torch's errors."""

from __future__ import annotations

import collections
import random
import warnings

import pytest
import torch
from document_support import without_why
from expr_chains import ChainGenerator
from expr_ops import OP_MAKERS, advanced_index, as_strided, expand, index, permute, transpose

from quizapp.engine import explain, torch_explain
from quizapp.engine.torch_explain import document_differences

pytestmark = pytest.mark.torch
LAYOUT_MAKERS = (permute, permute, transpose, transpose, as_strided, index, expand)
CASES = 500


def generated(rng: random.Random, count: int):
    """Chains: a constructor, up to two layout steps, then one advanced index."""
    gen = ChainGenerator(rng, torch)
    made = 0
    while made < count:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text, build = gen.constructor()
            try:
                t = build(None)
                for _ in range(rng.choice((0, 1, 1, 2))):
                    step_text, run = rng.choice(LAYOUT_MAKERS)(gen, t)
                    t = run(t)
                    text += step_text
            except Exception:  # noqa: BLE001 - an invalid layout step: draw another chain
                continue
            if t.numel() > 4096 or t.dim() > 6:
                continue
            step_text, _ = advanced_index(gen, t)
        made += 1
        yield text + step_text


@pytest.mark.parametrize("seed", range(4))
def test_generated_advanced_indices_match_torch(seed: int) -> None:
    rng = random.Random(f"advanced:{seed}")
    mismatches, seen = [], collections.Counter()
    for expr in generated(rng, CASES):
        engine, oracle = explain(expr), torch_explain(expr)
        if without_why(engine) != without_why(oracle):
            mismatches.append((expr, document_differences(engine, oracle)))
        error = oracle["error"]
        seen[error["type"] if error else "ok"] += 1
        if error is None:
            last = oracle["steps"][-1]
            seen["not contiguous"] += not last["is_contiguous"]
            seen["values"] += oracle["values"] is not None
        elif error["type"] == "IndexError":
            seen[error["message"].split(" ")[0] + " " + error["message"].split(" ")[1]] += 1
    shown = "\n".join(f"  {expr}\n    {diffs}" for expr, diffs in mismatches[:5])
    assert not mismatches, f"{len(mismatches)} of {CASES} differ:\n{shown}"
    print(f"seed {seed}: {dict(seen)}")
    assert seen["ok"] > 150 and seen["IndexError"] > 30 and seen["not contiguous"] > 5, seen
    assert seen["values"] > 100, seen


@pytest.mark.parametrize(("expr", "shape", "stride"), [
    ("torch.arange(12).view(3, 4)[[0, 2]]", [2, 4], [4, 1]),
    ("torch.arange(12).view(3, 4)[:, [1, 0]]", [3, 2], [2, 1]),
    ("torch.arange(24).view(2, 3, 4).permute(2, 0, 1)[:, [0, 1]]", [4, 2, 3], [1, 4, 8]),
    ("torch.arange(24).view(2, 3, 4)[[0, 1], :, [1, 2]]", [2, 3], [3, 1]),
    ("torch.arange(12).view(3, 4)[torch.arange(12).view(3, 4) > 3]", [8], [1]),
    ("torch.arange(12).view(3, 4)[[True, False, True]]", [2, 4], [4, 1]),
])
def test_torch_result_layouts(expr: str, shape: list, stride: list) -> None:
    """The layouts the issue asks about, from torch itself and from the engine."""
    engine, oracle = explain(expr), torch_explain(expr)
    assert without_why(engine) == without_why(oracle), document_differences(engine, oracle)
    last = engine["steps"][-1]
    assert (last["shape"], last["stride"], last["is_view"]) == (shape, stride, False)
    assert last["storage"] == 1  # a copy: a new storage


def test_a_mask_of_names_in_a_program() -> None:
    text = "x = torch.arange(12).view(3, 4)\ny = x.t()\ny[y > 6]"
    doc = explain(text)
    assert without_why(doc) == without_why(torch_explain(text))
    assert doc["values"] == [8, 9, 10, 7, 11] and doc["steps"][-1]["code"] == "[y > 6]"


@pytest.mark.parametrize(("expr", "words"), [
    ("torch.rand(3)[torch.rand(3) > 0.5]", "torch.rand holds values the explorer does not know"),
    ("torch.arange(6)[[[0, 1]]]", "expected a flat list index"),
    ("torch.arange(6)[[0, True]]", "all integers or all True/False"),
    ("torch.arange(6)[[0.5]]", "expected a list index of integers or of True/False"),
    ("torch.arange(6)[3 < torch.arange(6)]", "expected the tensor on the left"),
    ("torch.arange(6)[torch.arange(6) > torch.arange(6)]", "expected a number on the right"),
    ("torch.arange(6)[1 < torch.arange(6) < 4]", "expected one comparison"),
    ("torch.arange(6)[torch.arange(6) > 3, ..., ...]", "at most one ... in an index with a mask"),
    ("torch.arange(40000)[[0, 1]]", "at most 32768 elements"),
    ("torch.arange(6).view(2, 3)[[0] * 2]", "arithmetic is not part of the language"),
])
def test_what_stays_outside_is_refused_with_a_reason(expr: str, words: str) -> None:
    doc = explain(expr)
    assert doc["error"]["type"] == "ExpressionError" and words in doc["error"]["message"], doc
    assert without_why(doc) == without_why(torch_explain(expr))


def test_the_chain_generator_now_makes_advanced_indices() -> None:
    assert advanced_index in OP_MAKERS
