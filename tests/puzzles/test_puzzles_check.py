"""check(): tolerant parsing, correct answers in every typed form, every distractor judged wrong."""

from __future__ import annotations

import pytest
from puzzles_support import PAIR_IDS, PAIRS, SEEDS, built, typed_forms

from quizapp.puzzles import check, generate
from quizapp.puzzles.checking import CORRECT, FALLBACK, describe_nested, describe_tuple
from quizapp.puzzles.parsing import (
    MAX_RESPONSE_CHARS,
    ParseError,
    parse_choices,
    parse_int,
    parse_int_list,
    parse_nested_list,
)

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize(("family", "level"), PAIRS, ids=PAIR_IDS)
def test_answers_right_and_distractors_wrong(family: str, level: str) -> None:
    for seed in SEEDS:
        puzzle, table = built(family, level, seed)
        for form in typed_forms(puzzle):
            result = check(puzzle, form)
            assert result["error"] is None, (puzzle["id"], form, result)
            assert result["correct"] and result["feedback"] == CORRECT, (puzzle["id"], form)
            assert result["normalized"] == puzzle["answer"]
        kind, answer = puzzle["answer_kind"], puzzle["answer"]
        if kind == "choice":
            assert len(table.notes) == len(puzzle["choices"])
            for i, letter in enumerate(LETTERS[: len(puzzle["choices"])]):
                if letter != answer:
                    result = check(puzzle, letter)
                    assert not result["correct"] and result["feedback"] == table.notes[i]
                    assert table.notes[i] and table.notes[i] != CORRECT
        elif kind == "choices":
            for letter in LETTERS[: len(puzzle["choices"])]:
                toggled = sorted(set(answer) ^ {letter})
                result = check(puzzle, ", ".join(toggled) or "none")
                assert not result["correct"] and f"({letter})" in result["feedback"]
        else:
            assert table.mistakes, (f"{puzzle['id']}: a typed-answer puzzle needs at least one "
                                    f"Mistake (a wrong answer people give, with its feedback)")
            for mistake in table.mistakes:
                assert mistake.value != answer
                text = mistake.value if kind == "text" else _typed(kind, mistake.value)
                result = check(puzzle, text)
                assert result["error"] is None and not result["correct"], (puzzle["id"], text)
                assert result["feedback"] == mistake.feedback


def _typed(kind: str, value) -> str:
    if kind == "tuple":
        return "(" + ", ".join(str(v) for v in value) + ")"
    if kind == "bool":
        return "yes" if value else "no"
    return str(value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(4, 12, 1)", [4, 12, 1]),
        ("[4,12,1]", [4, 12, 1]),
        ("4 12 1", [4, 12, 1]),
        ("4,12,1", [4, 12, 1]),
        ("torch.Size([2, 3])", [2, 3]),
        ("(5,)", [5]),
        ("5", [5]),
        ("()", []),
        ("torch.Size([])", []),
        ("  ( 0 ,  7 ) ", [0, 7]),
        ("[-1, 2]", [-1, 2]),
    ],
)
def test_parse_int_list(text: str, expected: list[int]) -> None:
    assert parse_int_list(text) == expected


@pytest.mark.parametrize(
    "text", ["", "four", "(4; 12)", "[[1, 2], [3]]", "1.5, 2", "9" * 25, ", ".join(["1"] * 65)]
)
def test_parse_int_list_rejects(text: str) -> None:
    with pytest.raises(ParseError):
        parse_int_list(text)


def test_parse_int_forms() -> None:
    assert parse_int("12") == 12 and parse_int(" -3 ") == -3 and parse_int("1,024") == 1024
    assert parse_int("96 bytes") == 96 and parse_int("tensor(7)") == 7 and parse_int("7.") == 7
    for bad in ("seven", "1.5", "12 apples", "1,02"):
        with pytest.raises(ParseError):
            parse_int(bad)


CALLS = ["x.t()", "x.view(6)", "x.expand(2, 3)", "x.flatten()"]


def test_parse_choices_and_lists() -> None:
    assert parse_choices("a, c", CALLS) == ["a", "c"]
    assert parse_choices("3 1", CALLS) == ["a", "c"]
    assert parse_choices("C and A", CALLS) == ["a", "c"]
    for nothing in ("none", "None of the above.", "none apply", "no options"):
        assert parse_choices(nothing, CALLS) == []
    with pytest.raises(ParseError, match=r"letters of the options that apply \(A-D\)"):
        parse_choices("a, z", CALLS)
    with pytest.raises(ParseError):  # options that are numbers: "2" is not the second one
        parse_choices("2", ["7", "2", "0"])
    assert parse_nested_list("tensor([[0, 3],\n        [1, 4]])") == "[[0, 3], [1, 4]]"
    assert parse_nested_list("((0,3),(1,4))") == "[[0, 3], [1, 4]]"
    for bad in ("[[0, 3]", "[a]", "[1] 2", "[" * 40 + "]" * 40):
        with pytest.raises(ParseError):
            parse_nested_list(bad)


