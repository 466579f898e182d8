"""Search text: a query read as words and their stems, and a card's text as search reads it."""

from __future__ import annotations

import re
from collections.abc import Mapping

# Words a question is phrased with that say nothing about its subject ("view vs reshape",
# "stride of a transpose"): dropped, unless the query is nothing else.
STOP_WORDS = frozenset("""a an and are as at be by can do does for from how i in into is it its
                          of on or than that the this to vs versus what when where which why with
                          without""".split())
MAX_WORDS = 12
WORD = re.compile(r"[^\W_]+")  # letters and digits: "_", "-", "." and spaces all separate words


def compute_search_words(text: str) -> list[str]:
    """The words a query asks for, lowercased, without stop words (all of them if that would
    leave none); ``channels_last``, ``channels-last`` and ``channels last`` are the same two."""
    words = list(dict.fromkeys(WORD.findall(text.lower())))[:MAX_WORDS]
    return [word for word in words if word not in STOP_WORDS] or words


SUFFIXES = ("ing", "es", "ed", "e", "s")  # "transpose" finds "transposing", "strides" "stride"
STEM_MIN = 4


def compute_search_text(fields: Mapping) -> str:
    """A card's stored columns (bank_import.compute_card_fields) as the text search reads: lower
    case, "_" and "-" as spaces, one part a line. Migration 2d9c7f4b6e81 holds a copy."""
    parts = [fields["title"], fields["question"], fields["basics"], fields["solid"],
             fields["code"]]
    parts += [text for pair in fields["go_deeper"]  # [level, text]: the text only
              for text in _strings(pair[1:] if isinstance(pair, list) else pair)]
    parts += _strings(fields["follow_ups"]) + _strings(fields["red_flags"])
    return "\n".join(str(part) for part in parts).lower().replace("_", " ").replace("-", " ")


def _strings(value: object) -> list[str]:
    """Every string in a JSON value (follow-ups are dicts, go-deeper pairs lists)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in _strings(item)] if isinstance(value, list) else []


def compute_stem(word: str) -> str:
    """``word`` without one common English ending, where at least STEM_MIN letters stay: what
    is looked for inside the card's text, so a word's other forms match too."""
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= STEM_MIN:
            return word[: -len(suffix)]
    return word
