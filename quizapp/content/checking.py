"""`quizapp content check` as a function: validate the bank, then run every code sample."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from quizapp.content.loading import scan_bank
from quizapp.content.model import Problem
from quizapp.content.samples import (
    EXPECTED_TORCH,
    SAMPLE_TIME_LIMIT,
    SampleRunner,
    run_samples,
)


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The outcome of a check: counts for the summary line and every problem, sorted."""

    files: int
    cards: int
    samples_run: int
    problems: tuple[Problem, ...]
    torch_version: str | None


def check_bank(path: str | Path, *, run: bool = True, time_limit: float = SAMPLE_TIME_LIMIT,
               runner: SampleRunner | None = None) -> CheckReport:
    """Validate every file under ``path``; with ``run``, execute each valid card's sample too.

    A caller may pass its own ``runner`` (kept open afterwards); otherwise one is started and
    stopped here with ``time_limit`` seconds per sample.
    """
    scan = scan_bank(path)
    problems = list(scan.problems)
    torch_version = None
    if run and scan.samples:
        if runner is None:
            with SampleRunner(time_limit=time_limit) as own_runner:
                problems += run_samples(scan.samples, own_runner)
                torch_version = own_runner.torch_version
        else:
            problems += run_samples(scan.samples, runner)
            torch_version = runner.torch_version
        if torch_version is not None and not torch_version.startswith(EXPECTED_TORCH):
            problems.append(Problem(str(path), 1, f"samples ran under torch {torch_version}, "
                                                  f"but outputs are recorded for torch {EXPECTED_TORCH}x"))
    return CheckReport(
        files=scan.files,
        cards=len(scan.cards),
        samples_run=len(scan.samples) if run else 0,
        problems=tuple(sorted(problems)),
        torch_version=torch_version,
    )
