"""How long `content load` takes on a large bank: reading and checking the cards, then the import.

Copies the repo's cards N times under new ids (default 5,000 cards) into a temporary folder, then
in one process: scans the bank with the parsers the app uses and with the baseline, PyYAML's
pure-Python loader and ``ast.walk`` over every node (what the scan did before libyaml and
statement-only walking), best of R runs each; then imports it into an empty SQLite database twice
(new cards, then unchanged ones). Prints seconds and per-card figures; the last line is the scan's
ratio to the baseline.

    python bench/content_load.py [--cards N] [--repeats R]
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import yaml
from timing import best_of

ROOT = Path(__file__).resolve().parents[1]


def make_bank(folder: Path, cards: int) -> int:
    """The repo's cards copied under ids ``<id>-c<k>`` until ``cards`` are written."""
    sources = sorted((ROOT / "content" / "cards").glob("*.md"))
    shutil.copy(ROOT / "content" / "concepts.yaml", folder / "concepts.yaml")
    (folder / "cards").mkdir()
    for n in range(cards):
        source = sources[n % len(sources)]
        copy = n // len(sources)
        text = re.sub(r"^id: (\S+)", rf"id: \g<1>-c{copy}", source.read_text(), count=1,
                      flags=re.M)
        (folder / "cards" / f"{source.stem}-c{copy}.md").write_text(text)
    return cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    from quizapp.content import load_cards, load_concepts
    from quizapp.content.loading import scan_bank

    folder = Path(tempfile.mkdtemp(prefix="quizapp-bench-content-"))
    try:
        cards = make_bank(folder, args.cards)
        scan = scan_bank(folder)
        assert not scan.problems and len(scan.cards) == cards, scan.problems[:3]
        fast = best_of(args.repeats, lambda: scan_bank(folder))
        with (mock.patch("quizapp.content.parsing.SAFE_LOADER", yaml.SafeLoader),
              mock.patch("quizapp.content.sample_imports.iter_statements",
                         lambda tree: ast.walk(tree))):
            slow = best_of(args.repeats, lambda: scan_bank(folder))
        print(f"cards: {cards}")
        print(f"scan (read, parse, check): {fast:.2f} s, {fast / cards * 1e3:.2f} ms a card")
        print(f"scan, baseline (pure-Python YAML, ast.walk): {slow:.2f} s, "
              f"{slow / cards * 1e3:.2f} ms a card")
        import_times = import_twice(folder, load_cards, load_concepts)
        print(f"import into SQLite, new cards: {import_times[0]:.2f} s; unchanged: "
              f"{import_times[1]:.2f} s (scan included)")
        print(f"scan ratio to baseline: {fast / slow:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def import_twice(folder: Path, load_cards, load_concepts) -> list[float]:
    """`content load`'s work (scan and import) into a fresh database, then again unchanged."""
    from flask_migrate import upgrade

    from quizapp import create_app, puzzles
    from quizapp.extensions import db
    from quizapp.services.bank_import import load_bank

    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder / "instance")})
    times = []
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        for _ in range(2):
            start = time.perf_counter()
            load_bank(db.session, load_cards(folder), load_concepts(folder), puzzles.families(),
                      datetime.now(UTC))
            times.append(time.perf_counter() - start)
        db.engine.dispose()
    return times


if __name__ == "__main__":
    main()
