"""How long the bank's bounded text fields may be: the content check and the database columns share these."""

from __future__ import annotations

# quizapp/models/bank.py builds its String(...) columns from these. PostgreSQL refuses a longer
# value where SQLite stores it, so the content check reports one before anything is loaded.
KEY_MAX = 120  # a card id (Item.key; a skill's key is "family/level")
TAG_MAX = 80  # a concept tag, and a puzzle family's id
TITLE_MAX = 300  # Item.title
SOURCE_PATH_MAX = 300  # Card.source_path, the card file's path inside the bank
