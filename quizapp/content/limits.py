"""The bank's bounded text fields: their limits (shared with the database columns) and check."""

from __future__ import annotations

import re

# quizapp/models/bank.py builds its String(...) columns from these. PostgreSQL refuses a longer
# value where SQLite stores it, so the content check reports one before anything is loaded.
KEY_MAX = 120  # a card id (Item.key; a skill's key is "family/level")
TAG_MAX = 80  # a concept tag, and a puzzle family's id
TITLE_MAX = 300  # Item.title
SOURCE_PATH_MAX = 300  # Card.source_path, the card file's path inside the bank
# Characters no database text column takes: NUL (PostgreSQL) and lone surrogates (not UTF-8);
# YAML escapes such as "\0" or "\ud800" can produce them.
_UNSTORABLE_RE = re.compile("[\x00\ud800-\udfff]")

Problems = list[tuple[int, str]]  # (line, message)


def validate_column_text(value: str, what: str, limit: int | None, line: int) -> Problems:
    """``value`` as its database column can hold it: storable characters, at most ``limit``."""
    problems: Problems = []
    unstorable = _UNSTORABLE_RE.search(value)
    if unstorable:
        problems.append((line, f"{what} holds {unstorable.group()!r}, a character the database "
                               "cannot store"))
    if limit is not None and len(value) > limit:
        problems.append((line, f"{what} is {len(value)} characters long, more than the {limit} "
                               "its database column holds"))
    return problems
