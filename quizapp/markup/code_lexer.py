"""A Pygments lexer for the small Python subset puzzle code is written in, with a safe fallback.

Every fresh puzzle shows a new snippet such as ``y = x.permute(2, 0, 1)[:, 1:]``, and Pygments'
PythonLexer tries about forty patterns per token to highlight it, which made highlighting the
costliest part of a puzzle page. Generated snippets use only names, integers, ``None``/``True``/
``False``, ``= . -`` and brackets; for those this lexer yields exactly PythonLexer's tokens
(tests/web/test_web_code_lexer.py compares the two on every puzzle family), with seven rules.
Anything else, such as a keyword, a builtin or any other character, goes to PythonLexer itself.
"""

from __future__ import annotations

import builtins
import keyword

from pygments.lexer import RegexLexer
from pygments.lexers import PythonLexer
from pygments.token import Error, Keyword, Name, Number, Operator, Punctuation, Text, _TokenType

# Names PythonLexer does not call plain Name: keywords, builtins (Name.Builtin), self/cls
# (Name.Builtin.Pseudo) and dunder names (Name.Variable.Magic, Name.Function.Magic).
_SPECIAL_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(
    dir(builtins)) | {"self", "cls"}


class PuzzleCodeLexer(RegexLexer):
    """Tokens of the generated-code subset, typed as PythonLexer types them."""

    name = "quizapp puzzle code"
    aliases: list[str] = []
    filenames: list[str] = []
    tokens = {
        "root": [
            (r"\n", Text.Whitespace),
            (r" +", Text),
            (r"(None|True|False)\b", Keyword.Constant),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"[0-9]+(?![0-9A-Za-z_.])", Number.Integer),
            (r"[=\-]|\.(?![0-9])", Operator),  # ".5" is a float to PythonLexer
            (r"[()\[\],:]", Punctuation),
        ],
    }


_FAST = PuzzleCodeLexer()


def is_plain_name(value: str) -> bool:
    return value not in _SPECIAL_NAMES and not value.startswith("__")


def lex_plain_subset(code: str) -> list[tuple[_TokenType, str]] | None:
    """The small lexer's tokens, or None when ``code`` leaves the subset it types exactly."""
    if "==" in code or ":=" in code:  # one operator each in Python, two tokens here
        return None
    tokens = list(_FAST.get_tokens(code))
    for token_type, value in tokens:
        if token_type is Error or (token_type is Name and not is_plain_name(value)):
            return None
    return tokens


def compute_code_tokens(code: str) -> list[tuple[_TokenType, str]]:
    """PythonLexer's tokens for ``code``: from the small lexer when it covers the code."""
    tokens = lex_plain_subset(code)
    return tokens if tokens is not None else list(PythonLexer().get_tokens(code))
