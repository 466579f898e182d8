"""Timing shared by the benchmarks: the best of a few runs, as these machines are shared."""

from __future__ import annotations

import time


def best_of(repeats: int, run) -> float:
    """The shortest wall time of ``repeats`` runs (the machine may be shared)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best
