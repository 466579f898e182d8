"""The Dockerfile's build steps that can be checked without Docker: base image, dependency layer."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def test_the_base_image_names_its_patch_release_and_debian_release():
    base = re.search(r"^FROM (\S+)", DOCKERFILE, re.M).group(1)
    assert re.fullmatch(r"python:3\.11\.\d+-slim-[a-z]+(@sha256:[0-9a-f]{64})?", base), base


def test_the_dependency_layer_installs_the_runtime_and_postgres_pins_before_the_code():
    command = re.search(r"RUN python -c '([^']+)' > /tmp/requirements.txt", DOCKERFILE).group(1)
    listed = subprocess.run([sys.executable, "-c", command], cwd=ROOT, capture_output=True,
                            text=True, check=True, timeout=30).stdout.split()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    expected = project["dependencies"] + project["optional-dependencies"]["postgres"]
    assert listed == [spec.replace(" ", "") for spec in expected] and "torch==2.13.0" not in listed
    # The code is copied after that layer, so editing it does not reinstall the dependencies.
    assert DOCKERFILE.index("pip install -r /tmp/requirements.txt") < DOCKERFILE.index(
        "COPY quizapp ./quizapp") < DOCKERFILE.index("pip install --no-deps .")
