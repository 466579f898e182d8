"""Puzzles per second over all families and levels, without and with torch verification.

Runs on one core (one process, torch limited to one thread). The baseline measured in the same
run is the engine's ``explain()``: the share of generation time spent inside it is printed, so
a slow engine and a slow puzzle layer can be told apart. The last line is the generation rate.

    python bench/puzzles.py [--seeds N] [--repeats R]
"""

from __future__ import annotations

import argparse
import time

from timing import best_of

import quizapp.puzzles.registry as registry
import quizapp.puzzles.tracing as tracing
from quizapp.puzzles import families, generate
from quizapp.puzzles.verify import run_oracle

TARGET = 2000.0  # puzzles per second without verification, one core


def grid(seeds: range) -> list[tuple[str, str, int]]:
    """Every (family, level) pair with each seed, interleaved so no family dominates a slice."""
    pairs = [(f["id"], level) for f in families() for level in f["levels"]]
    return [(family, level, seed) for seed in seeds for family, level in pairs]


def timed_explain() -> list[float]:
    """Wrap the engine's explain as the puzzles call it, adding its run times to a list."""
    spent: list[float] = []
    inner = tracing.explain

    def wrapper(expr: str) -> dict:
        start = time.perf_counter()
        try:
            return inner(expr)
        finally:
            spent.append(time.perf_counter() - start)

    tracing.explain = wrapper
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeds per family and level")
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement (best kept)")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    requests = grid(range(args.seeds))
    puzzles = [generate(*r) for r in requests]  # warm-up; also the puzzles verified below
    for p in puzzles[: len(puzzles) // 4]:
        run_oracle(p["oracle"])

    # The registry keeps the last 1,024 puzzles built (showing and checking one share a build):
    # each timed pass starts with that cache empty, or it would time cache hits.
    def generate_all() -> list[dict]:
        registry.clear_build_cache()
        return [generate(*r) for r in requests]

    gen = best_of(args.repeats, generate_all)
    both = best_of(args.repeats, lambda: [run_oracle(p["oracle"]) for p in generate_all()])
    spent = timed_explain()
    once = best_of(1, generate_all)
    calls = len(spent)
    engine = sum(spent)

    n = len(requests)
    gen_rate, both_rate = n / gen, n / both
    print(
        f"puzzles: {n} ({len(families())} families, {n // args.seeds} family-levels, "
        f"{args.seeds} seeds each), best of {args.repeats}"
    )
    print(
        f"engine explain(): {calls / n:.2f} calls per puzzle, {engine / calls * 1e6:.0f} us "
        f"per call, {engine / once:.0%} of generation time"
    )
    print(
        f"puzzle layer alone (generation minus explain): {(once - engine) / n * 1e6:.0f} us "
        f"per puzzle"
    )
    print(
        f"with torch verification: {both_rate:,.0f} puzzles/s "
        f"({gen_rate / both_rate:.2f}x slower than generation alone)"
    )
    print(f"generation vs target {TARGET:,.0f}/s: {gen_rate / TARGET:.2f}x")
    print(f"generation rate: {gen_rate:,.0f} puzzles/s")


if __name__ == "__main__":
    main()
