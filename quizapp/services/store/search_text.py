"""Search text: a query read as terms of whole words, and a card's text as search reads it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# Words a question is phrased with that say nothing about its subject ("view vs reshape",
# "stride of a transpose"): dropped, unless the query is nothing else. Inside a name written as
# one ("as_strided", "is_contiguous") they are kept: the name is one term.
STOP_WORDS = frozenset("""a an and are as at be by can do does for from how i in into is it its
                          of on or than that the this to vs versus what when where which why with
                          without""".split())
MAX_TERMS = 12
MAX_TERM_WORDS = 6  # a name of more words is cut there ("a_b_c_..." is no name anyone types)
WORD = re.compile(r"[^\W_]+")  # letters and digits: "_", "-", "." and spaces all separate words
APOSTROPHES = str.maketrans("", "", "'’")  # "can't" is one word, not "can" and "t"
SUFFIXES = (("ies", "y"), ("ing", ""), ("es", ""), ("ed", ""), ("e", ""), ("s", ""))
STEM_MIN = 3
SHORT_WORD = 2  # a word this short is matched whole: "t" in t(), "mm"


def compute_words(text: str) -> list[str]:
    return WORD.findall(text.lower().translate(APOSTROPHES))


def compute_spaced_text(text: str) -> str:
    """``text`` as its words between single spaces, one at each end too, so a LIKE pattern
    starting with a space matches only at the start of a word."""
    return f" {' '.join(compute_words(text))} "


def compute_search_terms(query: str) -> list[tuple[str, ...]]:
    """The terms a query asks for: each whitespace-separated token is one term of its words, so
    ``as_strided``, ``torch.cat`` and ``channels-last`` are matched as the words they are,
    together; small words standing alone are left out (all kept if nothing else is asked)."""
    terms: list[tuple[str, ...]] = []
    for token in query.split():
        words = tuple(compute_words(token)[:MAX_TERM_WORDS])
        if words and words not in terms:
            terms.append(words)
    asked = [term for term in terms if len(term) > 1 or term[0] not in STOP_WORDS]
    return (asked or terms)[:MAX_TERMS]


def compute_stem(word: str) -> str:
    """``word`` without one common English ending where at least STEM_MIN letters stay, so that
    its other forms match too ("copies" and "copy" both "cop", "transposing" "transpos")."""
    stem = word
    for suffix, replacement in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) + len(replacement) >= STEM_MIN:
            stem = word[: -len(suffix)] + replacement
            break
    # "copy", "copies" and "copying" meet at "cop": a final y goes too.
    return stem[:-1] if stem.endswith("y") and len(stem) > STEM_MIN else stem


def compute_term_pattern(term: tuple[str, ...]) -> str:
    """The LIKE pattern of ``term`` in a spaced text: its words whole and in order, the last one
    the start of a word (its stem), or whole where it is as short as "t" or "mm"."""
    *head, last = term
    tail = f"{last} " if len(last) <= SHORT_WORD else compute_stem(last)
    return f"% {' '.join([*head, tail])}%"


def compute_search_text(fields: Mapping, concepts: Sequence[str]) -> str:
    """A card's stored columns (bank_import.compute_card_fields) and its concept tags as search
    reads them, spaced (compute_spaced_text). Migration 2d9c7f4b6e81 holds a copy."""
    parts = [fields["title"], fields["question"], fields["basics"], fields["solid"],
             fields["code"], *sorted(set(concepts))]
    parts += [text for pair in fields["go_deeper"]  # [level, text]: the text only
              for text in _strings(pair[1:] if isinstance(pair, list) else pair)]
    parts += _strings(fields["follow_ups"]) + _strings(fields["red_flags"])
    return compute_spaced_text("\n".join(str(part) for part in parts))


def _strings(value: object) -> list[str]:
    """Every string in a JSON value (follow-ups are dicts, go-deeper pairs lists)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in _strings(item)] if isinstance(value, list) else []
