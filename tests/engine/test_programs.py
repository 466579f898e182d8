"""Programs of named lines (x = ... then y = x.t() then y[0]) against torch 2.13, and the rules
of the lines: bounds, unknown names, rebinding, and what is refused."""

from __future__ import annotations

import collections
import json
import random

import pytest
import torch
from document_support import without_why
from expr_programs import ProgramGenerator

from quizapp.engine import explain, torch_explain
from quizapp.engine.expression import MAX_CHARS, MAX_LINES, MAX_STEPS, parse_program
from quizapp.engine.torch_explain import document_differences

PROGRAMS_PER_TEST = 400
SHOWN = 5
STEP_FIELDS = ("code", "shape", "stride", "storage_offset", "is_contiguous", "storage", "is_view",
               "numel", "dtype")


def layouts(doc: dict, skip_names: bool = True) -> list[tuple]:
    """Each step's fields a lone chain also has (its bare-name rows left out)."""
    return [tuple(json.dumps(step[f]) for f in STEP_FIELDS) for step in doc["steps"]
            if not (skip_names and step["code"].isidentifier())]


def python_agrees(doc: dict) -> bool:
    """Run the document's lines as Python with real torch (test code on generated text only;
    the product never runs what it is given): each line's tensor must have the layout of the
    line's last step.  This checks the binding of names apart from the shared step runner."""
    names: dict = {"torch": torch}
    last_step = {step["line"]: step for step in doc["steps"]}
    for number, line in enumerate(doc["lines"]):
        if line["name"] is None:
            result = eval(line["code"], names)  # noqa: S307 - generated test text, see above
        else:
            exec(line["code"], names)  # noqa: S102 - generated test text, see above
            result = names[line["name"]]
        step = last_step[number]
        got = [list(result.shape), list(result.stride()), result.storage_offset()]
        assert got == [step["shape"], step["stride"], step["storage_offset"]], (line, doc)
    if doc["values"] is not None:
        assert json.dumps(result.tolist()) == json.dumps(doc["values"]), doc
    return True


@pytest.mark.torch
@pytest.mark.parametrize("seed", range(4))
def test_programs_match_torch(seed: int) -> None:
    generator = ProgramGenerator(random.Random(f"programs:{seed}"), torch)
    mismatches, inlined, checked, seen = [], 0, 0, collections.Counter()
    for _ in range(PROGRAMS_PER_TEST):
        text, chain = generator.program()
        engine, oracle = explain(text), torch_explain(text)
        if without_why(engine) != without_why(oracle):
            mismatches.append((text, document_differences(engine, oracle)))
        seen["error " + (oracle["error"]["type"] if oracle["error"] else "none")] += 1
        seen["lines"] += "lines" in oracle
        seen["copy"] += any(s["storage"] > 0 for s in oracle["steps"])
        seen["values"] += oracle["values"] is not None
        if "lines" in engine and engine["error"] is None:
            checked += python_agrees(engine)
        if chain is not None and "lines" in engine and engine["error"] is None:
            # A straight program is its lone chain cut into lines: the same steps.
            lone = explain(chain)
            assert layouts(engine) == layouts(lone, skip_names=False), (text, chain)
            assert json.dumps(engine["values"]) == json.dumps(lone["values"]), (text, chain)
            inlined += 1
    shown = "\n".join(f"  {text!r}\n    {diffs}" for text, diffs in mismatches[:SHOWN])
    assert not mismatches, f"{len(mismatches)} of {PROGRAMS_PER_TEST} programs differ:\n{shown}"
    print(f"seed {seed}: {inlined} straight programs; {dict(seen)}")
    assert inlined > 40 and checked > 100 and seen["lines"] > 300, (inlined, checked, seen)
    for kind in ("error none", "error RuntimeError", "error ExpressionError", "copy", "values"):
        assert seen[kind] > 5, seen


@pytest.mark.torch
def test_the_brief_example() -> None:
    text = "x = torch.arange(12).view(3, 4)\ny = x.t()\ny[0]"
    doc = explain(text)
    assert without_why(doc) == without_why(torch_explain(text))
    assert doc["lines"] == [{"code": "x = torch.arange(12).view(3, 4)", "name": "x"},
                            {"code": "y = x.t()", "name": "y"}, {"code": "y[0]", "name": None}]
    assert [(s["code"], s["line"], s["input"]) for s in doc["steps"]] == [
        ("torch.arange(12)", 0, None), (".view(3, 4)", 0, 0), (".t()", 1, 1), ("[0]", 2, 2)]
    assert doc["steps"][2]["stride"] == [1, 4] and doc["values"] == [0, 4, 8]


@pytest.mark.torch
def test_an_older_name_and_a_name_as_argument_take_their_own_tensors() -> None:
    text = "x = torch.arange(6)\ny = x.view(2, 3).t().contiguous()\nz = x.view_as(y)\ny = y.T\ny"
    doc = explain(text)
    assert without_why(doc) == without_why(torch_explain(text))
    assert [(s["code"], s["input"], s["storage"]) for s in doc["steps"]] == [
        ("torch.arange(6)", None, 0), (".view(2, 3)", 0, 0), (".t()", 1, 0),
        (".contiguous()", 2, 1), (".view_as(y)", 0, 0), (".T", 3, 1), ("y", 5, 1)]
    assert doc["values"] == [[0, 1, 2], [3, 4, 5]]  # y was rebound to y.T


def outside(text: str) -> dict:
    doc = explain(text)
    assert doc["error"] is not None and doc["error"]["type"] == "ExpressionError", doc
    return doc


