"""The server benchmarks run end to end on a tiny load, and the one that writes loses nothing.

Figures are not checked here (speed is measured by running bench/, on a quiet machine); what is
checked is that the scripts still work against the current app and that the study loop under a
real WSGI server, double clicks included, stores exactly the ratings the server accepted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str) -> str:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


# Every rating is sent twice: on a busy machine a user may rate fewer than ten items in the
# run's few seconds, and the double clicks must happen whatever the speed (CI, load 14: none).
SMALL_RUN = ("--users", "3", "--duration", "1.5", "--paced-duration", "1", "--rounds", "2",
             "--think-ms", "100", "--client-processes", "1", "--workers", "1", "--threads", "2",
             "--double-click-every", "1")


def check_server_bench_output(out: str) -> None:
    for label in ("throughput bare /ping", "throughput study loop", "throughput logged-in no-op",
                  "paced study loop (think 100 ms)"):
        assert re.search(rf"^{re.escape(label)}\s+\d+\.\d req/s\s+p50\s+\d+\.\d ms\s+"
                         r"p99\s+\d+\.\d ms\s+max\s+\d+\.\d ms", out, re.M), label
    accepted, stored, clicks, doubled, lost = map(int, re.search(
        r"reviews: (\d+) accepted, (\d+) in the database, (\d+) double clicks sent, (\d+) doubled, "
        r"(\d+) lost or extra", out).groups())
    assert accepted > 0 and stored == accepted and doubled == 0 and lost == 0
    assert clicks > 0  # the double clicks really happened
    assert "VOID" not in out
    assert re.search(r"^CPU time stolen by the hypervisor: throughput \d+\.\d%, paced \d+\.\d%$",
                     out, re.M)
    assert re.search(r"^throughput ratio study loop / bare endpoint: \d+\.\d\d$", out, re.M)


def test_server_bench_counts_every_review_once_and_prints_every_figure():
    out = run_bench("server.py", *SMALL_RUN)
    assert "SQLite (WAL)" in out
    check_server_bench_output(out)


def test_server_bench_on_postgresql_counts_every_review_once(postgres_server):
    """The same load, double clicks included, on PostgreSQL's concurrency rules."""
    name = postgres_server.new_database(template=None)
    try:
        out = run_bench("server.py", *SMALL_RUN, "--database-url", postgres_server.url(name))
    finally:
        postgres_server.drop_database(name)
    assert "postgresql+psycopg (--database-url)" in out
    check_server_bench_output(out)


def test_request_costs_bench_measures_every_study_request_kind():
    out = run_bench("request_costs.py", "--users", "3", "--loops", "40", "--warmup", "5")
    for kind in ("GET /study (card)", "POST /study/rate", "GET /ping (bare Flask)",
                 "GET /_cost/logged-in"):
        assert re.search(rf"^{re.escape(kind)}\s+\d+\s+\d+\s+\d+\s+\d+\.\dx$", out, re.M), kind
    assert re.search(r"study-loop request .* = \d+\.\dx bare ping", out)


def test_content_load_bench_scans_and_imports_a_copied_bank():
    out = run_bench("content_load.py", "--cards", "140", "--repeats", "1")
    assert "cards: 140" in out
    for label in ("scan (read, parse, check)", "scan, baseline (pure-Python YAML, ast.walk)"):
        assert re.search(rf"^{re.escape(label)}: \d+\.\d\d s, \d+\.\d\d ms a card$", out, re.M)
    assert re.search(r"^import into SQLite, new cards: \d+\.\d\d s; unchanged: \d+\.\d\d s", out,
                     re.M)
    assert re.search(r"^scan ratio to baseline: \d+\.\d\d$", out, re.M)


def test_puzzles_bench_times_building_not_the_build_cache():
    """The registry caches built puzzles; a bench that timed cache hits never called the engine
    and divided by its zero calls (make bench stopped there)."""
    out = run_bench("puzzles.py", "--seeds", "2", "--repeats", "2")
    calls = float(re.search(r"^engine explain\(\): (\d+\.\d\d) calls per puzzle", out, re.M)
                  .group(1))
    assert calls >= 1.0  # every puzzle runs the engine at least once when it is built
    assert re.search(r"^generation rate: [\d,]+ puzzles/s$", out, re.M)


def test_sets_bench_prints_every_phase_against_the_puzzles_alone():
    out = run_bench("sets.py", "--repeats", "1")
    assert "set: 100 items (" in out
    for label in ("baseline: the", "generate the set", "export json", "export csv", "export md",
                  "export apkg", "whole set (generate + 4 formats)"):
        assert re.search(rf"^{re.escape(label)}.*\d+\.\d ms\s+\d+\.\d\dx\s+\d+\.\d ms\s+"
                         r"\d+\.\d\dx", out, re.M), label
    assert re.search(r"target 1 s: wall \d+\.\d\d, cpu \d+\.\d\d of it", out)


def test_progress_bench_checks_the_calendar_against_the_plain_count_and_prints_its_ratio():
    out = run_bench("progress.py", "--reviews", "2000", "--items", "20", "--repeats", "1")
    assert re.search(r"^calendar \(bisection\): \d+\.\d+ s$", out, re.M), out
    assert re.search(r"^calendar / baseline: \d+\.\d+$", out.splitlines()[-1]), out
