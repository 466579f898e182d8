"""Explorer use case: explain a typed torch chain with the reference view engine."""

from __future__ import annotations

from quizapp.engine import ExpressionError, explain

EXPR_MAX = 2000


def explain_chain(expr: str) -> dict:
    """The engine's explain() document; input outside the language comes back as its error."""
    try:
        return explain(expr)
    except ExpressionError as exc:  # the engine documents errors in the result; be safe anyway
        return {"expr": expr, "steps": [], "values": None,
                "error": {"type": "ExpressionError", "message": str(exc), "step": 0}}
