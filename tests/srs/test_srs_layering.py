"""quizapp.srs stays a pure wrapper: stdlib, fsrs and itself only; no clock reads."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import quizapp.srs

SRS_DIR = Path(quizapp.srs.__file__).parent
ALLOWED_THIRD_PARTY = {"fsrs"}


def imported_roots(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_srs_imports_only_stdlib_fsrs_and_itself():
    modules = sorted(SRS_DIR.glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        for name in imported_roots(ast.parse(path.read_text(), str(path))):
            root = name.split(".")[0]
            allowed = (root in sys.stdlib_module_names or root in ALLOWED_THIRD_PARTY
                       or name.startswith("quizapp.srs"))
            assert allowed, f"{path.name} imports {name}"


def test_srs_never_reads_the_clock_or_global_randomness():
    for path in sorted(SRS_DIR.glob("*.py")):
        source = path.read_text()
        for forbidden in (".now(", ".utcnow(", ".today(", "time.time(", "import random"):
            assert forbidden not in source, f"{path.name} uses {forbidden}"
