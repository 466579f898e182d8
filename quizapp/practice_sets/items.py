"""What a set holds: SetItem, and the stable keys (ItemRef) a saved set freezes."""

from __future__ import annotations

import re
from dataclasses import dataclass

CARD, PUZZLE = "card", "puzzle"
KINDS = (CARD, PUZZLE)
PUZZLE_SEED_MAX = 2**63 - 1
_CARD_KEY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_PUZZLE_KEY = re.compile(r"([a-z0-9_]+)/([a-z]+)/([0-9]{1,19})")
KEY_MAX = 160

class UnknownItem(LookupError):
    """A frozen key names nothing that can be shown (a card gone from the bank, a bad key)."""

@dataclass(frozen=True, slots=True, order=True)
class ItemRef:
    """The stable key of one item: a card by its id, a puzzle as ``family/level/seed``."""

    kind: str
    key: str

@dataclass(frozen=True, slots=True)
class PuzzleKey:
    family: str
    level: str
    seed: int

    @property
    def text(self) -> str:
        return f"{self.family}/{self.level}/{self.seed}"

def parse_puzzle_key(key: str) -> PuzzleKey:
    """``family/level/seed`` as its parts; UnknownItem when it is not of that form."""
    match = _PUZZLE_KEY.fullmatch(key) if len(key) <= KEY_MAX else None
    if match is None or int(match.group(3)) > PUZZLE_SEED_MAX:
        raise UnknownItem(f"not a puzzle key (family/level/seed): {key[:KEY_MAX]!r}")
    return PuzzleKey(match.group(1), match.group(2), int(match.group(3)))

def validate_ref(ref: ItemRef) -> None:
    """UnknownItem unless the key has its kind's form."""
    if ref.kind == CARD:
        if len(ref.key) > KEY_MAX or not _CARD_KEY.fullmatch(ref.key):
            raise UnknownItem(f"not a card id: {ref.key[:KEY_MAX]!r}")
    elif ref.kind == PUZZLE:
        parse_puzzle_key(ref.key)
    else:
        raise UnknownItem(f"unknown item kind {ref.kind!r}; kinds are card and puzzle")

@dataclass(frozen=True, slots=True)
class SetItem:
    """One item of a set, ready to show, print or export.

    ``prompt``, ``answer`` and ``explanation`` are Markdown. ``code`` is a puzzle's code (part
    of its question) or a card's code sample (shown with its answer, beside ``code_output``).
    ``choices`` are a puzzle's options in order, lettered A, B, C... as its pages show them; ``answer_kind`` is the
    puzzle's (tuple, int, bool, choice, choices, text), "" for a card. ``retired``: a card
    retired since the set was made. ``chains``: what a puzzle's pictures draw.
    """

    kind: str
    key: str
    level: str
    concepts: tuple[str, ...]
    title: str
    prompt: str
    answer: str
    explanation: str
    code: str = ""
    code_output: str = ""
    choices: tuple[str, ...] = ()
    answer_kind: str = ""
    retired: bool = False
    chains: tuple[str, ...] = ()  # a puzzle's: the explorer chains its explanation walks

    @property
    def ref(self) -> ItemRef:
        return ItemRef(self.kind, self.key)

__all__ = ["CARD", "KINDS", "PUZZLE", "ItemRef", "PuzzleKey", "SetItem",
           "UnknownItem", "parse_puzzle_key", "validate_ref"]
