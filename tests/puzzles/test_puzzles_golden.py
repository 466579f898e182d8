"""Golden puzzles: a few ids whose full JSON is pinned, so any change to generation is visible.

A deliberate change (new wording, a new family rule, new engine explanations) is made visible by
regenerating the files and reviewing the diff:

    python tests/puzzles/test_puzzles_golden.py --update
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from quizapp.puzzles import generate

GOLDEN = Path(__file__).resolve().parent / "golden"
IDS = [
    "fresh_strides/junior/7",
    "storage_index/junior/3",
    "view_possible/middle/11",
    "tolist/middle/5",
    "expand_views/senior/2",
    "storage_offset/senior/8",
    "contiguous_bytes/principal/1",
    "as_strided_window/principal/9",
    "error_raised/principal/4",
]


def golden_path(puzzle_id: str) -> Path:
    return GOLDEN / (puzzle_id.replace("/", "__") + ".json")


def puzzle_for(puzzle_id: str) -> dict:
    family, level, seed = puzzle_id.split("/")
    return generate(family, level, int(seed))


@pytest.mark.parametrize("puzzle_id", IDS)
def test_golden_puzzle_unchanged(puzzle_id: str) -> None:
    expected = json.loads(golden_path(puzzle_id).read_text(encoding="utf-8"))
    assert puzzle_for(puzzle_id) == expected


def test_golden_folder_holds_exactly_the_pinned_ids() -> None:
    assert sorted(p.name for p in GOLDEN.glob("*.json")) == sorted(golden_path(i).name for i in IDS)


def update() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for puzzle_id in IDS:
        text = json.dumps(puzzle_for(puzzle_id), indent=2, ensure_ascii=False) + "\n"
        golden_path(puzzle_id).write_text(text, encoding="utf-8")
        print(f"wrote {golden_path(puzzle_id)}")


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    update()
