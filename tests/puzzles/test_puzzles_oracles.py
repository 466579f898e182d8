"""Every puzzle's answer is checked by real torch: its oracle, and the engine traces behind it."""

from __future__ import annotations

import pytest
from puzzles_support import PAIR_IDS, PAIRS, SEEDS, built

from quizapp.engine import explain, torch_explain
from quizapp.puzzles.registry import FAMILIES, build_draft
from quizapp.puzzles.verify import as_json, run_oracle, verify, verify_puzzle

pytestmark = pytest.mark.torch


def _without_why(doc: dict) -> dict:
    steps = [{k: v for k, v in step.items() if k != "why"} for step in doc["steps"]]
    error = doc["error"] and {k: v for k, v in doc["error"].items() if k != "why"}
    return {**doc, "steps": steps, "error": error}


@pytest.mark.parametrize(("family", "level"), PAIRS, ids=PAIR_IDS)
def test_oracles_and_engine_agree_with_torch(family: str, level: str) -> None:
    compared: set[str] = set()
    for seed in SEEDS:
        puzzle = built(family, level, seed)[0]
        got = run_oracle(puzzle["oracle"])
        assert as_json(got) == as_json(puzzle["answer"]), (puzzle["id"], got, puzzle["answer"])
        for expr in build_draft(FAMILIES[family], level, seed).traced:
            if expr in compared:
                continue
            compared.add(expr)
            assert _without_why(explain(expr)) == _without_why(torch_explain(expr)), expr


def test_verify_reports_a_wrong_answer() -> None:
    puzzle = dict(built("fresh_strides", "junior", 0)[0])
    assert verify_puzzle(puzzle) is None
    puzzle["answer"] = [1, 2, 3]
    mismatch = verify_puzzle(puzzle)
    assert mismatch is not None and mismatch.expected == "[1, 2, 3]"
    puzzle["oracle"] = "import torch\nraise RuntimeError('boom')\n"
    assert "oracle raised RuntimeError: boom" in verify_puzzle(puzzle).got


def test_verify_summary() -> None:
    summary = verify(2, families=["tolist", "error_raised"])
    assert summary.checked == 2 * 5 and summary.ok
    assert "10 agree, 0 mismatches" in summary.line()
