"""A 100-item practice set (half puzzles): generated, then exported in every format.

Each phase is printed in milliseconds and as a multiple of the baseline measured in the same
run: generating the set's 50 puzzles alone (``quizapp.puzzles.deal`` on their keys). The
puzzles' build cache and the Markdown renderers' caches are emptied before every timed pass,
so each pass is a cold export, as the first download of a set is. The last line is the whole
set (generation and all four formats) against the target of one second. Wall time and CPU time
are both printed (each the best of the runs): on a shared machine the wall time also counts
waiting for a core, and the CPU time of this single-threaded work is what a quiet one would
show.

    python bench/sets.py [--repeats R] [--seed S]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import quizapp.markup.inline_html as inline_html
import quizapp.puzzles.registry as registry
from quizapp.content import load_cards, load_concepts
from quizapp.practice_sets import (
    PUZZLE,
    SetParams,
    build_bank,
    card_from_content,
    generate,
    parse_puzzle_key,
)
from quizapp.practice_sets.exports import export_apkg, export_csv, export_json, export_markdown
from quizapp.puzzles import deal

CONTENT = Path(__file__).resolve().parents[1] / "content"
TARGET_SECONDS = 1.0
COUNT, PUZZLES = 100, 50


def best_of(repeats: int, run) -> tuple[float, float]:
    """The shortest wall time and the shortest CPU time of ``repeats`` runs."""
    wall = cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def clear_caches() -> None:
    registry.clear_build_cache()
    inline_html.render_markdown_inline_styled.cache_clear()
    inline_html.render_python_inline_styled.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per measurement (best kept)")
    parser.add_argument("--seed", type=int, default=2026, help="the set's seed")
    args = parser.parse_args()

    cards = load_cards(CONTENT)
    bank = build_bank((card_from_content(c) for c in cards), load_concepts(CONTENT))
    # As many cards as the bank has, up to half the set; puzzles fill the rest.
    puzzles = max(PUZZLES, COUNT - len(bank.cards))
    params = SetParams(count=COUNT, seed=args.seed, puzzles=puzzles, title="Benchmark set")
    items = generate(params, bank)  # warm-up (imports, first compilations)
    keys = [parse_puzzle_key(item.key) for item in items if item.kind == PUZZLE]

    def puzzles_alone() -> None:
        clear_caches()
        for key in keys:
            deal(key.family, key.level, key.seed)

    def generation() -> None:
        clear_caches()
        generate(params, bank)

    now = time.time()
    exports = {
        "json": lambda: export_json(params, items),
        "csv": lambda: export_csv(params, items),
        "md": lambda: export_markdown(params, items),
        "apkg": lambda: export_apkg(params, items, now=now),
    }

    def everything() -> None:
        clear_caches()
        made = generate(params, bank)
        export_json(params, made)
        export_csv(params, made)
        export_markdown(params, made)
        export_apkg(params, made, now=now)

    def cold(run):
        def timed() -> None:
            clear_caches()
            run()
        return timed

    base_wall, base_cpu = best_of(args.repeats, puzzles_alone)
    print(f"set: {COUNT} items ({len(keys)} puzzles, {COUNT - len(keys)} cards of "
          f"{len(bank.cards)}), seed {args.seed}, best of {args.repeats}")
    print(f"{'':<38}  {'wall':>9}  {'x base':>6}  {'cpu':>9}  {'x base':>6}")

    def show(label: str, wall: float, cpu: float, note: str = "") -> None:
        print(f"{label:<38}  {wall * 1000:6.1f} ms  {wall / base_wall:5.2f}x  "
              f"{cpu * 1000:6.1f} ms  {cpu / base_cpu:5.2f}x{note}")

    show(f"baseline: the {len(keys)} puzzles alone", base_wall, base_cpu)
    show("generate the set", *best_of(args.repeats, generation))
    for name, run in exports.items():
        show(f"export {name}", *best_of(args.repeats, cold(run)))
    wall, cpu = best_of(args.repeats, everything)
    show("whole set (generate + 4 formats)", wall, cpu,
         f"  (target {TARGET_SECONDS:.0f} s: wall {wall / TARGET_SECONDS:.2f}, "
         f"cpu {cpu / TARGET_SECONDS:.2f} of it)")


if __name__ == "__main__":
    main()
