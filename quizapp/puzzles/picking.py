"""Options picked on the page (radio buttons, check boxes) read as the answer a person would type."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from quizapp.puzzles.parsing import ParseError, parse_response
from quizapp.puzzles.puzzle import Puzzle, read_field
from quizapp.puzzles.rendering import LETTERS

# The kinds whose answers are a pick among a few values: options, or yes and no.
PICKABLE_KINDS = frozenset({"bool", "choice", "choices"})
NONE_PICK = "none"  # "None of them", the check box a multi-answer puzzle adds
MAX_PICKS = 8  # more than any puzzle offers (options plus "none"), so a bound, not a rule
QUOTED_CHARS = 40  # how much of a typed answer a message repeats


def compute_pick_options(puzzle: Puzzle | Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(value, mark, label)`` for each control the page offers, in order; [] where the answer
    is typed (numbers, tuples, nested lists). The value is what the answer box would take."""
    kind = read_field(puzzle, "answer_kind")
    if kind == "bool":
        return [("yes", "", "Yes"), ("no", "", "No")]
    if kind not in ("choice", "choices"):
        return []
    options = [(LETTERS[i].upper(), LETTERS[i].upper(), str(text))
               for i, text in enumerate(read_field(puzzle, "choices") or ())]
    if kind == "choices":
        options.append((NONE_PICK, "", "None of them"))
    return options


def compute_picked_text(kind: str, picks: Sequence[str]) -> str:
    """The picks as one typed answer: ``B``, ``A, C``, ``none`` or ``yes``."""
    return ", ".join(picks) if kind == "choices" else (picks[0] if picks else "")


def validate_picks(puzzle: Puzzle | Mapping[str, Any], picks: Sequence[str]) -> list[str]:
    """The picks in the page's order, or ParseError naming what cannot be picked together."""
    kind = read_field(puzzle, "answer_kind")
    offered = [value for value, _, _ in compute_pick_options(puzzle)]
    if not offered:
        raise ParseError("This puzzle has no options to pick: type the answer in the box.")
    wanted = {pick.strip().lower() for pick in picks}
    unknown = wanted - {value.lower() for value in offered}
    if unknown:
        raise ParseError("That option is not on this puzzle's page any more: pick again.")
    chosen = [value for value in offered if value.lower() in wanted]
    if kind != "choices" and len(chosen) > 1:
        raise ParseError("Pick one option only.")
    if NONE_PICK in chosen and len(chosen) > 1:
        raise ParseError("“None of them” cannot go with another option: untick one.")
    return chosen


def compose_answer(puzzle: Puzzle | Mapping[str, Any], typed: str, picks: Sequence[str]) -> str:
    """The answer to judge from what the page sent: the picks, the typed text, or both when
    they say the same (the page's script copies a pick into the box). Where they differ the
    person is asked which they meant (ParseError), rather than one silently winning."""
    if not picks:
        return typed
    typed = (typed or "").strip()
    kind = read_field(puzzle, "answer_kind")
    picked = compute_picked_text(kind, validate_picks(puzzle, picks))
    if not typed:
        return picked
    shown = typed if len(typed) <= QUOTED_CHARS else typed[:QUOTED_CHARS - 1] + "…"
    try:
        read = parse_response(kind, typed, read_field(puzzle, "choices"))
    except ParseError as exc:  # the box cannot be read: say so, not that it disagrees
        raise ParseError(f"The box cannot be read here: {exc} Clear it to answer with what "
                         "you ticked.") from None
    if read == parse_response(kind, picked, read_field(puzzle, "choices")):
        return typed
    raise ParseError(f"You picked {describe_picked(kind, picked)} but typed “{shown}”: "
                     "clear the box, or pick what you typed.")


def describe_picked(kind: str, picked: str) -> str:
    if kind == "bool":
        return f"“{picked.capitalize()}”"
    if picked == NONE_PICK:
        return "“None of them”"
    return picked
