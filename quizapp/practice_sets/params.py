"""A practice set's parameters (SetParams) and the canonicalize_*/validate_* functions behind it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from quizapp.puzzles import LEVELS, families

MIN_COUNT, MAX_COUNT = 1, 100
MIN_TIME_LIMIT, MAX_TIME_LIMIT = 1, 240  # minutes
# Seeds are stored as 64-bit signed integers (a database BIGINT).
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1
# A drawn seed is short enough to read out and type: 0 to 999,999,999.
DRAWN_SEED_BOUND = 10**9
TITLE_MAX = 200
# Longer than any level, concept tag or family id: longer text is refused before it is compared.
NAME_MAX = 80
# Filters given more often than this are refused (the lists are far shorter).
MAX_FILTER_VALUES = 200
_INTEGER = re.compile(r"[+-]?[0-9]{1,1000}")  # ASCII digits only; int() reads others too


class SetParamsError(ValueError):
    """A parameter of a practice set is wrong; ``field`` names it, the message says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class SetParams:
    """What a practice set is drawn from; built by ``canonicalize_params``, which checks it.

    ``levels``, ``concepts`` and ``families`` are filters (empty: no filter), in catalogue
    order without repeats. ``puzzles`` is how many of the ``count`` items are puzzles (None:
    the generator decides, see ``generate``). ``time_limit`` is in minutes (None: untimed).
    """

    count: int
    seed: int
    levels: tuple[str, ...] = ()
    concepts: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    puzzles: int | None = None
    title: str | None = None
    time_limit: int | None = None


class SeedSource(Protocol):
    """What ``draw_seed`` needs of a random generator (``random.Random``, ``SystemRandom``)."""

    def randrange(self, start: int, stop: int, /) -> int: ...


def draw_seed(rng: SeedSource) -> int:
    """A seed for a set asked for without one: short, to be shown and shared."""
    return rng.randrange(0, DRAWN_SEED_BOUND)


def family_ids() -> tuple[str, ...]:
    return tuple(f["id"] for f in families())


