"""Typed answers as people write them: options that are numbers, look-alike characters, pasted
forms, and generated odd text that must get an answer or a message, never an exception."""

from __future__ import annotations

import random
import sys

import pytest
from puzzles_support import PAIRS, built

from quizapp.puzzles import check
from quizapp.puzzles.parsing import ParseError, parse_response

NUMBER_OPTION_PAIRS = [("storage_index", "junior"), ("storage_offset", "senior")]


@pytest.mark.parametrize(("family", "level"), NUMBER_OPTION_PAIRS)
def test_a_number_typed_where_options_are_numbers_is_a_value(family: str, level: str) -> None:
    """Options "A. 4  B. 1  C. 2": typing 1 picks B (its value), never A (place 1)."""
    places_met = 0
    for seed in range(300):
        puzzle, _ = built(family, level, seed)
        options = puzzle["choices"]
        assert all(option.isdecimal() for option in options), puzzle["id"]
        for letter, option in zip("abcd", options, strict=False):
            result = check(puzzle, option)
            assert result["normalized"] == letter, (puzzle["id"], option, result)
            assert result["correct"] == (letter == puzzle["answer"])
        for place in range(1, len(options) + 1):
            if str(place) not in options:
                places_met += 1
                result = check(puzzle, str(place))
                assert result["error"] and "its letter" in result["error"], (puzzle["id"], place)
    assert places_met > 100  # the case the old reading got wrong does come up


def test_an_option_typed_in_another_form_or_after_its_letter() -> None:
    puzzle, _ = built("strides_after", "middle", 0)
    right = "abcd".index(puzzle["answer"])
    wrong = (right + 1) % len(puzzle["choices"])
    option, other = puzzle["choices"][right], puzzle["choices"][wrong]
    assert option.startswith("(")
    numbers = [int(n) for n in option.strip("()").split(",") if n.strip()]
    for typed in (" ".join(map(str, numbers)), str(numbers), f"torch.Size({numbers})",
                  f"{puzzle['answer'].upper()}) {option}", f"({puzzle['answer']}) {option}"):
        assert check(puzzle, typed)["correct"], typed
    wrong_letter = "abcd"[wrong].upper()
    mixed = check(puzzle, f"{wrong_letter}. {option}")
    assert mixed["error"] == (f"{wrong_letter} is {other}, not {option!r}: type one option, "
                              "by its letter.")


@pytest.mark.parametrize(
    ("kind", "typed", "expected"),
    [
        ("tuple", "（４，１）", [4, 1]),  # full-width, as an IME types
        ("tuple", "(4、1)", [4, 1]),
        ("tuple", "(4, 1).", [4, 1]),
        ("tuple", "`(4, 1)`", [4, 1]),  # pasted from the prompt's Markdown
        ("tuple", "“4, 1”", [4, 1]),
        ("int", "−3", -3),  # the minus sign
        ("int", "'10'", 10),
        ("bool", "`True`", True),
        ("text", "4, 5, 6, 7", "[4, 5, 6, 7]"),
        ("text", "tensor([[0, 2], [1, 3]], dtype=torch.int64)", "[[0, 2], [1, 3]]"),
        ("choice", "Ｂ", "b"),
        ("choice", "²", "b"),  # NFKC reads a superscript 2 as 2: the second option
    ],
)
def test_look_alike_and_pasted_forms(kind: str, typed: str, expected: object) -> None:
    choices = ["x.t()", "x.view(6)", "x.flatten()"] if kind == "choice" else None
    assert parse_response(kind, typed, choices) == expected


def _odd_characters() -> list[str]:
    """Every character Python calls a digit or numeric (superscripts, circled numbers, other
    scripts' digits: the ones int() refuses among them), and punctuation people type."""
    numeric = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isnumeric()]
    return numeric + list("()[],.;:/&+-−'\"`abcdABCD \u00a0\u200b\u202e\n\t（），、")


@pytest.mark.parametrize(("family", "level"), PAIRS[::3] + NUMBER_OPTION_PAIRS)
def test_generated_odd_answers_get_a_verdict_or_a_message(family: str, level: str) -> None:
    puzzle, _ = built(family, level, 1)
    pool, rng = _odd_characters(), random.Random(f"{family}/{level}")
    for _ in range(1500):
        typed = "".join(rng.choice(pool) for _ in range(rng.randint(1, 12)))
        result = check(puzzle, typed)  # must not raise
        assert (result["error"] is None) != (result["normalized"] is None), (typed, result)
        if result["error"]:
            assert result["error"].endswith((".", ")", "'")) and len(result["error"]) < 200


def test_a_letter_and_option_that_disagree_are_not_guessed_between() -> None:
    with pytest.raises(ParseError, match="type one option"):
        parse_response("choice", "a) x.view(6)", ["x.t()", "x.view(6)"])
