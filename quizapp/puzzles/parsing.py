"""Tolerant, bounded parsing of typed answers: tuples, integers, yes/no, choices, nested lists."""

from __future__ import annotations

import re
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
YES = frozenset({"yes", "y", "true", "t"})
NO = frozenset({"no", "n", "false", "f"})
NONE_WORDS = frozenset({"none", "nothing", "no option", "none of them"})


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


def parse_int_list(text: str) -> list[int]:
    """``(4, 12, 1)``, ``[4,12,1]``, ``4 12 1``, ``4,12,1``, ``torch.Size([2, 3])``, ``()``."""
    expected = "Expected integers such as (4, 12, 1), [4, 12, 1] or 4 12 1."
    body = _unwrap(text.strip(), ("torch.size(", "size("))
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


def _option(token: str, count: int) -> str | None:
    """A letter for an option token: ``b``, ``(B)``, ``b)``, ``2``; None if it is neither."""
    token = token.strip().strip("().:").strip().lower()
    if token.startswith("option "):
        token = token[len("option ") :].strip()
    if len(token) == 1 and token in LETTERS[:count]:
        return token
    if token.isdigit() and len(token) <= 3 and 1 <= int(token) <= count:
        return LETTERS[int(token) - 1]
    return None


def _range_text(count: int) -> str:
    return f"a letter a-{LETTERS[count - 1]} or a number 1-{count}"


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


def parse_choice(text: str, choices: Sequence[str]) -> str:
    letter = _option(text, len(choices))
    if letter is not None:
        return letter
    typed = _squash(text)
    for i, choice in enumerate(choices):
        if typed and typed == _squash(choice):
            return LETTERS[i]
    raise ParseError(f"Pick one option: {_range_text(len(choices))}.")


def parse_choices(text: str, count: int) -> list[str]:
    body = text.strip().lower().strip(".")
    if body in NONE_WORDS:
        return []
    picked = set()
    for token in _CHOICE_SEPARATORS.split(body):
        if not token.strip("()."):
            continue
        letter = _option(token, count)
        if letter is None:
            raise ParseError(
                f"Could not read {_shown(token)} as an option. List the options that apply, "
                f"each as {_range_text(count)}, e.g. 'a, c' (or 'none')."
            )
        picked.add(letter)
    if not picked:
        raise ParseError(f"List the options that apply, each as {_range_text(count)}.")
    return sorted(picked)


def parse_nested_list(text: str) -> str:
    """Nested lists of integers (``tensor([[0, 3], [1, 4]])`` too) in Python's printed form."""
    expected = "Expected a nested list of integers such as [[0, 3], [1, 4]]."
    body = _unwrap(text.strip(), ("tensor(",))
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
    if not text.strip():
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
        return parse_choices(text, len(choices or ()))
    if kind == "text":
        return parse_nested_list(text)
    raise ValueError(f"unknown answer kind {kind!r}")
