"""The puzzle-code lexer yields exactly PythonLexer's tokens (Pygments is the oracle)."""

from __future__ import annotations

import random

import pytest
from pygments.lexers import PythonLexer

from quizapp import puzzles
from quizapp.content import load_cards
from quizapp.markup.code_lexer import compute_code_tokens, lex_plain_subset
from quizapp.markup.markdown import HIGHLIGHT_CLASS, render_markdown, render_python

SEEDS = range(40)


def python_tokens(code: str) -> list:
    return list(PythonLexer().get_tokens(code))


def puzzle_codes() -> list[str]:
    codes = []
    for family in puzzles.families():
        for level in family["levels"]:
            for seed in SEEDS:
                code = puzzles.generate(family["id"], level, seed).get("code")
                if code:
                    codes.append(code)
    return codes


def test_every_generated_snippet_takes_the_small_lexer_and_matches_python_lexer():
    codes = puzzle_codes()
    assert len(codes) > 1000
    for code in codes:
        tokens = lex_plain_subset(code)
        assert tokens is not None, code  # the fast path covers what puzzles generate
        assert tokens == python_tokens(code), code


# Pieces of Python inside and outside the subset: the result must match PythonLexer either way.
PIECES = [
    "x", "y2", "_t", "torch", "zeros", "None", "True", "False", "Nonex", "print", "len", "float",
    "self", "cls", "__name__", "lambda", "in", "not", "match", "0", "7", "12", "1.5", "1e3",
    "0x1F", "1_000", "3j", "=", "==", "-", "->", ".", "...", "*", "**", "//", "(", ")", "[", "]",
    ",", ":", ":=", "-=", "'s'", '"d"', "# note", " ", "  ", "\t", "\n", "é", "@", "+=", "<",
    "!=",
]
# Only the subset's own pieces: the small lexer takes most of these, so its typing is tested.
SUBSET_PIECES = ["x", "y", "torch", "_a1", "None", "True", "False", "0", "12", "=", "-", ".",
                 "(", ")", "[", "]", ",", ":", " ", "\n"]


@pytest.mark.parametrize("pieces", [PIECES, SUBSET_PIECES], ids=["python", "subset"])
@pytest.mark.parametrize("seed", range(8))
def test_random_snippets_match_python_lexer_whether_or_not_the_small_lexer_takes_them(
        seed, pieces):
    rng = random.Random(seed)
    covered = 0
    for _ in range(300):
        code = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 16)))
        covered += lex_plain_subset(code) is not None
        assert compute_code_tokens(code) == python_tokens(code), repr(code)
    assert 0 < covered < 300  # both paths were exercised


def test_card_samples_match_python_lexer():
    cards = load_cards("content")
    assert cards
    for card in cards:
        assert compute_code_tokens(card.code) == python_tokens(card.code), card.id


def test_rendered_puzzle_code_and_python_fences_are_highlighted():
    html = render_python("y = x.permute(2, 0, 1)[:, 1:]\n")
    assert html.startswith(f'<pre class="{HIGHLIGHT_CLASS}"><code>')
    assert '<span class="n">permute</span>' in html and '<span class="mi">2</span>' in html
    fenced = render_markdown("```python\nprint(len(x))\n```\n")
    assert '<span class="nb">print</span>' in fenced  # a builtin, via PythonLexer