@pytest.mark.parametrize(("text", "words", "kept"), [
    ("x = torch.arange(6)\nz.t()", "a name bound on an earlier line (x), got z", 1),
    ("y.t()", "as in x = torch.arange(6) then x.t(), got y", 0),
    ("x = torch.arange(6)\nx.t()\nx", "name = chain on every line but the last", 1),
    ("x = torch.arange(6)\na, b = x.split(3)", "a = x.split(2)[0]", 1),
    ("x = torch.arange(6)\na = b = x", "not a = b = ...", 1),
    ("x = torch.arange(6)\nx += 1", "in-place arithmetic", 1),
    ("x = torch.arange(6)\nx[0] = 1", "changes it in place", 1),
    ("x = torch.arange(6)\nx.shape = 1", "changes it in place", 1),
    ("x = torch.arange(6)\ntorch = x", "other than torch", 1),
    ("x = torch.arange(6)\nprint(x)", "without print(...)", 1),
    ("x = torch.arange(6)\nfor i in x: i", "got a for statement", 1),
    ("import os\nx = torch.arange(6)", "got an import statement", 0),
    ("x = torch.arange(6)\nx.view_as(q)", "got q, which no earlier line binds", 1),
    ("x = torch.arange(6)\ny = x.t(", "lines such as x = torch.arange(6)", 0),
    ("x = torch.arange(6)\n  y = x.t()", "start at the left edge", 0),
    ("import torch", "a chain after import torch", 0),
    ("x = torch.arange(6)\ny = x.view(2, 3).foo()\ny", "got .foo", 2),
])
def test_lines_outside_the_language_are_refused_after_the_lines_before(
        text: str, words: str, kept: int) -> None:
    doc = outside(text)
    assert words in doc["error"]["message"]
    assert len(doc["steps"]) == kept and doc["error"]["step"] == kept


def test_names_are_bound_in_order_and_may_be_rebound() -> None:
    program = parse_program("x = torch.arange(6)\nx = x.view(2, 3)\ny = x.t()")
    assert [(line.target, line.code) for line in program.lines] == [
        ("x", "x = torch.arange(6)"), ("x", "x = x.view(2, 3)"), ("y", "y = x.t()")]
    doc = explain("x = torch.arange(6)\nx = x.view(2, 3)\nx.t()")
    assert doc["steps"][2]["input"] == 1 and doc["steps"][2]["shape"] == [3, 2]
    # a name is bound only after its own line: x = x.t() on the first line has no x yet
    assert "got x" in outside("x = x.t()")["error"]["message"]


def test_a_lone_chain_keeps_its_document_form() -> None:
    doc = explain("torch.arange(6).view(2, 3)")
    assert list(doc) == ["expr", "steps", "values", "error"] and "line" not in doc["steps"][0]
    assert not parse_program("torch.arange(6)\n.view(2, 3)".replace("\n", "")).named


def test_bounds_of_a_program() -> None:
    lines = ["x = torch.arange(1)"] + ["x = x.t()"] * (MAX_LINES - 1)
    assert len(explain("\n".join(lines))["steps"]) == MAX_LINES
    doc = outside("\n".join([*lines, "x"]))
    assert doc["steps"] == [] and f"at most {MAX_LINES} lines" in doc["error"]["message"]
    assert len(explain("import torch\n" + "\n".join(lines))["steps"]) == MAX_LINES
    # the step bound covers the whole program, tensor arguments included
    many = "x = torch.arange(1)" + ".t()" * (MAX_STEPS - 2) + "\nx.view_as(torch.arange(1))"
    doc = outside(many)
    assert doc["steps"] == [] and f"at most {MAX_STEPS} steps" in doc["error"]["message"]
    long = "x = torch.arange(1)\n" + "x = x.t()\n" * 400
    assert f"at most {MAX_CHARS} characters" in outside(long)["error"]["message"]


def test_columns_count_from_the_start_of_the_text() -> None:
    text = "  x = torch.arange(6)\ny = x.foo()"
    column = int(outside(text)["error"]["message"].split(":")[0].removeprefix("column "))
    assert text[column - 1:].startswith(".foo")


@pytest.mark.torch
@pytest.mark.parametrize(("text", "line", "steps", "kind"), [
    # the failing line's first step: a bare name is no step of its own, so .view(12) is it
    ("x = torch.arange(12).view(3, 4)\ny = x.t()\ny.view(12)", 2, 3, "RuntimeError"),
    # part-way: .t() runs as line 1's first step, then .view(12) fails
    ("x = torch.arange(12).view(3, 4)\nz = x.t().view(12)\nz", 1, 3, "RuntimeError"),
    # a later line with its own constructor, failing after it
    ("x = torch.arange(6)\ny = torch.arange(6).view(4)", 1, 2, "RuntimeError"),
    # a line the engine reads but cannot run past .foo
    ("x = torch.arange(6)\ny = x.view(2, 3).foo()\ny", 1, 2, "ExpressionError"),
])
def test_the_error_names_the_line_that_failed(text: str, line: int, steps: int, kind: str) -> None:
    doc = explain(text)
    assert without_why(doc) == without_why(torch_explain(text))
    assert doc["error"]["type"] == kind and doc["error"]["step"] == steps == len(doc["steps"])
    assert doc["error"]["line"] == line < len(doc["lines"])
    assert all(step["line"] <= line for step in doc["steps"])


def test_a_line_that_cannot_be_read_is_named_by_none() -> None:
    """A line refused before it is read has no entry in lines: the error's line is None."""
    doc = explain("x = torch.arange(6)\nz.t()")
    assert len(doc["lines"]) == 1 and doc["error"]["line"] is None


def test_a_lone_chain_error_names_no_line() -> None:
    assert "line" not in explain("torch.arange(12).view(3, 4).t().view(12)")["error"]
    assert "line" not in explain("torch.arange(6).foo()")["error"]
