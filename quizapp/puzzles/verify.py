"""Check puzzles against real torch: run each oracle and compare with the engine's answer.

torch is imported inside the functions only, so ``quizapp.puzzles`` stays a pure layer.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from quizapp.puzzles.registry import FAMILIES, generate


def as_json(value: Any) -> str:
    """A canonical form for comparing answers: tuples (and torch.Size) compare as lists."""
    return json.dumps(value, sort_keys=True)


def run_oracle(oracle: str) -> Any:
    """Run a generated oracle program in a fresh namespace with torch imported; its ``answer``.

    Oracles are programs this package generated (never user text); they only call torch.
    """
    import torch

    namespace: dict[str, Any] = {"torch": torch}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(oracle, "<oracle>", "exec"), namespace)  # noqa: S102 - our own program
    return namespace["answer"]


@dataclass(frozen=True, slots=True)
class Mismatch:
    puzzle_id: str
    expected: str
    got: str


@dataclass(slots=True)
class Summary:
    checked: int = 0
    seconds: float = 0.0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def line(self) -> str:
        rate = self.checked / self.seconds if self.seconds else 0.0
        return (
            f"verified {self.checked} puzzles against torch in {self.seconds:.1f} s "
            f"({rate:.0f}/s): {self.checked - len(self.mismatches)} agree, "
            f"{len(self.mismatches)} mismatches"
        )


def verify_puzzle(puzzle: dict[str, Any]) -> Mismatch | None:
    """None when the oracle under torch gives the puzzle's answer, else what differed."""
    try:
        got = as_json(run_oracle(puzzle["oracle"]))
    except Exception as exc:  # noqa: BLE001 - any failure of an oracle is a mismatch to report
        got = f"oracle raised {type(exc).__name__}: {exc}"
    expected = as_json(puzzle["answer"])
    return None if got == expected else Mismatch(puzzle["id"], expected, got)


def verify(count: int, families: Iterable[str] | None = None, first_seed: int = 0,
           levels: Iterable[str] | None = None) -> Summary:
    """Generate ``count`` puzzles per family and level (of ``families`` and ``levels``, when
    given; seeds from ``first_seed`` on) and check every oracle under torch."""
    summary = Summary()
    start = time.perf_counter()
    wanted_levels = None if levels is None else set(levels)
    for family_id in families or FAMILIES:
        for level in FAMILIES[family_id].levels:
            if wanted_levels is not None and level not in wanted_levels:
                continue
            for seed in range(first_seed, first_seed + count):
                puzzle = generate(family_id, level, seed)
                summary.checked += 1
                mismatch = verify_puzzle(puzzle)
                if mismatch is not None:
                    summary.mismatches.append(mismatch)
    summary.seconds = time.perf_counter() - start
    return summary
