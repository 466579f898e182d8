"""Markdown pieces for text that may hold backticks: code spans and fenced blocks."""

from __future__ import annotations

import string

# A puzzle's options are lettered as its pages show them (puzzles.compute_pick_options).
CHOICE_LETTERS = string.ascii_uppercase


def code_span(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fence(code: str, language: str = "") -> str:
    """``code`` as a fenced block whose fence no line of it can close."""
    ticks = "```"
    while ticks in code:
        ticks += "`"
    return f"{ticks}{language}\n{code.rstrip()}\n{ticks}"
