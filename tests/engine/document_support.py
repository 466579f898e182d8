"""Comparing explain documents in tests: everything but the prose ``why`` must match."""

from __future__ import annotations

import json


def without_why(doc: dict) -> str:
    """The document as JSON with every ``why`` removed (types kept: 1 != 1.0 != True)."""
    steps = [{k: v for k, v in step.items() if k != "why"} for step in doc["steps"]]
    error = None if doc["error"] is None else {
        k: v for k, v in doc["error"].items() if k != "why"}
    return json.dumps({**doc, "steps": steps, "error": error})
