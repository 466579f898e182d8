"""The cards a set is drawn from (BankCard, Bank), whether read from content/ or the database."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from quizapp.content.model import Card
from quizapp.puzzles import families


@dataclass(frozen=True, slots=True)
class BankCard:
    """One card as a set shows it: its question, the short answer (the card's "Basics"), the
    longer one as explanation ("Solid") and its code sample with the output it prints.

    ``id`` is the card's stable id; a retired card is never drawn into a new set but still
    resolves in a set that holds it.
    """

    id: str
    title: str
    level: str
    concepts: tuple[str, ...]
    question: str
    answer: str
    explanation: str
    code: str = ""
    code_output: str = ""
    retired: bool = False


@dataclass(frozen=True, slots=True)
class Bank:
    """Every card a set may name (retired ones included) and the concept tags known."""

    cards: tuple[BankCard, ...]
    concepts: frozenset[str]
    _by_id: dict[str, BankCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {card.id: card for card in self.cards})

    def card(self, card_id: str) -> BankCard | None:
        return self._by_id.get(card_id)


def card_from_content(card: Card, *, retired: bool = False) -> BankCard:
    """A card loaded from content/cards/ (quizapp.content) as a set shows it."""
    return BankCard(id=card.id, title=card.title, level=card.level,
                    concepts=tuple(card.concepts), question=card.question, answer=card.basics,
                    explanation=card.solid, code=card.code, code_output=card.code_output,
                    retired=retired)


def build_bank(cards: Iterable[BankCard], concepts: Collection[str]) -> Bank:
    """A Bank of ``cards`` (sorted by id) knowing ``concepts`` and every tag the cards and
    the puzzle families carry."""
    ordered = tuple(sorted(cards, key=lambda c: c.id))
    known = (frozenset(concepts) | {tag for card in ordered for tag in card.concepts}
             | {tag for family in families() for tag in family["concepts"]})
    return Bank(cards=ordered, concepts=known)
