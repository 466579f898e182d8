"""Helpers for the puzzle tests: the (family, level) grid, seeds, answers as users type them."""

from __future__ import annotations

from functools import cache
from typing import Any

from quizapp.puzzles import families
from quizapp.puzzles.registry import build

SEEDS = range(300)
PAIRS = [(f["id"], level) for f in families() for level in f["levels"]]
PAIR_IDS = [f"{family}-{level}" for family, level in PAIRS]


@cache
def built(family: str, level: str, seed: int) -> tuple[dict[str, Any], Any]:
    """The puzzle and its feedback table (cached per worker: several tests walk the same grid)."""
    return build(family, level, seed)


def typed_forms(puzzle: dict[str, Any]) -> list[str]:
    """The answer written the ways users type it."""
    kind, answer = puzzle["answer_kind"], puzzle["answer"]
    if kind == "tuple":
        inner = ", ".join(str(v) for v in answer)
        forms = [
            f"[{inner}]",
            " ".join(str(v) for v in answer),
            ",".join(str(v) for v in answer),
            f"torch.Size([{inner}])",
        ]
        return forms + ([f"({answer[0]},)"] if len(answer) == 1 else [f"({inner})"])
    if kind == "int":
        return [str(answer), f" {answer} "]
    if kind == "bool":
        return ["yes", "True", "y", "YES"] if answer else ["no", "False", "n", "No"]
    if kind == "choice":
        index = "abcdefghijklmnopqrstuvwxyz".index(answer)
        option = puzzle["choices"][index]
        forms = [answer, answer.upper(), f"({answer})", option, f"{answer.upper()}) {option}",
                 f"`{option}`"]
        if option.startswith("(") and option.endswith(")"):  # a tuple: the ways tuples are typed
            forms += [option[1:-1], option[1:-1].replace(",", ""), f"[{option[1:-1]}]"]
        # A number is a place in the list only where no option is itself a number.
        if not any(choice.isdecimal() for choice in puzzle["choices"]):
            forms.append(str(index + 1))
        return forms
    if kind == "choices":
        numbers = " ".join(str("abcdefghijklmnopqrstuvwxyz".index(a) + 1) for a in answer)
        return [", ".join(answer), numbers, ",".join(reversed(answer)).upper()]
    assert kind == "text"
    return [answer, answer.replace(", ", ","), f"tensor({answer})", answer.replace("], ", "],\n ")]
