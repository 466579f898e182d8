"""The answer a result page shows: typed back, it is judged right; options use the page's letters."""

from __future__ import annotations

import pytest

from quizapp import puzzles
from quizapp.web.rendering.filters import ANSWER_HINTS, format_answer

CASES = [(family["id"], level) for family in puzzles.families() for level in family["levels"]]


@pytest.mark.parametrize(("family", "level"), CASES)
def test_the_shown_answer_typed_back_is_judged_right(family, level):
    for seed in range(12):
        puzzle = puzzles.generate(family, level, seed)
        shown = format_answer(puzzle["answer"], puzzle["answer_kind"])
        assert puzzles.check(puzzle, shown)["correct"], (puzzle["id"], shown)


def test_every_answer_kind_is_shown_and_has_a_hint():
    kinds = {puzzles.generate(family, level, seed)["answer_kind"]
             for family, level in CASES for seed in range(12)}
    assert kinds == set(ANSWER_HINTS)


def test_options_are_shown_with_the_capital_letters_the_page_lists_them_by():
    # study/_choices.html numbers the options with <ol type="A">.
    assert format_answer("b", "choice") == "B"
    assert format_answer(["a", "c"], "choices") == "A, C"
    assert format_answer([], "choices") == "none"


def test_other_kinds_are_shown_the_way_python_writes_them():
    assert format_answer([12, 4, 1], "tuple") == "(12, 4, 1)"
    assert format_answer([5], "tuple") == "(5,)"
    assert format_answer([], "tuple") == "()"
    assert format_answer(True, "bool") == "yes" and format_answer(False, "bool") == "no"
    assert format_answer(7, "int") == "7"
    assert format_answer("[[0, 3], [1, 4]]", "text") == "[[0, 3], [1, 4]]"


def test_no_hint_beside_the_answer_box_is_the_answer_itself():
    # The hint shows the format to type; an example that is the puzzle's own answer (a fresh
    # (n, 3, 4) tensor's strides are (12, 4, 1)) reads as a give-away or a trick.
    for family, level in CASES:
        for seed in range(100):
            puzzle = puzzles.deal(family, level, seed)
            if puzzle.answer_kind == "bool":
                continue  # "yes or no" names both answers, so it tells neither
            shown = format_answer(puzzle.answer, puzzle.answer_kind)
            assert shown not in ANSWER_HINTS[puzzle.answer_kind], (puzzle.id, shown)
