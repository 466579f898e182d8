"""`quizapp explain`: the table, --json and --check (agreement, disagreement, exit status)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from quizapp.cli import explain_cmd
from quizapp.engine import explain

EXPR = "torch.arange(24.).view(2, 3, 4).permute(2, 0, 1).reshape(4, 6)[1:, ::2].split(2)[0]"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(explain_cmd.explain, list(args))
    return result.exit_code, result.output


def test_table_has_one_row_per_step() -> None:
    status, out = run(EXPR)
    assert status == 0
    lines = out.splitlines()
    header = lines[0].split()
    assert header[:10] == ["step", "code", "shape", "stride", "offset", "contiguous", "storage",
                           "view", "numel", "dtype"]
    doc = explain(EXPR)
    rows = lines[1:1 + len(doc["steps"])]
    for i, (row, step) in enumerate(zip(rows, doc["steps"], strict=True)):
        assert row.split()[0] == str(i) and step["code"] in row and step["why"] in row
    code_column = lines[0].index("code")
    assert all(row[code_column:].startswith(step["code"])
               for row, step in zip(rows, doc["steps"], strict=True))  # aligned
    assert lines[-1] == "values: " + json.dumps(doc["values"])


def test_json_prints_the_document() -> None:
    status, out = run("--json", EXPR)
    assert status == 0 and json.loads(out) == explain(EXPR)


def test_errors_and_language_errors() -> None:
    status, out = run("torch.arange(6).view(4, 2)")
    assert status == 0
    assert "error at step 1: RuntimeError: shape '[4, 2]' is invalid for input of size 6" in out
    status, out = run("torch.arange(6).view(2.5)")
    assert status == 2 and "ExpressionError: column 22:" in out
    status, out = run("__import__(1)")
    assert status == 2 and not out.startswith("step")  # no table: nothing ran
    assert out.startswith("error at step 0: ExpressionError: column 1:")


@pytest.mark.torch
def test_check_reports_agreement_field_by_field() -> None:
    status, out = run("--check", EXPR)
    assert status == 0, out
    check = out[out.index("torch check"):].splitlines()
    assert check[1].split()[2:] == ["shape", "stride", "offset", "contiguous", "storage", "view",
                                    "numel", "dtype"]
    assert all(row.split()[-8:] == ["ok"] * 8 for row in check[2:2 + len(explain(EXPR)["steps"])])
    assert check[-1] == "agreement: every field agrees with torch"
    status, out = run("--check", "--json", EXPR)
    assert status == 0 and json.loads(out)["differences"] == []


@pytest.mark.torch
def test_check_exits_1_on_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    real = explain_cmd.torch_explain

    def skewed(expr: str) -> dict:  # a torch answer with one stride changed
        doc = real(expr)
        doc["steps"][2]["stride"] = [99, 99, 99]
        return doc

    monkeypatch.setattr(explain_cmd, "torch_explain", skewed)
    status, out = run("--check", EXPR)
    assert status == 1
    assert "step 2 stride: engine [1, 12, 4] != torch [99, 99, 99]" in out
    lines = out.splitlines()
    header = lines[lines.index("torch check (ok = torch gives the same value):") + 1]
    row = next(line for line in lines if line.startswith("2 ") and "DIFFERS" in line)
    cells = {name: row[header.index(name):].split()[0] for name in ("shape", "stride", "offset")}
    assert cells == {"shape": "ok", "stride": "DIFFERS", "offset": "ok"}
    assert out.splitlines()[-1].startswith("DISAGREEMENT: 1 field")
