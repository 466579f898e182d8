"""A result says each thing once: the verdict right or wrong (and only what the steps do not
say), the worked steps why, the answer line the answer, never a step's words again."""

from __future__ import annotations

import pytest

from quizapp import puzzles
from quizapp.puzzles.rendering import MIN_REPEAT, omit_said, split_sentences

SEEDS = range(10)


def long_sentences(text: str) -> set[str]:
    """The sentences of ``text`` long enough to count as a paragraph said twice."""
    cores = (s.strip().lstrip("- ").replace("**Answer.** ", "").rstrip(".").strip()
             for s in split_sentences(text))
    return {core for core in cores if len(core) >= MIN_REPEAT}


@pytest.mark.parametrize("family", [f["id"] for f in puzzles.families()])
def test_no_family_says_a_paragraph_twice(family):
    levels = next(f["levels"] for f in puzzles.families() if f["id"] == family)
    for level in levels:
        for seed in SEEDS:
            puzzle = puzzles.deal(family, level, seed)
            steps, _, answer = puzzle.explanation.rpartition("**Answer.**")
            assert steps and answer.strip(), puzzle.id
            assert not long_sentences(steps) & long_sentences(answer), puzzle.id
            for feedback in [m.feedback for m in puzzle.mistakes.mistakes] + list(
                    puzzle.mistakes.notes):
                shown = omit_said(feedback, puzzle.explanation)
                assert not long_sentences(shown) & long_sentences(puzzle.explanation), (
                    puzzle.id, shown)


def test_a_refused_view_puzzle_says_its_reason_once():
    puzzle = next(p for seed in range(50)
                  if not (p := puzzles.deal("view_possible", "middle", seed)).answer)
    why = next(line for line in puzzle.explanation.splitlines() if "raises" in line)
    reason = why.split("`. ", 1)[1]
    assert puzzle.explanation.count(reason) == 1
    assert puzzle.explanation.endswith("**Answer.** It fails: step "
                                       f"{why.split(':')[0].split()[-1]} raises `RuntimeError`.")
    wrong = puzzles.check(puzzle, "yes")
    assert not wrong["correct"] and omit_said(wrong["feedback"], puzzle.explanation) == ""


def test_sentences_are_never_cut_inside_code():
    text = "It fails with `RuntimeError: a. Use .reshape(...) instead.`. Then more words here."
    assert split_sentences(text) == [
        "It fails with `RuntimeError: a. Use .reshape(...) instead.`.", " Then more words here."]


def test_what_was_said_is_cut_out_and_the_rest_kept():
    said = "- step 1: `x` gives y. view keeps storage and offset 0, and its strides are (3, 1)."
    assert omit_said("It works: view keeps storage and offset 0, and its strides are (3, 1).",
                     said) == "It works."
    assert omit_said("View keeps storage and offset 0, and its strides are (3, 1).", said) == (
        "View keeps storage and offset 0, and its strides are (3, 1).")  # not the same words
    assert omit_said("It works.", "It works.") == "It works."  # too short to be a paragraph
