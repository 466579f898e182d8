"""Puzzles teach what torch does, over many seeds: a hint's rule followed mechanically gives the
answer, explanations talk only about the puzzle's own calls, every distractor is a mistake
someone could make on that very call, strides of size-1 dims are never graded."""

from __future__ import annotations

import ast
import re
from collections import Counter

import pytest

from quizapp.puzzles import check, families, generate
from quizapp.puzzles.distractors import channels_last_strides, contiguous_strides

SEEDS = range(400)


def tuples_after(text: str, *labels: str) -> list[tuple[int, ...]]:
    """The tuple literal following each label in ``text`` ("shape (2, 3)" -> (2, 3))."""
    found = []
    for label in labels:
        match = re.search(re.escape(label) + r" (\([^)]*\))", text)
        assert match, (label, text)
        found.append(tuple(ast.literal_eval(match.group(1))))
    return found


def matches_skipping_size_one(shape, strides, wanted) -> bool:
    """Stride by stride, leaving out the dims of size 1 (what every contiguity hint says)."""
    return all(s == w for n, s, w in zip(shape, strides, wanted, strict=True) if n != 1)


# Each rule a contiguity hint states, as the sentence that states it and its mechanical reading.
CONTIGUITY_RULES = {
    "leaving out every dim of size 1": matches_skipping_size_one,
    "skipping every dim of size 1": matches_skipping_size_one,
    # The wording contiguous_after used to have; kept so that stating it again fails on the
    # puzzles where it misleads, not merely on an unknown phrase.
    "strides are exactly the row-major strides": lambda shape, strides, wanted: (
        tuple(strides) == tuple(wanted)),
}


def stated_rule(hint: str):
    rules = [rule for phrase, rule in CONTIGUITY_RULES.items() if phrase in hint]
    assert len(rules) == 1, f"a contiguity hint must state one known rule: {hint!r}"
    return rules[0]


LAST_STEP = re.compile(r"gives shape (\([^)]*\)), stride (\([^)]*\))")


def final_layout(puzzle, from_end: int = 1) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """y's shape and strides, from the last step of the worked solution (not from a hint), or
    with ``from_end`` those of an earlier step."""
    shape, strides = LAST_STEP.findall(puzzle["explanation"])[-from_end]
    return tuple(ast.literal_eval(shape)), tuple(ast.literal_eval(strides))


@pytest.mark.parametrize(("family", "levels"), [("contiguous_after", ("junior", "middle")),
                                                ("size_one_contiguity", ("senior",))])
def test_following_a_contiguity_hint_gives_the_answer(family, levels):
    """The first hint once said "contiguous when its strides are exactly the row-major strides",
    which gives the wrong answer whenever a size-1 dim has an odd stride (78 of 800 puzzles)."""
    size_one_seen = 0
    for level in levels:
        for seed in SEEDS:
            puzzle = generate(family, level, seed)
            rule = stated_rule(puzzle["hints"][0])
            shape, strides = final_layout(puzzle)
            wanted = contiguous_strides(shape)
            assert rule(shape, strides, wanted) is puzzle["answer"], (family, level, seed)
            size_one_seen += list(strides) != wanted and puzzle["answer"]
    assert size_one_seen > 10  # the exemption does decide some of these puzzles


def test_following_the_channels_last_hint_gives_the_answer():
    decided_by_size_one = 0
    for seed in SEEDS:
        puzzle = generate("channels_last_contiguity", "principal", seed)
        rule = stated_rule(puzzle["hints"][0])
        shape, strides = final_layout(puzzle)
        wanted = tuple(channels_last_strides(shape))
        assert rule(shape, strides, wanted) is puzzle["answer"], seed
        decided_by_size_one += strides != wanted and puzzle["answer"]
    assert decided_by_size_one > 5


STEP = re.compile(r"^- step (\d+): `([^`]*)`", re.M)


def test_explanations_walk_only_the_calls_the_puzzle_shows():
    """channels_last_contiguity once explained a `.contiguous(memory_format=...)` step the puzzle
    does not have, and concluded about it instead of the flag asked for."""
    checked = Counter()
    for spec in families():
        for level in spec["levels"]:
            for seed in range(150):
                puzzle = generate(spec["id"], level, seed)
                shown = "\n".join([puzzle["code"], puzzle["prompt"]] + (puzzle["choices"] or []))
                for _number, call in STEP.findall(puzzle["explanation"]):
                    assert call in shown, (puzzle["id"], call)
                    checked[spec["id"]] += 1
    assert set(checked) == {f["id"] for f in families()}


def error_outcome(x, call: str) -> str:
    try:
        eval(f"x{call}", {"torch": __import__("torch"), "x": x})  # noqa: S307 - generated code
    except Exception as error:  # noqa: BLE001 - any exception class is an outcome
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return "No error"


