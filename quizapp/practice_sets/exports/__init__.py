"""A practice set as a file: JSON, CSV (Anki and other flashcard tools), Markdown, Anki .apkg."""

from __future__ import annotations

from dataclasses import dataclass

from quizapp.practice_sets.exports.anki import (
    DECK_NAME_ROOT,
    MODEL_ID,
    MODEL_NAME,
    compute_deck_id,
    compute_guid,
    export_apkg,
)
from quizapp.practice_sets.exports.as_csv import export_csv
from quizapp.practice_sets.exports.as_json import export_json
from quizapp.practice_sets.exports.as_markdown import export_markdown
from quizapp.practice_sets.exports.text import compute_set_title


@dataclass(frozen=True, slots=True)
class Format:
    """How a format is served: its file name extension and media type."""

    name: str
    extension: str
    media_type: str


FORMATS = {
    "json": Format("json", "json", "application/json"),
    "csv": Format("csv", "csv", "text/csv; charset=utf-8"),
    "md": Format("md", "md", "text/markdown; charset=utf-8"),
    "apkg": Format("apkg", "apkg", "application/apkg"),
}

__all__ = ["DECK_NAME_ROOT", "FORMATS", "MODEL_ID", "MODEL_NAME", "Format", "compute_deck_id",
           "compute_guid", "compute_set_title", "export_apkg", "export_csv", "export_json",
           "export_markdown"]
