"""What the study pages show of an item and a user's state for it, and which items they offer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from quizapp import puzzles
from quizapp.models import Card, User
from quizapp.services.bank_import import compute_skill_rows

# Rows the use cases hand to the pages as they are: a card's page renders its Card, and a login
# is made for the account (a User) that registering or authenticating returned. The web layer
# names them from here; it does not import quizapp.models.
BankCard = Card
Account = User

# The keys of the puzzle skills this code can generate, as the bank import writes them. The
# database can hold others: in a rolling deploy the new code's `content load` adds its new
# families while instances on the old code still serve; those leave the new skills out of their
# queue (and counts) until they are replaced, instead of failing on every study page.
SKILL_KEYS = frozenset(row["key"] for row in compute_skill_rows(puzzles.families()))


@dataclass(frozen=True)
class StudyItem:
    """What a study page shows of an item. Card-only and skill-only fields are None otherwise."""

    id: int
    kind: str  # "card" or "skill"
    key: str
    title: str
    level: str
    retired: bool
    importance: str | None = None  # cards
    question: str | None = None  # cards
    content_hash: str | None = None  # cards: names one version of the card's text
    family: str | None = None  # skills

    @property
    def is_card(self) -> bool:
        return self.kind == "card"

    @property
    def is_skill(self) -> bool:
        return self.kind == "skill"


@dataclass(frozen=True)
class ItemState:
    """A user's scheduling state for one item: the FSRS state dict, its version and timing."""

    id: int
    version: int
    state: dict[str, Any]
    due: datetime
    last_reviewed_at: datetime | None
    learning: bool  # in learning or relearning steps (not held by the daily review limit)


class ItemFacts(Protocol):
    """What is_offered reads of an item: a StudyItem, an Item, Card or Skill, or a row."""

    @property
    def retired(self) -> bool: ...
    @property
    def kind(self) -> str: ...
    @property
    def key(self) -> str: ...


def is_offered(item: ItemFacts) -> bool:
    """OFFERED, for an item already read (a StudyItem, or an Item, Card or Skill row)."""
    return not item.retired and (item.kind != "skill" or item.key in SKILL_KEYS)
