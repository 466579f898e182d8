"""The real question bank in content/: it loads, is big enough and covers every concept."""

from __future__ import annotations

from collections import Counter

import pytest

from quizapp.content import LEVELS, default_content_root, load_cards, load_concepts

MIN_CARDS = 64
MIN_PER_LEVEL = 12


@pytest.fixture(scope="module")
def cards():
    return load_cards(default_content_root())


def test_bank_loads_without_problems(cards):
    assert cards, "content/cards holds no cards"


def test_bank_has_enough_cards_at_every_level(cards):
    per_level = Counter(card.level for card in cards)
    assert len(cards) >= MIN_CARDS, f"{len(cards)} cards"
    short = {level: per_level[level] for level in LEVELS if per_level[level] < MIN_PER_LEVEL}
    assert not short, f"levels below {MIN_PER_LEVEL} cards: {short}"


def test_every_concept_is_covered(cards):
    concepts = load_concepts(default_content_root())
    used = {tag for card in cards for tag in card.concepts}
    assert sorted(set(concepts) - used) == []


def test_ids_are_unique_and_match_file_names(cards):
    counts = Counter(card.id for card in cards)
    assert [card_id for card_id, n in counts.items() if n > 1] == []
    assert all(card.source_path == f"cards/{card.id}.md" for card in cards)


def test_every_card_is_complete(cards):
    for card in cards:
        assert len(card.follow_ups) >= 2 and len(card.red_flags) >= 2, card.id
        assert [level for level, _ in card.go_deeper] == list(LEVELS), card.id
        assert card.code.strip() and card.code_output.strip(), card.id
