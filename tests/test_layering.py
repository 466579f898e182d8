"""Imports go one way, over the whole package: engine <- puzzles <- services <- web and cli.

Every import statement of every module counts (inside functions too): an import a module
does only lazily is still a dependency. Each rule says why it holds; a new module or area is
checked as soon as it exists.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import quizapp

PACKAGE = Path(quizapp.__file__).resolve().parent
# The layers of web/ below the areas, by height: they serve every area and import none, and
# each imports only those lower than itself (http nothing of web).
WEB_LOWER = {"http": 0, "rendering": 1, "navigation": 1}
# Faces: what another layer may import of a pure package (its __init__), never its modules.
FACES = ("quizapp.engine", "quizapp.puzzles", "quizapp.srs", "quizapp.pictures",
         "quizapp.progress")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def bound_names(package: str) -> set[str]:
    """The names a package's __init__ binds itself (imports, defs, assignments): ``from package
    import name`` of one of these is that attribute (its face), not a submodule of the name."""
    path = MODULES.get(package)
    if path is None or path.name != "__init__.py":
        return set()
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def is_module(name: str) -> bool:
    package, _, attribute = name.rpartition(".")
    return name in MODULES and attribute not in bound_names(package)


def imported_names(module: str, tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, name) for everything ``module`` imports: ``from a import b`` names ``a`` and, when
    ``b`` is a module of the package, ``a.b`` too; relative imports are made absolute."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield node.lineno, base
            for alias in node.names:
                if is_module(f"{base}.{alias.name}"):
                    yield node.lineno, f"{base}.{alias.name}"


IMPORTS = {module: list(imported_names(module, ast.parse(path.read_text(), str(path))))
           for module, path in MODULES.items()}


def within(name: str, *packages: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def web_part(name: str) -> str | None:
    """The web subpackage (area or lower layer) ``name`` is in; None for quizapp.web itself."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["quizapp", "web"] else None


def rule_violations(module: str, name: str) -> list[str]:
    """Why ``module`` may not import ``name`` (empty: it may)."""
    found = []
    if within(module, "quizapp.engine"):
        torch_twin = module == "quizapp.engine.torch_explain" and within(name, "torch")
        if not (is_stdlib(name) or within(name, "quizapp.engine") or torch_twin):
            found.append("the engine uses the standard library only (torch in its twin only)")
    if within(module, "quizapp.srs") and not (
            is_stdlib(name) or within(name, "fsrs", "quizapp.srs")):
        found.append("srs wraps fsrs and uses nothing else")
    if within(module, "quizapp.puzzles", "quizapp.markup", "quizapp.practice_sets",
              "quizapp.content", "quizapp.pictures", "quizapp.teams",
              "quizapp.progress"):
        if within(name, "flask", "flask_login", "flask_wtf", "flask_sqlalchemy", "sqlalchemy",
                  "werkzeug", "quizapp.models", "quizapp.services", "quizapp.web", "quizapp.cli",
                  "quizapp.extensions", "quizapp.app"):
            found.append("pure packages know nothing of the app, its database or the web")
    if within(module, "quizapp.services"):
        if within(name, "flask", "flask_login", "flask_wtf", "flask_sqlalchemy", "flask_migrate",
                  "quizapp.web", "quizapp.cli", "quizapp.app", "quizapp.extensions"):
            found.append("services take a session and values: no Flask, no Flask-Login, no web")
    if within(module, "quizapp.models") and within(
            name, "flask_login", "quizapp.services", "quizapp.web", "quizapp.cli"):
        found.append("models are the bottom of the app: no use cases, no web, no login")
    if within(module, "quizapp.web"):
        if within(name, "quizapp.models"):
            found.append("web reads what services hand it, never models directly")
        if within(name, "quizapp.services.store"):
            found.append("web calls use cases; storage is the services' own")
        if within(name, "quizapp.cli"):
            found.append("web does not import the command line")
        for face in FACES:
            if within(name, face) and name != face:
                found.append(f"web imports {face} through its face, not its modules")
        mine, theirs = web_part(module), web_part(name)
        if mine and theirs and mine != theirs:
            if mine in WEB_LOWER and theirs not in WEB_LOWER:
                found.append(f"web.{mine} serves every area and imports none (web.{theirs})")
            elif mine not in WEB_LOWER and theirs not in WEB_LOWER:
                found.append(f"the area web.{mine} imports the area web.{theirs}: move what "
                             "they share down to navigation, rendering or http")
            elif mine in WEB_LOWER and WEB_LOWER[theirs] >= WEB_LOWER[mine]:
                found.append(f"web.{mine} imports only the web layers below it (web.{theirs})")
    if within(module, "quizapp.cli") and within(name, "quizapp.web"):
        found.append("the command line uses services, not web views")
    return found