@pytest.mark.torch
@pytest.mark.parametrize("level", ["senior", "principal"])
def test_every_error_distractor_is_a_mistake_someone_could_make_on_that_call(level):
    """A distractor is one of: "No error" for a call that raises; the right message under another
    exception class; what torch does for this very call on the tensor the note says x was taken
    for; or, for a view that works on a non-contiguous x, the belief that view needs contiguity.
    The only distractor of senior 224 and principal 29 was "only one dimension can be inferred",
    what some other call with two -1s raises."""
    import torch

    kinds = Counter()
    for seed in range(200):
        puzzle = generate("error_raised", level, seed)
        assert len(puzzle["choices"]) >= 3, puzzle["id"]
        call = re.search(r"`y = x(.*?)` runs", puzzle["prompt"]).group(1)
        x = eval(puzzle["code"].removeprefix("x = "), {"torch": torch})  # noqa: S307
        answer = error_outcome(x, call)
        assert puzzle["choices"][ord(puzzle["answer"]) - ord("a")] == answer
        for letter, text in zip("abcd", puzzle["choices"], strict=False):
            if letter == puzzle["answer"]:
                continue
            note = check(puzzle, letter)["feedback"]
            taken_for = re.search(r"does on `([^`]*)`; x is not that tensor", note)
            if text == "No error":
                assert answer != "No error"
                kinds["no error"] += 1
            elif answer != "No error" and text.split(": ", 1)[1] == answer.split(": ", 1)[1]:
                assert text.split(":")[0] != answer.split(":")[0]
                kinds["class"] += 1
            elif taken_for:
                misread = eval(taken_for.group(1), {"torch": torch})  # noqa: S307
                assert error_outcome(misread, call) == text
                kinds["misread x"] += 1
            else:
                assert answer == "No error" and call.startswith(".view(")
                assert not x.is_contiguous() and "view size is not compatible" in text
                kinds["view myth"] += 1
    assert kinds["misread x"] and kinds["no error"] and kinds["class"]


def final_shape(puzzle) -> tuple[int, ...]:
    """The shape of the last traced step: the tensor whose strides a stride puzzle asks for."""
    shapes = re.findall(r"gives shape (\([^)]*\))", puzzle["explanation"])
    return tuple(ast.literal_eval(shapes[-1]))


STRIDE_FAMILIES = [(f["id"], level) for f in families() for level in f["levels"]
                   if generate(f["id"], level, 0)["answer_kind"] == "tuple"
                   and "stride()" in generate(f["id"], level, 0)["prompt"]]


@pytest.mark.parametrize(("family", "level"), STRIDE_FAMILIES,
                         ids=[f"{f}-{lv}" for f, lv in STRIDE_FAMILIES])
def test_strides_of_size_one_dims_are_never_graded(family, level):
    """strides_after principal 21 and slice_strides senior 28 graded the stride of a size-1 dim,
    a value the cards teach never to rely on: any value is accepted there, the explanation says
    why, and at least two dims are left to grade."""
    free_seen = 0
    for seed in range(250):
        puzzle = generate(family, level, seed)
        shape, answer = final_shape(puzzle), puzzle["answer"]
        assert len(shape) == len(answer), puzzle["id"]
        ones = [d for d, n in enumerate(shape) if n == 1]
        graded = [d for d, n in enumerate(shape) if n != 1]
        # Something to grade; strides_after and slice_strides keep two dims or more.
        assert len(graded) >= (2 if family in ("strides_after", "slice_strides") else 1), (
            puzzle["id"], shape)
        shifted = [v + 7 if d in ones else v for d, v in enumerate(answer)]
        assert check(puzzle, str(shifted))["correct"], (puzzle["id"], shifted)
        wrong = list(answer)
        wrong[graded[0]] += 1
        assert not check(puzzle, str(wrong))["correct"], puzzle["id"]
        if ones:
            free_seen += 1
            assert "any value is accepted" in puzzle["explanation"], puzzle["id"]
    assert STRIDE_FAMILIES


def stride_text(values) -> str:
    return "(" + ", ".join(map(str, values)) + ("," if len(values) == 1 else "") + ")"


# Puzzles that one comparison of strides decides: a tensor's strides against the ones its
# layout needs (row-major, or channels-last), size-1 dims aside. The yes/no ones ask about y,
# the last step of the worked solution; contiguous_bytes (0 bytes, or every element) about x,
# the step before y = x.contiguous().
DECIDED_BY_STRIDES = {"contiguous_after": (contiguous_strides, 1),
                      "size_one_contiguity": (contiguous_strides, 1),
                      "channels_last_contiguity": (channels_last_strides, 1),
                      "contiguous_bytes": (contiguous_strides, 2)}


