"""A practice set as a file: JSON, CSV (Anki and other flashcard tools), Markdown, Anki .apkg."""

from __future__ import annotations

from collections.abc import Sequence
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
from quizapp.practice_sets.items import SetItem
from quizapp.practice_sets.params import SetParams


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



def export_set(format_name: str, params: SetParams, items: Sequence[SetItem], *, now: float,
               deck_key: str | None = None) -> bytes:
    """The set in the format named (a key of FORMATS; KeyError for another). ``now`` and
    ``deck_key`` matter to the Anki package only (see export_apkg)."""
    if format_name == "apkg":
        return export_apkg(params, items, now=now, deck_key=deck_key)
    return TEXT_EXPORTS[format_name](params, items)


TEXT_EXPORTS = {"json": export_json, "csv": export_csv, "md": export_markdown}

__all__ = ["DECK_NAME_ROOT", "FORMATS", "TEXT_EXPORTS", "MODEL_ID", "MODEL_NAME", "Format", "compute_deck_id",
           "compute_guid", "compute_set_title", "export_apkg", "export_csv", "export_json",
           "export_markdown", "export_set"]