def _puzzle_of_kind(kind: str) -> dict:
    for family, level in PAIRS:
        puzzle = generate(family, level, 0)
        if puzzle["answer_kind"] == kind:
            return puzzle
    raise AssertionError(kind)


@pytest.mark.parametrize(
    ("kind", "response", "hint"),
    [
        ("tuple", "strides please", "integers such as (4, 12, 1)"),
        ("int", "twelve", "one integer"),
        ("bool", "maybe", "yes or no"),
        ("choice", "z", "Pick one option"),
        ("choice", "9", "Pick one option"),
        ("choices", "a, q", "List the letters of the options"),
        ("text", "[[0, 1", "nested list"),
        ("tuple", "1 " * 300, "at most 500 characters"),
        ("int", "   ", "empty"),
    ],
)
def test_unreadable_answers_are_not_judged(kind: str, response: str, hint: str) -> None:
    result = check(_puzzle_of_kind(kind), response)
    assert result["error"] is not None and hint in result["error"]
    assert result["normalized"] is None and result["correct"] is False and result["feedback"] == ""


def test_response_bounds_and_types() -> None:
    puzzle = _puzzle_of_kind("tuple")
    assert check(puzzle, "1" * (MAX_RESPONSE_CHARS + 1))["error"]
    assert check(puzzle, None)["error"] == "The answer must be text."  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        check({"answer_kind": "tuple"}, "1")
    with pytest.raises(ValueError):
        check({"answer": 1, "answer_kind": "essay"}, "1")


def test_generic_tuple_feedback() -> None:
    assert describe_tuple([12, 4, 1], [4, 12, 1], "strides") == "The first two strides are swapped."
    assert describe_tuple([4, 1, 12], [4, 12, 1], "strides") == "The last two strides are swapped."
    assert "reverse order" in describe_tuple([1, 12, 4], [4, 12, 1], "strides")
    assert "one per dimension" in describe_tuple([4, 12], [4, 12, 1], "strides")
    assert "dim 2" in describe_tuple([4, 12, 2], [4, 12, 1], "strides")
    assert describe_tuple([7, 7, 7], [4, 12, 1], "strides") is None


def test_generic_list_feedback() -> None:
    assert "nesting" in describe_nested("[0, 1, 2, 3]", "[[0, 1], [2, 3]]")
    assert "wrong order" in describe_nested("[[0, 2], [1, 3]]", "[[0, 1], [2, 3]]")
    assert "has 4 elements" in describe_nested("[[0, 1]]", "[[0, 1], [2, 3]]")
    assert describe_nested("[[5, 6], [7, 8]]", "[[0, 1], [2, 3]]") == FALLBACK
    # The result page shows the note under its "Not quite" heading: it must not repeat it.
    assert "not quite" not in FALLBACK.lower()


def test_swapped_strides_feedback_on_a_real_puzzle() -> None:
    for seed in range(200):
        puzzle, table = built("strides_after", "senior", seed)
        a = puzzle["answer"]
        if len(a) < 3 or a[0] == a[1]:
            continue
        wrong = [a[1], a[0]] + a[2:]
        if any(m.value == wrong for m in table.mistakes):
            continue
        result = check(puzzle, str(tuple(wrong)))
        assert result["feedback"] == "The first two strides are swapped."
        return
    raise AssertionError("no puzzle to try")


def test_known_mistakes_are_named() -> None:
    """Feedback names real mistakes: forgotten offsets, contiguous strides, bytes, wrong end."""
    wanted = {
        "forgot the storage offset": ("storage_index", "senior"),
        "contiguous strides for this shape": ("strides_after", "senior"),
        "byte strides": ("fresh_strides", "middle"),
        "wrong end": ("fresh_strides", "junior"),
    }
    for phrase, (family, level) in wanted.items():
        hits = [
            m
            for s in range(60)
            for m in built(family, level, s)[1].mistakes
            if phrase in m.feedback
        ]
        assert hits, phrase


def test_tampered_puzzle_gets_generic_feedback() -> None:
    puzzle = dict(generate("fresh_strides", "junior", 3))
    puzzle["answer"] = [999, 1]
    result = check(puzzle, "(1, 999)")
    assert not result["correct"] and result["feedback"] == "The first two strides are swapped."


def test_a_copying_option_says_it_copies_once() -> None:
    """A wrong pick in "Which op order avoids a copy?" read "`.flatten(2, 3)` has to copy:
    flatten had to copy: no strides can ...": the step's own reason repeated the verdict."""
    for seed in SEEDS:
        puzzle = generate("copy_free_order", "principal", seed)
        for letter in LETTERS[:len(puzzle["choices"])]:
            if letter == puzzle["answer"]:
                continue
            feedback = check(puzzle, letter)["feedback"]
            assert feedback.count("to copy") == 1, (seed, letter, feedback)