@pytest.mark.parametrize("family", sorted(DECIDED_BY_STRIDES))
def test_no_hint_of_a_yes_no_puzzle_states_the_deciding_strides(family):
    """A hint leads to the answer without handing it over: contiguous_after's second hint
    stated y's strides, after which the answer was a lookup against the first. The hints teach
    how to get the strides and what to compare them with; neither tuple is written out."""
    levels = next(f["levels"] for f in families() if f["id"] == family)
    needed, from_end = DECIDED_BY_STRIDES[family]
    for level in levels:
        for seed in SEEDS:
            puzzle = generate(family, level, seed)
            shape, strides = final_layout(puzzle, from_end)
            wanted = needed(shape)
            for hint in puzzle["hints"]:
                for deciding in (strides, wanted):
                    assert stride_text(deciding) not in hint, (puzzle["id"], hint)
            # What the learner works from is still there: the rule and how to get the strides.
            assert "stride" in puzzle["hints"][1], puzzle["id"]


CHOICE_KINDS = ("choice", "choices")
NUMBER_WORDS = {1: "one", 2: "two", 3: "three"}


def test_no_hint_of_a_choice_puzzle_states_its_right_option():
    """Over every family's choice puzzles: no hint writes out the right option (a stride tuple,
    a call), which would make the choice a matter of spotting it."""
    seen = 0
    for spec in families():
        for level in spec["levels"]:
            for seed in range(150):
                puzzle = generate(spec["id"], level, seed)
                if puzzle["answer_kind"] != "choice":
                    continue
                right = puzzle["choices"][ord(puzzle["answer"]) - ord("a")]
                if not right.startswith(("(", "x.")):
                    continue  # a bare number ("14") may well be in a hint as something else
                seen += 1
                for hint in puzzle["hints"]:
                    assert right not in hint, (puzzle["id"], right, hint)
    assert seen > 300


def test_every_choice_puzzle_offers_four_options_or_says_why_fewer():
    """storage_index junior offered two options (27 of 300), as_strided_window two or three
    (144 of 300), error_raised three, with nothing saying why."""
    fewer = Counter()
    for spec in families():
        for level in spec["levels"]:
            for seed in SEEDS:
                puzzle = generate(spec["id"], level, seed)
                if puzzle["answer_kind"] not in CHOICE_KINDS:
                    continue
                count = len(puzzle["choices"])
                assert count >= 2, puzzle["id"]
                if count < 4:
                    fewer[spec["id"]] += 1
                    reason = re.search(rf"There are only {NUMBER_WORDS[count]} options: (.+?)\.",
                                       puzzle["prompt"])
                    assert reason and len(reason.group(1).split()) >= 6, puzzle["id"]
    # Where a family can, it deals four: fewer stay the exception.
    assert fewer["storage_index"] < len(SEEDS) // 20, fewer


ELEMENT = re.compile(r"At which position of the storage is `x\[(\d+), (\d+)\]`")
PRODUCT = re.compile(r"(\d+) × (\d+)")
EQUATION = re.compile(r"((?:\d+(?: × \d+)?)(?: \+ \d+(?: × \d+)?)*) = (\d+)")


def test_feedback_speaks_of_the_puzzles_own_numbers():
    """storage_index junior said "the row index is multiplied by the row length 4" for
    x[0, 3], whose row index is 0. Feedback names an index only where it is not 0, never
    multiplies a 0, and every sum it writes out is right and gives the wrong answer it explains."""
    checked = 0
    for seed in range(600):
        puzzle = generate("storage_index", "junior", seed)
        row, col = map(int, ELEMENT.search(puzzle["prompt"]).groups())
        for letter, option in zip("abcd", puzzle["choices"], strict=False):
            if letter == puzzle["answer"]:
                continue
            note = check(puzzle, letter)["feedback"]
            if row == 0:
                assert "row index" not in note, (puzzle["id"], note)
            if col == 0:
                assert "column index" not in note, (puzzle["id"], note)
            for left, _right in PRODUCT.findall(note):
                assert left != "0", (puzzle["id"], note)
            for terms, total in EQUATION.findall(note):
                value = sum(eval(term.replace("×", "*"))  # noqa: S307 - digits and *
                            for term in terms.split(" + "))
                assert value == int(total), (puzzle["id"], note)
            if any(kind in note for kind in ("counted down the columns", "byte offset",
                                             "not by the number of rows")):
                # The sum written out is the one that gives this wrong option.
                assert re.search(rf"(?:= |position ){option}\b", note), (puzzle["id"], note)
                checked += 1
    assert checked > 300
