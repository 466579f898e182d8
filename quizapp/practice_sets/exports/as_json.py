"""The set as JSON: its seed, parameters and every item with prompt, answer and explanation."""

from __future__ import annotations

import json
from collections.abc import Sequence

from quizapp.practice_sets.items import SetItem
from quizapp.practice_sets.params import SetParams

FORMAT_NAME = "quizapp-practice-set"
FORMAT_VERSION = 1


def compute_parameters(params: SetParams) -> dict[str, object]:
    return {
        "count": params.count, "puzzles": params.puzzles, "levels": list(params.levels),
        "concepts": list(params.concepts), "families": list(params.families),
        "title": params.title, "time_limit_minutes": params.time_limit,
    }


def compute_item(item: SetItem) -> dict[str, object]:
    return {
        "kind": item.kind, "key": item.key, "level": item.level,
        "concepts": list(item.concepts), "title": item.title, "prompt": item.prompt,
        "code": item.code, "choices": list(item.choices), "answer_kind": item.answer_kind,
        "answer": item.answer, "explanation": item.explanation, "code_output": item.code_output,
        "retired": item.retired,
    }


def export_json(params: SetParams, items: Sequence[SetItem]) -> bytes:
    """UTF-8 JSON, keys in a fixed order: the same set gives the same bytes."""
    document = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "seed": params.seed,
        "parameters": compute_parameters(params), "items": [compute_item(i) for i in items],
    }
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
