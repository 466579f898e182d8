"""`quizapp explain "EXPR"`: the engine's step-by-step table, its JSON document, a torch check."""

from __future__ import annotations

import json

import click

from quizapp.cli.failures import require_torch
from quizapp.engine import explain as explain_expression
from quizapp.engine import torch_explain
from quizapp.engine.torch_explain import document_differences

_COLUMNS = (("step", None), ("code", "code"), ("shape", "shape"), ("stride", "stride"),
            ("offset", "storage_offset"), ("contiguous", "is_contiguous"),
            ("storage", "storage"), ("view", "is_view"), ("numel", "numel"),
            ("dtype", "dtype"), ("why", "why"))
EXIT_DISAGREE = 1  # --check found a field where the engine and torch differ
EXIT_OUTSIDE_LANGUAGE = 2  # the input is not an expression of the language


def format_cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def format_table(rows: list[list[str]]) -> list[str]:
    """Left-aligned columns two spaces apart; the last column is not padded."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join([cell.ljust(w) for cell, w in zip(row, widths, strict=False)] + [row[-1]])
            .rstrip() for row in rows]


def render_document(doc: dict) -> list[str]:
    """The readable form of an explain document: one table row per step, then values/error."""
    lines = []
    if doc["steps"]:
        rows = [[title for title, _ in _COLUMNS]]
        for i, step in enumerate(doc["steps"]):
            rows.append([str(i)] + [format_cell(step[key]) for _, key in _COLUMNS[1:]])
        lines.extend(format_table(rows))
    error = doc["error"]
    if error is not None:
        lines.append(f"error at step {error['step']}: {error['type']}: {error['message']}")
        if error.get("why"):
            lines.append(f"  why: {error['why']}")
    elif doc["values"] is not None:
        lines.append(f"values: {json.dumps(doc['values'])}")
    else:
        lines.append("values: not known (the data is uninitialised, random or too large)")
    return lines


def not_compared_from(doc: dict, torch_doc: dict) -> int | None:
    """The step from which torch was not run: where the chain leaves the expression language.

    Both sides parse with the same language, so a step outside it stops both documents there:
    torch never ran that step or the ones after it, and their agreement means nothing.
    """
    steps = [d["error"]["step"] for d in (doc, torch_doc)
             if d["error"] is not None and d["error"]["type"] == "ExpressionError"]
    return min(steps) if steps else None


def not_compared_text(step: int) -> str:
    if step == 0:
        return ("NOT COMPARED: the input is outside the expression language, so torch was not "
                "run on it; nothing was checked")
    checked = "step 0 was" if step == 1 else f"steps 0-{step - 1} were"
    return (f"NOT COMPARED from step {step} on: the chain leaves the expression language there, "
            f"so torch was not run on step {step} or any later step; only {checked} checked")


def render_check(doc: dict, torch_doc: dict) -> tuple[list[str], int]:
    """Field-by-field agreement with torch (an 'ok' table) and the list of disagreements."""
    diffs = document_differences(doc, torch_doc)
    bad = {(where, field) for where, field, _, _ in diffs}
    cut = not_compared_from(doc, torch_doc)
    lines = ["", "torch check (ok = torch gives the same value):"]
    rows = [[title for title, _ in _COLUMNS[:-1]]]
    for i, step in enumerate(doc["steps"]):
        cells = [str(i), step["code"]]
        cells += ["DIFFERS" if (f"step {i}", key) in bad else "ok" for _, key in _COLUMNS[2:-1]]
        rows.append(cells)
    if len(rows) > 1:
        lines.extend(format_table([row + [""] for row in rows]))
    for name in ("values", "error"):
        if any(where == name for where, _, _, _ in diffs):
            state = "DIFFERS"
        elif cut is not None:
            state = "not compared (torch was not run)"
        else:
            state = "ok"
        lines.append(f"{name}: {state}")
    for where, field, engine_value, torch_value in diffs:
        lines.append(f"  {where} {field}: engine {json.dumps(engine_value)} "
                     f"!= torch {json.dumps(torch_value)}")
    if diffs:
        lines.append(f"DISAGREEMENT: {len(diffs)} field(s) differ from torch")
    elif cut is None:
        lines.append("agreement: every field agrees with torch")
    elif cut > 0:
        lines.append(f"agreement up to step {cut - 1}: every field of "
                     f"{'step 0' if cut == 1 else f'steps 0-{cut - 1}'} agrees with torch")
    if cut is not None:
        lines.append(not_compared_text(cut))
    return lines, len(diffs)


@click.command("explain")
@click.argument("expr")
@click.option("--json", "as_json", is_flag=True, help="Print the explain document as JSON.")
@click.option("--check", is_flag=True,
              help="Also run real torch and report agreement field by field (exit status 1 on "
                   "any disagreement). Steps from where the chain leaves the expression language "
                   "on are reported as not compared: torch is not run on them.")
def explain(expr: str, as_json: bool, check: bool) -> None:
    """Explain a chain such as "torch.arange(24.).view(2, 12).t()" step by step.

    Exit status: 0 when the chain was explained (even if torch would raise at some step),
    1 when --check finds a disagreement, 2 when the input is outside the expression language
    (with --check: the steps before that point were compared, the rest were not),
    3 when --check is asked for where torch is not installed.
    """
    if check:
        require_torch("--check")
    doc = explain_expression(expr)
    if as_json and not check:
        click.echo(json.dumps(doc, indent=2))
    elif as_json:
        torch_doc = torch_explain(expr)
        click.echo(json.dumps({"engine": doc, "torch": torch_doc,
                               "differences": document_differences(doc, torch_doc),
                               "not_compared_from_step": not_compared_from(doc, torch_doc)},
                              indent=2))
    else:
        for line in render_document(doc):
            click.echo(line)
    status = 0
    if check:
        torch_doc = torch_doc if as_json else torch_explain(expr)
        lines, count = render_check(doc, torch_doc)
        if not as_json:
            for line in lines:
                click.echo(line)
        status = EXIT_DISAGREE if count else 0
    outside = doc["error"] is not None and doc["error"]["type"] == "ExpressionError"
    if status == 0 and outside:
        status = EXIT_OUTSIDE_LANGUAGE
    if status:
        raise SystemExit(status)
