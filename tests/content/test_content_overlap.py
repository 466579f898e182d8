"""No two cards of the real bank repeat each other: word-shingle overlap stays below the threshold."""

from __future__ import annotations

import dataclasses

import pytest

from quizapp.content import default_content_root, load_cards
from quizapp.content.overlap import (
    REPEAT_THRESHOLD,
    canonicalize_words,
    compute_containment,
    compute_longest_shared_passage,
    compute_overlaps,
    compute_shingles,
    find_repeated_cards,
)


@pytest.fixture(scope="module")
def cards():
    return load_cards(default_content_root())


def change_every_nth_word(text: str, n: int) -> str:
    """The text with every ``n``-th word replaced: a copy someone touched up by hand."""
    return " ".join(f"changed{i}" if i % n == n - 1 else word
                    for i, word in enumerate(canonicalize_words(text)))


def test_no_two_cards_repeat_each_other(cards):
    repeated = find_repeated_cards(cards)
    assert not repeated, (
        f"{len(repeated)} pair(s) of cards at or above {REPEAT_THRESHOLD:.0%} overlap: "
        "rewrite one in its own words, merge them, or retire one\n"
        + "\n".join(str(overlap) for overlap in repeated))


def test_a_touched_up_copy_of_a_solid_answer_is_reported_with_its_pair(cards):
    original = next(card for card in cards if card.id == "select-narrow-storage-offset")
    copy = dataclasses.replace(original, id="copied-card", title="Another title",
                               question="A different question about rows?",
                               basics="Different short answer entirely.",
                               solid=change_every_nth_word(original.solid, 6))
    repeated = find_repeated_cards([*cards, copy])
    assert [(o.first.id, o.second.id, o.part) for o in repeated] == [
        ("copied-card", "select-narrow-storage-offset", "Solid")]
    assert REPEAT_THRESHOLD <= repeated[0].score < 0.5
    message = str(repeated[0])
    assert message.startswith("copied-card (junior) and select-narrow-storage-offset (junior) share ")
    assert "of their Solid 4-word runs" in message
    assert repeated[0].passage and repeated[0].passage in " ".join(canonicalize_words(original.solid))


def test_a_copied_question_and_basics_are_reported_even_with_a_new_solid(cards):
    original = next(card for card in cards if card.id == "unbind-pieces-offsets")
    copy = dataclasses.replace(original, id="copied-card", solid="An answer of its own words here.")
    repeated = find_repeated_cards([*cards, copy])
    assert [(o.second.id, o.part, round(o.score, 2)) for o in repeated] == [
        ("unbind-pieces-offsets", "Question + Basics", 1.0)]


def test_a_heavily_rewritten_answer_is_not_a_repeat(cards):
    # Every third word changed leaves no 4-word run intact: that is a new text, not a copy.
    original = next(card for card in cards if card.id == "select-narrow-storage-offset")
    copy = dataclasses.replace(original, id="copied-card", question="Q?", basics="B.",
                               solid=change_every_nth_word(original.solid, 3))
    assert find_repeated_cards([*cards, copy]) == []


def test_containment_counts_against_the_smaller_text():
    long = compute_shingles(canonicalize_words("one two three four five six seven eight nine ten"))
    short = compute_shingles(canonicalize_words("Five, six; SEVEN eight nine!"))
    assert compute_containment(set(short), set(long)) == 1.0
    assert compute_containment(set(long), set(short)) == 1.0
    assert compute_containment(set(), set(long)) == 0.0


def test_the_longest_shared_passage_is_the_longest_run():
    words = canonicalize_words("a b c d x e f g h i x a b c")
    other = set(compute_shingles(canonicalize_words("e f g h i z a b c d")))
    assert compute_longest_shared_passage(words, other) == "e f g h i"


def test_overlaps_are_sorted_highest_first(cards):
    scores = [overlap.score for overlap in compute_overlaps(cards[:12])]
    assert scores == sorted(scores, reverse=True)
