"""Tolerant, bounded parsing of typed answers: tuples, integers, yes/no, choices, nested lists."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from quizapp.puzzles.rendering import LETTERS

MAX_RESPONSE_CHARS = 500
MAX_ITEMS = 64
MAX_DEPTH = 16

_INT = re.compile(r"[+-]?\d{1,19}")
_GROUPED_INT = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+")
_UNIT = re.compile(r"\s*(?:bytes?|b|elements?)\.?$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")
_CHOICE_SEPARATORS = re.compile(r"[\s,;/&+]+|\band\b")
_DTYPE_TAIL = re.compile(r",\s*dtype\s*=\s*torch\.\w+\s*$")
_LABELLED = re.compile(r"\(?(?:option\s+)?([a-z])\s*[).:]\s*(\S.*)", re.IGNORECASE | re.DOTALL)
# Characters NFKC leaves alone that people type for ASCII ones: the minus sign, CJK commas.
_LOOKALIKES = str.maketrans({"\u2212": "-", "\u3001": ",", "\uff64": ","})
_QUOTE_PAIRS = {"'": "'", '"': '"', "`": "`", "\u2018": "\u2019", "\u201c": "\u201d"}
YES = frozenset({"yes", "y", "true", "t"})
NO = frozenset({"no", "n", "false", "f"})
NONE_WORDS = frozenset({"none", "nothing", "no option", "no options", "none of them",
                        "none of these", "none of the above", "none of the options", "none apply"})


class ParseError(ValueError):
    """The response could not be read; the message says what form is expected."""


def _unwrap(text: str, prefixes: Sequence[str]) -> str:
    """Drop one ``prefix(...)`` wrapper such as ``torch.Size(`` or ``tensor(``."""
    lower = text.lower()
    for prefix in prefixes:
        if lower.startswith(prefix) and text.endswith(")"):
            return text[len(prefix) : -1].strip()
    return text


def _shown(token: str) -> str:
    return repr(token if len(token) <= 20 else token[:20] + "...")


def canonicalize_response(text: str) -> str:
    """The typed text with full-width forms, superscripts and odd spaces as their ASCII selves
    (NFKC), the minus sign and CJK commas as ``-`` and ``,``, and one pair of quotes or
    backticks around the whole answer dropped (as pasted from the prompt's Markdown)."""
    text = unicodedata.normalize("NFKC", text).translate(_LOOKALIKES).strip()
    if len(text) >= 2 and _QUOTE_PAIRS.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    return text


def parse_int_list(text: str) -> list[int]:
    """``(4, 12, 1)``, ``[4,12,1]``, ``4 12 1``, ``4,12,1``, ``torch.Size([2, 3])``, ``()``;
    a full stop or comma after the whole answer is punctuation, not part of it."""
    expected = "Expected integers such as (4, 12, 1), [4, 12, 1] or 4 12 1."
    body = _unwrap(text.strip().rstrip(".,").strip(), ("torch.size(", "size("))
    had_brackets = any(c in body for c in "()[]")
    body = body.strip().strip("()[]").strip().strip(",").strip()
    if not body:
        if had_brackets:
            return []
        raise ParseError(expected)
    tokens = _SEPARATORS.split(body)
    if len(tokens) > MAX_ITEMS:
        raise ParseError(f"That is more than {MAX_ITEMS} numbers. {expected}")
    out = []
    for token in tokens:
        if not _INT.fullmatch(token):
            raise ParseError(f"Could not read {_shown(token)} as an integer. {expected}")
        out.append(int(token))
    return out


def parse_int(text: str) -> int:
    """``7``, ``-3``, ``1,024``, ``96 bytes``, ``tensor(7)``."""
    body = _UNIT.sub("", _unwrap(text.strip(), ("tensor(",))).strip().rstrip(".")
    if _INT.fullmatch(body):
        return int(body)
    if _GROUPED_INT.fullmatch(body):
        return int(body.replace(",", ""))
    raise ParseError("Expected one integer, such as 12.")


def parse_bool(text: str) -> bool:
    word = text.strip().strip(".!").strip().lower()
    if word in YES:
        return True
    if word in NO:
        return False
    raise ParseError("Expected yes or no (true/false and y/n work too).")


def _option(token: str, count: int, positions: bool) -> str | None:
    """A letter for an option token: ``b``, ``(B)``, ``b)``, ``option b``, and ``2`` when
    ``positions`` allows numbers as places in the list; None if it is neither."""
    token = token.strip().strip("().:").strip().lower()
    if token.startswith("option "):
        token = token[len("option ") :].strip()
    if len(token) == 1 and token in LETTERS[:count]:
        return token
    # isdecimal, not isdigit: "²" is a digit that int() refuses.
    if positions and token.isdecimal() and len(token) <= 3 and 1 <= int(token) <= count:
        return LETTERS[int(token) - 1]
    return None


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


def compute_option_reading(text: str) -> tuple[int, ...] | str:
    """What an option (or a typed one) says: its integers when it reads as a number or a tuple,
    so ``4 1 2`` is the option ``(4, 1, 2)``; else its text without spaces or case."""
    try:
        return tuple(parse_int_list(text))
    except ParseError:
        return _squash(text)


def _allows_positions(readings: Sequence[tuple[int, ...] | str]) -> bool:
    """Numbers name options by place unless an option is itself a number: then "2" is the
    option reading 2, never the second one (the page shows options by letter only)."""
    return not any(isinstance(reading, tuple) and len(reading) == 1 for reading in readings)


def _range_text(count: int) -> str:
    return f"A-{LETTERS[count - 1].upper()}"


def parse_choice(text: str, choices: Sequence[str]) -> str:
    """One option: its letter, or the option as written (``4 1 2`` for ``(4, 1, 2)``), or
    ``b) (4, 1, 2)`` where letter and option agree; a number is a place only where no option
    is a number."""
    readings = [compute_option_reading(choice) for choice in choices]
    letter = _option(text, len(choices), _allows_positions(readings))
    if letter is not None:
        return letter
    typed = compute_option_reading(text)
    same = [LETTERS[i] for i, reading in enumerate(readings) if typed and reading == typed]
    if len(same) == 1:
        return same[0]
    labelled = _LABELLED.fullmatch(text.strip())
    if labelled and (label := _option(labelled[1], len(choices), False)) is not None:
        if readings[LETTERS.index(label)] == compute_option_reading(labelled[2]):
            return label
        raise ParseError(f"{label.upper()} is {choices[LETTERS.index(label)]}, not "
                         f"{_shown(labelled[2].strip())}: type one option, by its letter.")
    raise ParseError(f"Pick one option: its letter ({_range_text(len(choices))}) or the option "
                     "as written.")


def parse_choices(text: str, choices: Sequence[str]) -> list[str]:
    """The options that apply, by letter (or place, where no option is a number), or none."""
    body = text.strip().lower().strip(".")
    if body in NONE_WORDS:
        return []
    count = len(choices)
    positions = _allows_positions([compute_option_reading(choice) for choice in choices])
    picked = set()
    for token in _CHOICE_SEPARATORS.split(body):
        if not token.strip("()."):
            continue
        letter = _option(token, count, positions)
        if letter is None:
            raise ParseError(
                f"Could not read {_shown(token)} as an option. List the letters of the options "
                f"that apply ({_range_text(count)}), e.g. 'a, c' (or 'none')."
            )
        picked.add(letter)
    if not picked:
        raise ParseError(f"List the letters of the options that apply ({_range_text(count)}).")
    return sorted(picked)


def parse_nested_list(text: str) -> str:
    """Nested lists of integers (``tensor([[0, 3], [1, 4]])`` too) in Python's printed form."""
    expected = "Expected a nested list of integers such as [[0, 3], [1, 4]]."
    body = _DTYPE_TAIL.sub("", _unwrap(text.strip(), ("tensor(",)))
    if not any(bracket in body for bracket in "[()]"):
        body = f"[{body}]"  # numbers typed without brackets: one list of them
    tokens = re.findall(r"[\[\]()]|[+-]?\d+|,|\S", body)
    pos = 0

    def value(depth: int) -> object:
        nonlocal pos
        if pos >= len(tokens):
            raise ParseError(expected)
        token = tokens[pos]
        if token in "[(":
            if depth >= MAX_DEPTH:
                raise ParseError(f"Lists nested more than {MAX_DEPTH} deep are not accepted.")
            pos += 1
            items: list[object] = []
            while pos < len(tokens) and tokens[pos] not in "])":
                items.append(value(depth + 1))
                if pos < len(tokens) and tokens[pos] == ",":
                    pos += 1
            if pos >= len(tokens):
                raise ParseError(f"A bracket is not closed. {expected}")
            pos += 1
            return items
        if _INT.fullmatch(token):
            pos += 1
            return int(token)
        raise ParseError(f"Could not read {_shown(token)}. {expected}")

    parsed = value(0)
    if pos != len(tokens):
        raise ParseError(f"Unexpected text after the list. {expected}")
    return str(parsed)


def parse_response(kind: str, text: str, choices: Sequence[str] | None) -> object:
    """The response in the puzzle's answer form, or ParseError."""
    if len(text) > MAX_RESPONSE_CHARS:
        raise ParseError(f"Answers are at most {MAX_RESPONSE_CHARS} characters long.")
    text = canonicalize_response(text)
    if not text:
        raise ParseError("The answer is empty.")
    if kind == "tuple":
        return parse_int_list(text)
    if kind == "int":
        return parse_int(text)
    if kind == "bool":
        return parse_bool(text)
    if kind == "choice":
        return parse_choice(text, choices or ())
    if kind == "choices":
        return parse_choices(text, choices or ())
    if kind == "text":
        return parse_nested_list(text)
    raise ValueError(f"unknown answer kind {kind!r}")
