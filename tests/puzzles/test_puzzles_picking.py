"""Options picked on the page: every subset of every pickable puzzle is judged as its typed letters
are, and picks that disagree with the box, or cannot go together, get a message."""

from __future__ import annotations

import itertools
import random

import pytest
from puzzles_support import PAIRS, built

from quizapp.puzzles import check
from quizapp.puzzles.parsing import ParseError
from quizapp.puzzles.picking import (
    NONE_PICK,
    PICKABLE_KINDS,
    compose_answer,
    compute_pick_options,
    validate_picks,
)

SEEDS = range(60)


def picks_of(puzzle: dict) -> list[str]:
    return [value for value, _, _ in compute_pick_options(puzzle)]


def right_picks(puzzle: dict) -> list[str]:
    """The picks that give the puzzle's answer, derived from the answer, not from picking."""
    kind, answer = puzzle["answer_kind"], puzzle["answer"]
    if kind == "bool":
        return ["yes" if answer else "no"]
    if kind == "choice":
        return [answer.upper()]
    return [letter.upper() for letter in answer] or [NONE_PICK]


@pytest.mark.parametrize(("family", "level"), PAIRS)
def test_options_follow_the_answer_kind(family: str, level: str) -> None:
    for seed in SEEDS:
        puzzle, _ = built(family, level, seed)
        kind, options = puzzle["answer_kind"], compute_pick_options(puzzle)
        if kind not in PICKABLE_KINDS:
            assert options == [], puzzle["id"]
            with pytest.raises(ParseError, match="no options to pick"):
                compose_answer(puzzle, "", ["A"])
            continue
        if kind == "bool":
            assert options == [("yes", "", "Yes"), ("no", "", "No")]
            continue
        letters = "ABCDEFGH"[: len(puzzle["choices"])]
        assert [(v, m) for v, m, _ in options[: len(letters)]] == [(c, c) for c in letters]
        assert [label for _, _, label in options[: len(letters)]] == puzzle["choices"]
        assert len(options) == len(letters) + (kind == "choices"), puzzle["id"]


@pytest.mark.parametrize(("family", "level"), PAIRS)
def test_every_pick_is_judged_as_its_typed_answer(family: str, level: str) -> None:
    """Every single pick, and for multi-answer puzzles every subset of the options, composes to
    an answer check() judges exactly as the letters typed; the right picks are right."""
    judged = 0
    for seed in SEEDS:
        puzzle, _ = built(family, level, seed)
        kind = puzzle["answer_kind"]
        if kind not in PICKABLE_KINDS:
            continue
        values = picks_of(puzzle)
        if kind == "choices":
            letters = [v for v in values if v != NONE_PICK]
            sets = [list(c) for n in range(1, len(letters) + 1)
                    for c in itertools.combinations(letters, n)] + [[NONE_PICK]]
        else:
            sets = [[v] for v in values]
        for picks in sets:
            composed = compose_answer(puzzle, "", picks)
            typed = ", ".join(picks) if kind == "choices" else picks[0]
            assert check(puzzle, composed) == check(puzzle, typed), (puzzle["id"], picks)
            assert check(puzzle, composed)["correct"] == (picks == right_picks(puzzle))
            judged += 1
        assert check(puzzle, compose_answer(puzzle, "", right_picks(puzzle)))["correct"]
    if judged:
        assert judged >= len(SEEDS) * 2


def test_picks_and_typed_text_that_agree_are_one_answer_and_others_are_refused() -> None:
    rng = random.Random(11)
    for family, level in PAIRS:
        puzzle, _ = built(family, level, 3)
        if puzzle["answer_kind"] not in ("choice", "bool"):
            continue
        values = picks_of(puzzle)
        pick = rng.choice(values)
        for typed in (pick, pick.lower(), f" {pick.upper()} "):
            assert compose_answer(puzzle, typed, [pick]) == typed.strip()
        other = next(v for v in values if v != pick)
        with pytest.raises(ParseError, match="You picked .* but typed") as refused:
            compose_answer(puzzle, other, [pick])
        assert other in str(refused.value)
        with pytest.raises(ParseError, match="The box cannot be read here"):
            compose_answer(puzzle, "¿¿", [pick])  # unreadable text beside a pick: ask, not guess
        long = "x" * 300
        with pytest.raises(ParseError) as quoted:
            compose_answer(puzzle, long, [pick])
        assert len(str(quoted.value)) < 200  # the message repeats the start of the text only


def test_an_option_typed_as_written_agrees_with_its_pick() -> None:
    puzzle, _ = built("strides_after", "middle", 0)
    for letter, option in zip("ABCD", puzzle["choices"], strict=False):
        assert compose_answer(puzzle, option, [letter]) == option


def test_picks_that_cannot_go_together_are_named() -> None:
    single, _ = built("storage_index", "junior", 0)
    with pytest.raises(ParseError, match="Pick one option only"):
        validate_picks(single, ["A", "B"])
    with pytest.raises(ParseError, match="not on this puzzle's page"):
        validate_picks(single, ["Z"])
    with pytest.raises(ParseError, match="not on this puzzle's page"):
        validate_picks(single, [NONE_PICK])  # only multi-answer puzzles offer "None of them"
    multi = next(built(f, lv, s)[0] for f, lv in PAIRS for s in range(5)
                 if built(f, lv, s)[0]["answer_kind"] == "choices")
    assert validate_picks(multi, ["c", "A"]) == ["A", "C"]  # the page's order, as shown
    assert validate_picks(multi, ["A", "A"]) == ["A"]
    with pytest.raises(ParseError, match="cannot go with another option"):
        validate_picks(multi, ["A", NONE_PICK])
    yes_no, _ = built("contiguous_after", "junior", 0)
    with pytest.raises(ParseError, match="Pick one option only"):
        validate_picks(yes_no, ["yes", "no"])
    assert compose_answer(yes_no, "", ["YES"]) == "yes"


def test_an_option_typed_as_written_on_a_multi_answer_puzzle_is_not_called_a_disagreement() -> None:
    """Several options are named by letter only; with the same option ticked, the message said
    "You picked A but typed 'y.view(30)'"."""
    multi = next(built(f, lv, s)[0] for f, lv in PAIRS for s in range(5)
                 if built(f, lv, s)[0]["answer_kind"] == "choices")
    with pytest.raises(ParseError) as refused:
        compose_answer(multi, multi["choices"][0], ["A"])
    assert "You picked" not in str(refused.value)
    assert "cannot be read here" in str(refused.value) and "Clear it" in str(refused.value)
