"""The Makefile's .venv handling: one made by another Python is made again, but not by make -n."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The Makefile beside a .venv whose python is not 3.11 (it fails the Makefile's check)."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\nexit 1\n")  # "sys.version_info[:2] != (3, 11)"
    python.chmod(0o755)
    (tmp_path / ".venv" / ".installed-stamp").touch()
    return tmp_path


def make(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", *args, f"PYTHON={sys.executable}"], cwd=checkout,
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_dry_run_says_the_venv_would_be_made_again_and_leaves_it(checkout):
    for flags in (["-n"], ["-n", "-k"], ["--dry-run"]):
        result = make(checkout, *flags, "run", "PORT=8080")
        assert "a real run would make it again" in result.stdout, (flags, result.stdout)
        assert (checkout / ".venv" / ".installed-stamp").exists(), flags


def test_a_real_run_makes_the_venv_again_with_python_3_11(checkout):
    if sys.version_info[:2] != (3, 11):
        pytest.skip("the Makefile accepts only Python 3.11")
    result = make(checkout, "venv")
    assert result.returncode == 0, result.stderr
    assert "making it again" in result.stdout
    assert not (checkout / ".venv" / ".installed-stamp").exists()  # the stamps went with it
    version = subprocess.run([checkout / ".venv" / "bin" / "python", "-c",
                              "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True, check=True).stdout
    assert version.strip() == "(3, 11)"
