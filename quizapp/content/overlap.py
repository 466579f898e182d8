"""Word-shingle overlap between cards: finds a card that repeats another instead of adding to the bank."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quizapp.content.model import Card

# A shingle is a run of this many consecutive words. Three-word runs are mostly shared phrasing
# ("the storage offset", "a view of"); four-word runs already say something specific.
SHINGLE_WORDS = 4

# A report quotes at most this many words of the longest passage two cards share.
PASSAGE_WORDS_SHOWN = 24

# Two cards repeat each other when this share of the smaller text's shingles also occurs in the
# other card's text (containment, so a short card copied into a long one still counts).
# Calibrated on the bank of 66 cards (December 2026): the highest pair scored 0.039 on Solid
# and 0.030 on Question + Basics, while a copied answer with every sixth word changed still
# scores about 0.33, so 0.25 separates the two with a wide margin on both sides.
REPEAT_THRESHOLD = 0.25

_WORD = re.compile(r"[a-z0-9_]+")


@dataclass(frozen=True, slots=True)
class CardText:
    """One part of a card compared between cards, named as a report shows it."""

    name: str
    read: Callable[[Card], str]


# What is compared: the 50-second answer, and the question with its 20-second answer.
COMPARED_PARTS = (
    CardText("Solid", lambda card: card.solid),
    CardText("Question + Basics", lambda card: f"{card.question}\n{card.basics}"),
)


@dataclass(frozen=True, slots=True)
class Overlap:
    """How much of one part two cards share: the score and the longest passage they share."""

    first: Card
    second: Card
    part: str
    score: float
    passage: str

    def __str__(self) -> str:
        words = self.passage.split()
        shown = " ".join(words[:PASSAGE_WORDS_SHOWN]) + (" ..." if len(words) > PASSAGE_WORDS_SHOWN else "")
        return (f"{self.first.id} ({self.first.level}) and {self.second.id} ({self.second.level}) "
                f"share {self.score:.0%} of their {self.part} {SHINGLE_WORDS}-word runs; "
                f"longest shared passage: \"{shown}\"")


def canonicalize_words(text: str) -> list[str]:
    """The text's words, lower-cased, with punctuation, Markdown and white space folded away."""
    return _WORD.findall(text.lower())


def compute_shingles(words: Sequence[str], size: int = SHINGLE_WORDS) -> list[tuple[str, ...]]:
    """Every run of ``size`` consecutive words, in order (repeats kept)."""
    return [tuple(words[i:i + size]) for i in range(len(words) - size + 1)]


def compute_containment(first: set[tuple[str, ...]], second: set[tuple[str, ...]]) -> float:
    """The share of the smaller set's shingles that the other set also holds (0 when either is empty)."""
    smaller = min(len(first), len(second))
    return len(first & second) / smaller if smaller else 0.0


def compute_longest_shared_passage(words: Sequence[str], other: set[tuple[str, ...]],
                                   size: int = SHINGLE_WORDS) -> str:
    """The longest run of ``words`` whose every shingle also occurs in ``other``, as text."""
    best_start, best_count = 0, 0
    run_start, run = 0, 0
    for i, shingle in enumerate(compute_shingles(words, size)):
        if shingle not in other:
            run = 0
            continue
        if not run:
            run_start = i
        run += 1
        if run > best_count:
            best_start, best_count = run_start, run
    return " ".join(words[best_start:best_start + best_count + size - 1]) if best_count else ""


def compute_overlaps(cards: Sequence[Card], parts: Sequence[CardText] = COMPARED_PARTS,
                     size: int = SHINGLE_WORDS) -> list[Overlap]:
    """Every pair of cards (named in id order) with its overlap on each part, highest score first."""
    words = {(card.id, part.name): canonicalize_words(part.read(card)) for card in cards for part in parts}
    shingles = {key: set(compute_shingles(value, size)) for key, value in words.items()}
    overlaps = []
    for first, second in itertools.combinations(sorted(cards, key=lambda card: card.id), 2):
        for part in parts:
            a, b = shingles[first.id, part.name], shingles[second.id, part.name]
            score = compute_containment(a, b)
            if score:
                passage = compute_longest_shared_passage(words[first.id, part.name], b, size)
                overlaps.append(Overlap(first, second, part.name, score, passage))
    return sorted(overlaps, key=lambda o: (-o.score, o.first.id, o.second.id, o.part))


def find_repeated_cards(cards: Sequence[Card], threshold: float = REPEAT_THRESHOLD) -> list[Overlap]:
    """The pairs of cards that share at least ``threshold`` of a compared part, highest first."""
    return [overlap for overlap in compute_overlaps(cards) if overlap.score >= threshold]