def canonicalize_int(value: object, field: str, what: str) -> int:
    """An integer from an int or its decimal text ("12", " -3 "); else SetParamsError."""
    if isinstance(value, bool):
        raise SetParamsError(field, f"{what} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if _INTEGER.fullmatch(text):
            return int(text)
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise SetParamsError(field, f"{what} must be a whole number, not {shown!r}")
    raise SetParamsError(field, f"{what} must be a whole number")


def canonicalize_count(value: object) -> int:
    count = canonicalize_int(value, "count", "the number of items")
    if not MIN_COUNT <= count <= MAX_COUNT:
        raise SetParamsError(
            "count", f"the number of items must be between {MIN_COUNT} and {MAX_COUNT}, "
                     f"not {count}")
    return count


def canonicalize_puzzles(value: object, count: int) -> int | None:
    """How many items are puzzles: None (or empty text) to leave it to the generator."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    puzzles = canonicalize_int(value, "puzzles", "the number of puzzles")
    if not 0 <= puzzles <= count:
        raise SetParamsError(
            "puzzles", f"the number of puzzles must be between 0 and the number of items "
                       f"({count}), not {puzzles}")
    return puzzles


def canonicalize_seed(value: object) -> int:
    seed = canonicalize_int(value, "seed", "the seed")
    if not MIN_SEED <= seed <= MAX_SEED:
        raise SetParamsError("seed", f"the seed must be between {MIN_SEED} and {MAX_SEED}")
    return seed


def canonicalize_time_limit(value: object) -> int | None:
    """Minutes, 1 to 240; None (or empty text) for no time limit."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    minutes = canonicalize_int(value, "time_limit", "the time limit")
    if not MIN_TIME_LIMIT <= minutes <= MAX_TIME_LIMIT:
        raise SetParamsError(
            "time_limit", f"the time limit must be between {MIN_TIME_LIMIT} and "
                          f"{MAX_TIME_LIMIT} minutes, not {minutes}")
    return minutes


def canonicalize_title(value: object) -> str | None:
    """The title with spaces trimmed and runs of white space made one; None when empty."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise SetParamsError("title", "the title must be text")
    title = " ".join(value.split())
    if not title:
        return None
    if len(title) > TITLE_MAX:
        raise SetParamsError(
            "title", f"the title must be at most {TITLE_MAX} characters, not {len(title)}")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in title):
        raise SetParamsError("title", "the title may not contain control or unassigned "
                                      "characters")
    return title


def canonicalize_names(values: Iterable[object] | None, known: Sequence[str], field: str,
                       noun: str, hint: str) -> tuple[str, ...]:
    """Known names in the order of ``known``, each once (capitals read as lower case);
    SetParamsError names an unknown one."""
    if values is None:
        return ()
    if isinstance(values, str):
        values = [values]
    given: set[str] = set()
    for number, value in enumerate(values):
        if number >= MAX_FILTER_VALUES:
            raise SetParamsError(field, f"at most {MAX_FILTER_VALUES} {noun} filters may be "
                                        "given")
        if not isinstance(value, str):
            raise SetParamsError(field, f"a {noun} must be text")
        name = value.strip()
        if not name:
            continue
        if name not in known and name.lower() in known:  # every name is lower case
            name = name.lower()
        if len(name) > NAME_MAX or name not in known:
            shown = name if len(name) <= 40 else name[:40] + "..."
            raise SetParamsError(field, f"unknown {noun} {shown!r}; {hint}")
        given.add(name)
    return tuple(name for name in known if name in given)


def canonicalize_levels(values: Iterable[object] | None) -> tuple[str, ...]:
    return canonicalize_names(values, LEVELS, "levels", "level",
                              f"the levels are {', '.join(LEVELS)}")


def canonicalize_concepts(values: Iterable[object] | None,
                          known: Collection[str]) -> tuple[str, ...]:
    """Concept tags the bank knows (``known``), sorted."""
    return canonicalize_names(values, sorted(known), "concepts", "concept",
                              "the concepts are listed in content/concepts.yaml")


def canonicalize_families(values: Iterable[object] | None) -> tuple[str, ...]:
    """Puzzle family ids in catalogue order."""
    return canonicalize_names(values, family_ids(), "families", "puzzle family",
                              "see quizapp puzzle --list for the families")


def canonicalize_params(
    *, count: object, seed: object, known_concepts: Collection[str],
    levels: Iterable[object] | None = None, concepts: Iterable[object] | None = None,
    families: Iterable[object] | None = None, puzzles: object = None, title: object = None,
    time_limit: object = None,
) -> SetParams:
    """Checked, canonical SetParams from raw values (ints or their text, lists of names);
    SetParamsError on the first wrong one, checked in the form's order."""
    levels_ = canonicalize_levels(levels)
    concepts_ = canonicalize_concepts(concepts, known_concepts)
    families_ = canonicalize_families(families)
    count_ = canonicalize_count(count)
    return SetParams(
        count=count_, seed=canonicalize_seed(seed), levels=levels_, concepts=concepts_,
        families=families_, puzzles=canonicalize_puzzles(puzzles, count_),
        title=canonicalize_title(title), time_limit=canonicalize_time_limit(time_limit))


def validate_params(params: SetParams, known_concepts: Collection[str]) -> None:
    """SetParamsError unless ``params`` is what canonicalize_params makes of its own fields
    (a SetParams built by hand, or read back from storage)."""
    again = canonicalize_params(
        count=params.count, seed=params.seed, known_concepts=known_concepts,
        levels=params.levels, concepts=params.concepts, families=params.families,
        puzzles=params.puzzles, title=params.title, time_limit=params.time_limit)
    if again != params:
        raise SetParamsError("params", "the set's parameters are not in canonical form "
                                       "(filters in catalogue order, each once; title trimmed)")
