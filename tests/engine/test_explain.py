"""The explain document: its exact shape, storage numbering, [k] steps, errors and values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from document_support import without_why
from test_expression import HOSTILE

from quizapp.engine import ExpressionError, explain, torch_explain
from quizapp.engine.runner import VALUES_LIMIT
from quizapp.engine.signatures import MAX_DIMS
from quizapp.engine.work_bounds import MAX_ALLOCATED_ELEMENTS, MAX_PIECES

STEP_KEYS = ["code", "shape", "stride", "storage_offset", "is_contiguous", "storage", "is_view",
             "numel", "dtype", "why"]
ROOT = Path(__file__).resolve().parents[2]


def both(expr: str) -> dict:
    """explain(expr), after checking torch_explain gives the same document except ``why``."""
    doc = explain(expr)
    assert without_why(doc) == without_why(torch_explain(expr)), expr
    return doc


def column(doc: dict, key: str) -> list:
    return [step[key] for step in doc["steps"]]


@pytest.mark.parametrize("expr", [
    "torch.arange(24.).view(2, 12)",
    "torch.zeros(2, 3, dtype=torch.float64).t().reshape(6)",
    "torch.arange(6).split(4)[1]",
    "torch.arange(6).view(4, 2)",
    "torch.arange(6).view(2.5)",
    "not an expression",
])
def test_document_has_exactly_the_issue_form(expr: str) -> None:
    doc = explain(expr)
    assert list(doc) == ["expr", "steps", "values", "error"]
    assert doc["expr"] == expr
    for step in doc["steps"]:
        assert list(step) == STEP_KEYS
        assert isinstance(step["why"], str) and step["why"].strip()
    if doc["error"] is not None:
        assert list(doc["error"]) == ["type", "message", "step", "why"]
        assert doc["error"]["why"].strip()
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.torch
def test_the_issue_example() -> None:
    doc = both("torch.arange(24.).view(2, 12)")
    first = {k: v for k, v in doc["steps"][0].items() if k != "why"}
    assert first == {"code": "torch.arange(24.0)", "shape": [24], "stride": [1],
                     "storage_offset": 0, "is_contiguous": True, "storage": 0, "is_view": False,
                     "numel": 24, "dtype": "float32"}
    assert doc["steps"][1]["is_view"] and doc["values"][1][0] == 12.0


@pytest.mark.torch
def test_storage_numbers_count_copies() -> None:
    doc = both("torch.arange(24).view(2, 12).t().reshape(24).clone().view(4, 6).contiguous()"
               ".view_as(torch.arange(3).clone()[:, None].expand(3, 8)).ravel().detach()")
    # reshape of the transposed view copies (1), clone copies (2), everything after aliases 2;
    # the tensor argument's own storages are not numbered.
    assert column(doc, "storage") == [0, 0, 0, 1, 2, 2, 2, 2, 2, 2]
    assert column(doc, "is_view") == [False, True, True, False, False, True, True, True, True,
                                      False]


@pytest.mark.torch
def test_tuple_ops_with_pick_are_one_step() -> None:
    doc = both("torch.arange(12).view(3, 4).split(2, dim=1)[1].chunk(2)[-1].unbind(1)[0]"
               ".tensor_split([1])[1]")
    assert column(doc, "code") == ["torch.arange(12)", ".view(3, 4)", ".split(2, dim=1)[1]",
                                   ".chunk(2)[-1]", ".unbind(1)[0]", ".tensor_split([1])[1]"]
    assert column(doc, "storage_offset") == [0, 0, 2, 10, 10, 14]  # the empty piece: 10 + 4
    assert doc["values"] == []
    out = both("torch.arange(6).split(4)[2]")
    assert out["error"] == {**out["error"], "type": "IndexError", "step": 1,
                            "message": "tuple index out of range"}
    assert len(out["steps"]) == 1


@pytest.mark.torch
def test_errors_keep_the_steps_before_them() -> None:
    doc = both("torch.arange(24).view(2, 3, 4).permute(2, 0, 1).view(24)")
    assert doc["error"]["type"] == "RuntimeError" and doc["error"]["step"] == 3
    assert doc["error"]["message"].startswith("view size is not compatible")
    assert len(doc["steps"]) == 3 and doc["values"] is None
    doc = both("torch.arange(6).view(2, 3).transpose(0, 2)")
    assert (doc["error"]["type"], doc["error"]["step"]) == ("IndexError", 2)
    doc = both("torch.arange(6).view(2, 3)[::-1]")
    assert doc["error"] == {**doc["error"], "type": "ValueError",
                            "message": "step must be greater than zero"}


@pytest.mark.torch
@pytest.mark.parametrize(("expr", "step", "steps"), [
    ("torch.arange(6).view(2, 3).view(2.5)", 2, 2),  # argument kind: at the step
    ("torch.arange(6).view(2, 3).frobnicate()", 2, 2),  # not an op: at the step
    ("torch.arange(6).view(2, 3).split(1)", 2, 2),  # missing [k]: at the step
    ("torch.arange(6).view_as(torch.empty(6).foo())", 1, 1),  # inside a tensor argument
    ("torch.arange(6" + ")" * 2, 0, 0),  # syntax: whole input, step 0
    ("torch.arange(10**6)", 0, 0),  # arithmetic in the constructor
    ("x" * 3000, 0, 0),  # length: whole input
])
def test_expression_errors_name_their_step(expr: str, step: int, steps: int) -> None:
    doc = both(expr)
    assert doc["error"]["type"] == "ExpressionError"
    assert doc["error"]["step"] == step and len(doc["steps"]) == steps
    assert doc["error"]["message"].startswith("column ")


@pytest.mark.torch
def test_a_torch_error_before_a_language_error_wins() -> None:
    doc = both("torch.arange(5).view(2)(3)")
    assert (doc["error"]["type"], doc["error"]["step"]) == ("RuntimeError", 1)


@pytest.mark.torch
def test_values() -> None:
    assert both("torch.arange(6).view(2, 3).t()")["values"] == [[0, 3], [1, 4], [2, 5]]
    assert both("torch.full((2,), 0.1)")["values"] == [0.10000000149011612] * 2
    assert both("torch.tensor(True)")["values"] is True
    assert both("torch.ones(2, dtype=torch.bool)")["values"] == [True, True]
    assert both("torch.empty(2, 3)")["values"] is None
    assert both("torch.rand(2).view(2, 1)")["values"] is None
    assert both(f"torch.zeros({VALUES_LIMIT})")["values"] == [0.0] * VALUES_LIMIT
    assert both(f"torch.zeros({VALUES_LIMIT + 1})")["values"] is None
    assert both("torch.zeros(3).expand(2, 3).clone()")["values"] == [[0.0] * 3] * 2
    # no elements but 2**31 empty lists in tolist(): bounded like elements
    assert both("torch.zeros(0).expand(2147483648, 0)")["values"] is None
    assert both("torch.zeros(0).expand(64, 0)")["values"] == [[]] * 64


@pytest.mark.torch
def test_rank_and_allocation_bounds_are_language_errors() -> None:
    unsqueezes = ".unsqueeze(0)" * MAX_DIMS
    doc = both("torch.zeros(1)" + unsqueezes)
    assert doc["error"]["type"] == "ExpressionError" and doc["error"]["step"] == MAX_DIMS
    assert len(doc["steps"]) == MAX_DIMS
    big = MAX_ALLOCATED_ELEMENTS + 1
    doc = both(f"torch.zeros(1).expand({big}).clone()")
    assert doc["error"]["step"] == 2 and doc["steps"][1]["numel"] == big
    doc = both(f"torch.zeros(1).expand({big}).view(1, {big}).unsqueeze(0)")
    assert doc["error"] is None
    # tuple ops: torch builds every piece, so the count is bounded (known before running)
    for expr in (f"torch.zeros(1).expand({MAX_PIECES + 1}).unbind()[0]",
                 f"torch.arange(3).tensor_split({MAX_PIECES + 1})[0]",
                 f"torch.zeros(1).expand({2 * MAX_PIECES + 1}).split(2)[-1]"):
        doc = both(expr)
        assert (doc["error"]["type"], doc["error"]["step"]) == ("ExpressionError", len(doc["steps"]))
        assert f"at most {MAX_PIECES} tensors" in doc["error"]["message"]
    assert both(f"torch.arange(10).chunk({MAX_PIECES + 1})[-1]")["values"] == [9]
    assert both(f"torch.arange(3).tensor_split({MAX_PIECES + 1}, dim=1)[0]")["error"]["type"] == (
        "IndexError")  # torch's own error comes first


def test_expression_error_is_exported() -> None:
    assert issubclass(ExpressionError, Exception)
    assert "column 1" in str(ExpressionError("expected x", 1))


def test_engine_never_imports_torch() -> None:
    code = (
        "import sys, types\n"
        f"pkg = types.ModuleType('quizapp'); pkg.__path__ = [{str(ROOT / 'quizapp')!r}]\n"
        "sys.modules['quizapp'] = pkg\n"
        "import quizapp.engine as engine\n"
        "doc = engine.explain('torch.arange(24).view(2, 3, 4).permute(2, 0, 1).reshape(-1)')\n"
        "assert doc['error'] is None, doc\n"
        "assert 'torch' not in sys.modules, 'quizapp.engine imported torch'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs_give_an_expression_error_document(name: str) -> None:
    for doc in (explain(HOSTILE[name]), torch_explain(HOSTILE[name])):
        assert doc["error"]["type"] == "ExpressionError", doc["error"]
        assert doc["values"] is None
        json.dumps(doc)


@pytest.mark.torch
@pytest.mark.parametrize(("expr", "says_empty"), [
    ("torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)", False),
    ("torch.zeros(2, 0, 4, 5).contiguous(memory_format=torch.channels_last)", True),
    ("torch.zeros(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d)", False),
    ("torch.zeros(1, 2, 0, 3, 4).contiguous(memory_format=torch.channels_last_3d)", True),
])
def test_a_channels_last_copy_mentions_emptiness_only_for_an_empty_tensor(expr, says_empty):
    """Row-major contiguity has a zero-numel shortcut that channels-last lacks (reference 3.2);
    the note about it belongs to empty tensors, and torch must agree that both copy."""
    step = both(expr)["steps"][1]
    assert step["storage"] == 1 and not step["is_view"]
    assert ("empty tensor" in step["why"]) is says_empty, step["why"]
