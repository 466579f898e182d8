"""constraints.txt: one exact pin per distribution, agreeing with pyproject.toml and this install."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def read_constraints() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        requirement = Requirement(line)
        (specifier,) = requirement.specifier  # exactly one specifier per line
        assert specifier.operator == "==" and not requirement.extras and not requirement.marker, line
        name = canonicalize_name(requirement.name)
        assert name not in pins, f"{name} is pinned twice"
        pins[name] = specifier.version
    return pins


def project_requirements() -> list[Requirement]:
    lines = list(PROJECT["dependencies"])
    for extra in PROJECT["optional-dependencies"].values():
        lines += [line for line in extra if not line.startswith(f"{PROJECT['name']}[")]
    return [Requirement(line) for line in lines]


def compute_installed_closure(extras: set[str]) -> dict[str, str]:
    """Every installed distribution quizapp needs with these extras, followed transitively."""
    found: dict[str, str] = {}
    pending = [(PROJECT["name"], frozenset(extras))]
    while pending:
        name, wanted = pending.pop()
        distribution = metadata.distribution(name)
        for line in distribution.requires or []:
            requirement = Requirement(line)
            environments = [{"extra": extra} for extra in wanted] or [{"extra": ""}]
            if requirement.marker and not any(requirement.marker.evaluate(env) for env in environments):
                continue
            key = canonicalize_name(requirement.name)
            if key == canonicalize_name(PROJECT["name"]):
                pending.append((PROJECT["name"], frozenset(requirement.extras)))
            elif key not in found:
                try:  # an install without some extra (no torch, say) lacks its distributions
                    found[key] = metadata.version(requirement.name)
                except metadata.PackageNotFoundError:
                    continue
                pending.append((requirement.name, frozenset(requirement.extras)))
    return found


def test_every_pin_in_pyproject_is_exact_and_matches_the_constraints():
    pins = read_constraints()
    requirements = project_requirements()
    assert len(requirements) >= 20
    for requirement in requirements:
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"{requirement} is not an exact pin"
        assert pins.get(canonicalize_name(requirement.name)) == specifier.version, (
            f"{requirement} in pyproject.toml, {pins.get(canonicalize_name(requirement.name))} "
            "in constraints.txt: run `make constraints`")


def test_everything_this_install_pulled_in_is_pinned_at_the_installed_version():
    pins = read_constraints()
    closure = compute_installed_closure(set(PROJECT["optional-dependencies"]))
    # Dependencies of dependencies are what the file exists for; make sure some were followed.
    direct = {canonicalize_name(requirement.name) for requirement in project_requirements()}
    assert {"jinja2", "markupsafe", "itsdangerous", "mdurl"} <= set(closure) - direct
    # Nothing else: `make constraints` writes the whole venv, so an ad-hoc install would slip in.
    # pip is pinned for `make`'s own upgrade of it; nothing requires it.
    assert set(pins) - set(closure) == {"pip"}, set(pins) - set(closure)
    for name, installed in closure.items():
        assert name in pins, f"{name} {installed} is installed but not in constraints.txt"
        # A local build label (torch's "+cpu") is what the machine's wheel carries, not the pin.
        assert Version(installed).public == pins[name], (name, installed, pins[name])
