"""Explorer area: type a torch chain, get the engine's step-by-step table; plus a JSON API."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from flask import Blueprint, jsonify, render_template, request

from quizapp.engine import MAX_CHARS, ExpressionError, explain
from quizapp.extensions import csrf
from quizapp.web.http.errors import render_error
from quizapp.web.http.rate_limits import limit_explain
from quizapp.web.rendering.pictures import compute_chain_views

bp = Blueprint("explorer", __name__)

EXAMPLES = (
    "torch.arange(24.).view(2, 3, 4).transpose(0, 1).view(3, 8)",
    "torch.arange(24).view(2, 3, 4).transpose(0, 1).reshape(3, 8)",
    "torch.arange(12).view(3, 4)[:, 1::2]",
    "torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)",
    "torch.arange(6).expand(4, 6)",
    "torch.arange(10).unfold(0, 4, 2)",
    "torch.empty_strided((2, 1, 3), (3, 7, 1)).view(6)",
    "x = torch.arange(12).view(3, 4)\ny = x.t()\ny[0]",
)


# What an empty request is told: the API names its parameter, the page's form has only the one field.
EMPTY_API = "Give a chain to explain in 'expr', for example torch.arange(6).view(2, 3)."
EMPTY_FORM = "Type a chain to explain, such as torch.arange(6).view(2, 3)."


def explain_chain(expr: str) -> dict:
    """The engine's explain() document; input outside the language comes back as its error."""
    try:
        return explain(expr)
    except ExpressionError as exc:  # the engine documents errors in the result; be safe anyway
        return {"expr": expr, "steps": [], "values": None,
                "error": {"type": "ExpressionError", "message": str(exc), "step": 0}}


def validate_expr(raw: object, empty: str = EMPTY_API) -> tuple[str | None, str | None]:
    """(expr, problem): a non-empty string of bounded length, or why it is not."""
    if not isinstance(raw, str) or not raw.strip():
        return None, empty
    if len(raw) > MAX_CHARS:
        return None, f"A chain is at most {MAX_CHARS} characters; this one has {len(raw)}."
    # A form's textarea sends its lines as CRLF: the engine reads lines ended by LF.
    return raw.replace("\r\n", "\n").strip(), None


@bp.route("/explorer")
@limit_explain
def index():
    raw = request.args.get("expr")
    if raw is None:
        return render_template("explorer.html", expr="", doc=None, problem=None,
                               examples=EXAMPLES)
    expr, problem = validate_expr(raw, empty=EMPTY_FORM)
    if problem:
        return render_template("explorer.html", expr=raw[:MAX_CHARS], doc=None, problem=problem,
                               examples=EXAMPLES), 400
    doc = explain_chain(expr)
    values = None if doc["values"] is None else format_values(doc["values"])
    chain = compute_chain_views(expr, doc=doc)
    return render_template("explorer.html", expr=expr, doc=doc, values=values, problem=None,
                           examples=EXAMPLES, chain=chain, rows=compute_step_rows(doc),
                           error_line=compute_error_line(doc)), compute_status(doc)


@dataclass(frozen=True, slots=True)
class StepRow:
    """One documented step as the table shows it, with the line it belongs to."""

    number: int
    step: dict
    source: int | None  # the step whose tensor it takes (None for a constructor)
    line: str | None  # the line's code, on the first step of each line of a program
    binds: str | None  # the name the line binds, on its last step


def compute_step_rows(doc: dict) -> list[StepRow]:
    """The table's rows: a lone chain's steps each take the one before; a program's steps
    carry their line and input (explain's ``lines``, ``line`` and ``input``). The line that
    failed binds nothing, so its steps name no binding."""
    steps, lines = doc["steps"], doc.get("lines")
    failed = (doc.get("error") or {}).get("line")
    rows = []
    for number, step in enumerate(steps):
        if lines is None:
            rows.append(StepRow(number, step, number - 1 if number else None, None, None))
            continue
        line = step["line"]
        first = number == 0 or steps[number - 1]["line"] != line
        last = number == len(steps) - 1 or steps[number + 1]["line"] != line
        rows.append(StepRow(number, step, step["input"], lines[line]["code"] if first else None,
                            lines[line]["name"] if last and line != failed else None))
    return rows


def compute_error_line(doc: dict) -> str | None:
    """The code of a program's failing line when none of its steps heads it in the table (it
    failed at its first step), so the error row still says which line it belongs to."""
    error, lines = doc.get("error"), doc.get("lines")
    if not error or lines is None or error.get("line") is None:
        return None
    steps = doc["steps"]
    if steps and steps[-1]["line"] == error["line"]:
        return None  # its heading already stands above its steps
    return lines[error["line"]]["code"]


def format_values(values: object) -> str:
    """Values as Tensor.tolist() gives them, printed the way torch prints a tensor.

    A scalar or a 1-d list is one line. Deeper, each innermost list is a line of its own,
    indented one space per level it is nested, with a blank line between 2-d blocks (one at
    most, however deep), and every element right-aligned to the widest so columns line up.
    """
    if not isinstance(values, list):
        return repr(values)
    nested = any(isinstance(item, list) for item in values)
    width = max(map(len, map(repr, leaves(values))), default=0) if nested else 0
    return block_text(values, width, 0)


def leaves(values: list) -> Iterator[object]:
    for item in values:
        if isinstance(item, list):
            yield from leaves(item)
        else:
            yield item


def block_text(values: list, width: int, depth: int) -> str:
    """``values``, nested ``depth`` lists deep: its lines are indented to follow the brackets."""
    if not any(isinstance(item, list) for item in values):
        return "[" + ", ".join(repr(item).rjust(width) for item in values) + "]"
    blocks = any(isinstance(part, list) for item in values for part in item)
    separator = ",\n" + ("\n" if blocks else "") + " " * (depth + 1)
    return "[" + separator.join(block_text(item, width, depth + 1) for item in values) + "]"


def compute_status(doc: dict) -> int:
    """422 when the input is outside the expression language: nothing past that point was run,
    and the document says where and why. A chain that torch itself refuses is an answer (200):
    showing why a view was refused is what the explorer is for."""
    error = doc.get("error")
    return 422 if error and error.get("type") == "ExpressionError" else 200


@bp.route("/api/explain", methods=["GET", "POST"])
@csrf.exempt  # read-only and cookie-independent: any client may ask
@limit_explain
def api_explain():
    if request.method == "POST":
        try:
            body = request.get_json(silent=True)
        except RecursionError:  # arrays nested ~1,000 deep, in a body far under the size cap
            body = None
        if not isinstance(body, dict):
            return render_error(400, "Send a JSON object such as {\"expr\": \"torch.arange(6)\"}.")
        raw = body.get("expr")
    else:
        raw = request.args.get("expr")
    expr, problem = validate_expr(raw)
    if problem:
        return render_error(400, problem)
    doc = explain_chain(expr)
    return jsonify(doc), compute_status(doc)
