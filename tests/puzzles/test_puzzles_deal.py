"""deal(): one shared, read-only Puzzle per id, which check() judges with its own mistakes."""

from __future__ import annotations

import dataclasses

import pytest
from puzzles_support import PAIRS, SEEDS

from quizapp import puzzles
from quizapp.puzzles import checking


def test_deal_shares_one_puzzle_per_id_and_generate_is_its_dict() -> None:
    dealt = puzzles.deal("strides_after", "senior", 4242)
    assert puzzles.deal("strides_after", "senior", 4242) is dealt  # one cache, one build
    assert puzzles.generate("strides_after", "senior", 4242) == dealt.as_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        dealt.answer = None  # type: ignore[misc]
    assert isinstance(dealt.hints, tuple) and isinstance(dealt.concepts, tuple)


def test_deal_refuses_what_generate_refuses() -> None:
    for request in (("no_such_family", "junior", 1), ("strides_after", "senior", -1)):
        with pytest.raises(ValueError) as refused:
            puzzles.generate(*request)
        with pytest.raises(ValueError) as also:
            puzzles.deal(*request)
        assert str(also.value) == str(refused.value)


def wrong_answers(puzzle: puzzles.Puzzle) -> list[str]:
    """Typed answers to ``puzzle`` that are read but wrong: its known mistakes, and a letter."""
    typed = [puzzles.fmt_answer(puzzle.answer_kind, mistake.value)
             for mistake in puzzle.mistakes.mistakes]
    if puzzle.answer_kind == "choice":
        typed += [letter for letter in "abcd" if letter != puzzle.answer][:1]
    return typed


def test_a_dealt_puzzle_is_judged_as_its_dict_without_rebuilding(monkeypatch) -> None:
    """check() on a Puzzle reads the mistakes it carries: judging a rating's answer does not
    look the puzzle up again (the dict path rebuilds them from the id), and says the same."""
    cases = []
    for family, level in PAIRS:
        puzzle = puzzles.deal(family, level, SEEDS[0])
        for answer in wrong_answers(puzzle)[:3]:
            cases.append((puzzle, answer, puzzles.check(puzzle.as_dict(), answer)))
    assert len(cases) > 50

    def no_lookup(*_args):
        raise AssertionError("a dealt puzzle's mistakes were looked up again")

    monkeypatch.setattr(checking, "feedback_table", no_lookup)
    for puzzle, answer, expected in cases:
        assert not expected["correct"], (puzzle.id, answer)
        assert puzzles.check(puzzle, answer) == expected, (puzzle.id, answer)
