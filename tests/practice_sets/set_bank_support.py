"""A small made-up bank for practice-set tests, and the real one from content/."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from quizapp.content import load_cards, load_concepts
from quizapp.practice_sets import Bank, BankCard, SetParams, build_bank, card_from_content

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
LEVEL_CYCLE = ("junior", "middle", "senior", "principal")
CONCEPT_CYCLE = (("stride",), ("view", "view-rule"), ("contiguity",), ("storage-offset", "stride"))


def make_card(number: int, **changes) -> BankCard:
    fields = dict(
        id=f"card-{number:03d}", title=f"Card {number}", level=LEVEL_CYCLE[number % 4],
        concepts=CONCEPT_CYCLE[number % 4], question=f"Question {number}?",
        answer=f"Answer {number}.", explanation=f"Because {number}.",
        code=f"print({number})", code_output=str(number))
    fields.update(changes)
    return BankCard(**fields)


def small_bank(n: int = 24, **changes) -> Bank:
    return build_bank([make_card(i, **changes) for i in range(n)], set())


@lru_cache(maxsize=1)
def real_bank() -> Bank:
    cards = [card_from_content(card) for card in load_cards(CONTENT)]
    return build_bank(cards, load_concepts(CONTENT))


def params(**fields) -> SetParams:
    fields.setdefault("count", 10)
    fields.setdefault("seed", 1)
    return SetParams(**fields)
