"""quizapp.engine is pure: standard library only, and torch only lazily inside torch_explain."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "quizapp" / "engine"
LAZY_TORCH_MODULE = "torch_explain.py"  # may import torch, but only inside a function
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def _imported_roots(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:  # a relative import stays inside quizapp.engine
            return ["quizapp.engine"]
        return [node.module or ""]
    return []


def _allowed(name: str) -> bool:
    return (
        name.split(".")[0] in sys.stdlib_module_names
        or name == "quizapp.engine"
        or name.startswith("quizapp.engine.")
    )


def _module_level_imports(tree: ast.Module):
    """Imports that run at import time: all not nested in a function (classes, ifs, trys count)."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def test_the_engine_has_modules_to_check():
    names = {p.name for p in ENGINE_FILES}
    assert {"tensor.py", "geometry.py", "contiguity.py", "values.py", "factories.py"} <= names
    assert any(p.parent.name == "ops" for p in ENGINE_FILES)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_module_imports_only_stdlib_and_the_engine(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in _module_level_imports(tree):
        for name in _imported_roots(node):
            assert _allowed(name), f"{path.name}:{node.lineno} imports {name} at module level"
    for node in ast.walk(tree):  # nested imports: stdlib/engine only, torch only in torch_explain
        for name in _imported_roots(node):
            if name.split(".")[0] == "torch" and path.name == LAZY_TORCH_MODULE:
                continue
            assert _allowed(name), f"{path.name}:{node.lineno} imports {name}"
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            assert called not in ("__import__", "import_module"), f"{path.name}:{node.lineno}"


def test_torch_explain_imports_torch_only_inside_a_function():
    path = ENGINE / LAZY_TORCH_MODULE
    tree = ast.parse(path.read_text())
    assert not any(
        "torch" == n.split(".")[0]
        for node in _module_level_imports(tree)
        for n in _imported_roots(node)
    )


def test_the_purity_check_catches_a_bad_import():
    bad = ast.parse("import numpy\nfrom torch import nn\n\ndef f():\n    import json\n")
    found = [n for node in _module_level_imports(bad) for n in _imported_roots(node)]
    assert sorted(found) == ["numpy", "torch"] and not any(map(_allowed, found))


def test_importing_the_op_layer_loads_no_torch_and_no_third_party_module():
    script = textwrap.dedent(
        """
        import sys
        import quizapp  # the package itself (its app factory) is not the engine's business
        before = set(sys.modules)
        import quizapp.engine.ops, quizapp.engine.factories, quizapp.engine.values
        import quizapp.engine.contiguity, quizapp.engine.geometry
        added = sorted(set(sys.modules) - before)
        foreign = [m for m in added if m.split(".")[0] not in sys.stdlib_module_names
                   and not m.startswith("quizapp")]
        assert "torch" not in sys.modules, "torch was imported"
        assert not foreign, foreign
        print("pure", len(added))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ENGINE.parents[1],
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pure")
