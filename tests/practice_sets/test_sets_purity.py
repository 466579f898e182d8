"""quizapp.practice_sets is pure: no Flask, no database, no clock or randomness of its own."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "quizapp" / "practice_sets"
FILES = sorted(PACKAGE.rglob("*.py"))
# Third-party libraries the exports write with; nothing else outside the standard library.
EXPORT_LIBRARIES = {"genanki", "nh3", "markdown_it", "pygments"}
QUIZAPP_ALLOWED = ("quizapp.practice_sets", "quizapp.puzzles", "quizapp.content.model",
                   "quizapp.markup")
# Time and randomness come in as parameters (a clock reading, a generator, a seed).
FORBIDDEN_STDLIB = {"time", "datetime", "random", "secrets", "uuid", "tempfile", "os"}


def imported_names(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node.lineno, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, [node.module or ""]


def test_the_package_has_its_modules():
    assert {"params.py", "bank.py", "items.py", "generation.py"} <= {p.name for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_imports_nothing_impure(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for line, names in imported_names(tree):
        for name in names:
            root = name.split(".")[0]
            where = f"{path.name}:{line} imports {name}"
            assert root not in FORBIDDEN_STDLIB, where
            if root == "quizapp":
                assert name.startswith(QUIZAPP_ALLOWED), where
            elif root not in sys.stdlib_module_names:
                assert root in EXPORT_LIBRARIES and path.parent.name == "exports", where
