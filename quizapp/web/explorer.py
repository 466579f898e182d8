"""Explorer area: type a torch chain, get the engine's step-by-step table; plus a JSON API."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from quizapp.extensions import csrf
from quizapp.services.explorer import EXPR_MAX, explain_chain
from quizapp.web.errors import render_error

bp = Blueprint("explorer", __name__)

EXAMPLES = (
    "torch.arange(24.).view(2, 3, 4).transpose(0, 1).view(3, 8)",
    "torch.arange(24).view(2, 3, 4).transpose(0, 1).reshape(3, 8)",
    "torch.arange(12).view(3, 4)[:, 1::2]",
    "torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)",
    "torch.arange(6).expand(4, 6)",
    "torch.arange(10).unfold(0, 4, 2)",
    "torch.empty_strided((2, 1, 3), (3, 7, 1)).view(6)",
)


def validate_expr(raw: object) -> tuple[str | None, str | None]:
    """(expr, problem): a non-empty string of bounded length, or why it is not."""
    if not isinstance(raw, str) or not raw.strip():
        return None, "Give a chain to explain in 'expr', for example torch.arange(6).view(2, 3)."
    if len(raw) > EXPR_MAX:
        return None, f"A chain is at most {EXPR_MAX} characters; this one has {len(raw)}."
    return raw.strip(), None


@bp.route("/explorer")
def index():
    raw = request.args.get("expr")
    if raw is None:
        return render_template("explorer.html", expr="", doc=None, problem=None,
                               examples=EXAMPLES)
    expr, problem = validate_expr(raw)
    if problem:
        return render_template("explorer.html", expr=raw[:EXPR_MAX], doc=None, problem=problem,
                               examples=EXAMPLES), 400
    doc = explain_chain(expr)
    return render_template("explorer.html", expr=expr, doc=doc, problem=None,
                           examples=EXAMPLES), compute_status(doc)


def compute_status(doc: dict) -> int:
    """422 when the input is outside the expression language: nothing past that point was run,
    and the document says where and why. A chain that torch itself refuses is an answer (200):
    showing why a view was refused is what the explorer is for."""
    error = doc.get("error")
    return 422 if error and error.get("type") == "ExpressionError" else 200


@bp.route("/api/explain", methods=["GET", "POST"])
@csrf.exempt  # read-only and cookie-independent: any client may ask
def api_explain():
    if request.method == "POST":
        body = request.get_json(silent=True)
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
