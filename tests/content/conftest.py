"""Fixtures for the question-bank tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_fixtures import CONCEPTS_YAML, write_bank


@pytest.fixture
def bank(tmp_path: Path):
    """Build a content folder in a temporary directory: ``bank({"x.md": text})``."""

    def build(cards: dict[str, str], concepts: str = CONCEPTS_YAML) -> Path:
        return write_bank(tmp_path / "content", cards, concepts)

    return build