def blueprint_modules() -> set[str]:
    """Modules of web/ that define a Blueprint (route modules)."""
    found = set()
    for module, path in MODULES.items():
        if within(module, "quizapp.web") and "Blueprint(" in path.read_text():
            found.add(module)
    return found


def test_every_layer_has_modules_to_check():
    areas = {web_part(m) for m in MODULES if web_part(m) and web_part(m) not in WEB_LOWER}
    assert {"account", "bank", "study", "explorer"} <= areas
    assert set(WEB_LOWER) <= {web_part(m) for m in MODULES}
    for package in ("quizapp.engine", "quizapp.puzzles", "quizapp.srs", "quizapp.services",
                    "quizapp.services.store", "quizapp.models", "quizapp.cli"):
        assert sum(within(m, package) for m in MODULES) >= 2, package
    assert sum(len(names) for names in IMPORTS.values()) > 500


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_one_way(module):
    problems = [f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} imports {name}: {why}"
                for line, name in IMPORTS[module] for why in rule_violations(module, name)]
    assert not problems, "\n".join(problems)


def test_no_blueprint_module_is_imported_but_by_the_web_package():
    """A route module is wired by quizapp.web (register_web); another module needing something
    of it means that thing belongs in a module both can import."""
    routes = blueprint_modules()
    assert len(routes) >= 10
    for module, names in IMPORTS.items():
        if module == "quizapp.web":
            continue
        imported = {name for _, name in names} & routes - {module}
        assert not imported, f"{module} imports the route module(s) {sorted(imported)}"


@pytest.mark.parametrize(("module", "name", "why"), [
    ("quizapp.web.study.routes", "quizapp.models", "never models directly"),
    ("quizapp.web.study.routes", "quizapp.web.bank.questions", "imports the area web.bank"),
    ("quizapp.web.http.errors", "quizapp.web.study.forms", "imports none"),
    ("quizapp.web.http.errors", "quizapp.web.rendering.filters", "layers below it"),
    ("quizapp.web.rendering.filters", "quizapp.puzzles.rendering", "through its face"),
    ("quizapp.web.bank.skills", "quizapp.services.store.study_items", "storage"),
    ("quizapp.services.reviews", "flask_login", "no Flask-Login"),
    ("quizapp.services.reviews", "flask", "no Flask"),
    ("quizapp.engine.tensor", "numpy", "standard library only"),
    ("quizapp.puzzles.registry", "quizapp.services", "know nothing of the app"),
    ("quizapp.pictures.svg", "flask", "know nothing of the app"),
    ("quizapp.progress.figures", "sqlalchemy", "know nothing of the app"),
    ("quizapp.web.explorer.routes", "quizapp.pictures.svg", "through its face"),
    ("quizapp.models.account", "flask_login", "no login"),
])
def test_the_rules_refuse_what_they_name(module, name, why):
    """Each rule, fed a forbidden import, says so (the layering test cannot pass vacuously)."""
    assert any(why in problem for problem in rule_violations(module, name)), (module, name)
