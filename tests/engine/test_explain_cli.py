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


@pytest.mark.torch
@pytest.mark.parametrize(("expr", "cut"), [
    ("torch.arange(24).view(2, 3, 4)[..., ..., ..., ..., ..., ..., 0]", 2),
    ("torch.arange(6).view(torch.complex64)", 1),
    ("torch.arange(6).view(2, 3).view(dtype=torch.uint16).t()", 2),
])
def test_check_does_not_claim_agreement_past_the_language(expr: str, cut: int) -> None:
    """torch_explain parses with the same language, so both sides stop at the refused step:
    torch never ran it (torch itself accepts these), and --check must say so."""
    status, out = run("--check", expr)
    assert status == explain_cmd.EXIT_OUTSIDE_LANGUAGE
    check = out[out.index("torch check"):]
    assert "agreement: every field agrees with torch" not in check
    assert "values: not compared (torch was not run)" in check
    assert "error: not compared (torch was not run)" in check
    checked = "step 0 was" if cut == 1 else f"steps 0-{cut - 1} were"
    assert check.splitlines()[-1] == (
        f"NOT COMPARED from step {cut} on: the chain leaves the expression language there, so "
        f"torch was not run on step {cut} or any later step; only {checked} checked")
    assert f"agreement up to step {cut - 1}:" in check
    status, out = run("--check", "--json", expr)
    report = json.loads(out)
    assert status == 2 and report["differences"] == []
    assert report["not_compared_from_step"] == cut


@pytest.mark.torch
def test_check_of_a_whole_input_refusal_compares_nothing() -> None:
    status, out = run("--check", "torch.zeros(2, 3, dtype=torch.complex64)")
    assert status == 2
    assert "agreement" not in out
    assert out.splitlines()[-1] == ("NOT COMPARED: the input is outside the expression language, "
                                    "so torch was not run on it; nothing was checked")


@pytest.mark.torch
def test_check_of_a_chain_torch_refuses_is_still_a_full_comparison() -> None:
    status, out = run("--check", "torch.arange(6).view(4, 2)")
    assert status == 0
    assert out.splitlines()[-1] == "agreement: every field agrees with torch"
    assert "NOT COMPARED" not in out
    status, out = run("--check", "--json", EXPR)
    assert status == 0 and json.loads(out)["not_compared_from_step"] is None


def test_help_documents_the_not_compared_steps_and_exit_status() -> None:
    status, out = run("--help")
    assert status == 0
    text = " ".join(out.split())
    assert "2 when the input is outside the expression language" in text
    assert "reported as not compared: torch is not run on them" in text
