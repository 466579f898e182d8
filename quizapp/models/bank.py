"""What can be studied: question cards and puzzle skills, both kinds of ``Item``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from quizapp.content.limits import KEY_MAX, SOURCE_PATH_MAX, TAG_MAX, TITLE_MAX
from quizapp.extensions import db


class Item(db.Model):
    """A schedulable thing; ``kind`` says whether it is a card or a puzzle skill."""

    __tablename__ = "item"
    __table_args__ = (
        UniqueConstraint("kind", "key"),
        # The study queue's next new item: active items in (new_order, id) order, unsorted.
        Index("ix_item_retired_new_order_id", "retired", "new_order", "id"),
        # The items on offer (study_items.OFFERED) counted from the index alone.
        Index("ix_item_retired_kind_key", "retired", "kind", "key"),
    )
    # Every Item query joins card and skill at once: one round trip instead of one per kind.
    __mapper_args__ = {"polymorphic_on": "kind", "polymorphic_identity": "item",
                       "with_polymorphic": "*"}

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(KEY_MAX))  # card id, or "family/level" for a skill
    title: Mapped[str] = mapped_column(String(TITLE_MAX))
    level: Mapped[str] = mapped_column(String(16))
    # Position among new items: lower is introduced first.
    new_order: Mapped[int] = mapped_column(default=0)
    retired: Mapped[bool] = mapped_column(default=False)
    retired_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    concepts: Mapped[list[ItemConcept]] = relationship(
        back_populates="item", cascade="all, delete-orphan", order_by="ItemConcept.concept")

    @property
    def concept_tags(self) -> list[str]:
        return [link.concept for link in self.concepts]


class Card(Item):
    """A question from the bank (content/cards/<key>.md)."""

    __tablename__ = "card"
    __mapper_args__ = {"polymorphic_identity": "card"}

    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"), primary_key=True)
    importance: Mapped[str] = mapped_column(String(16))
    frequency: Mapped[str] = mapped_column(String(16))
    question: Mapped[str] = mapped_column(Text)
    basics: Mapped[str] = mapped_column(Text)
    solid: Mapped[str] = mapped_column(Text)
    code: Mapped[str] = mapped_column(Text)
    code_output: Mapped[str] = mapped_column(Text)
    go_deeper: Mapped[list[Any]] = mapped_column(JSON)  # [[level, markdown], ...]
    follow_ups: Mapped[list[Any]] = mapped_column(JSON)  # [{"question", "answer"}, ...]
    red_flags: Mapped[list[Any]] = mapped_column(JSON)  # [markdown, ...]
    source_path: Mapped[str] = mapped_column(String(SOURCE_PATH_MAX))
    content_hash: Mapped[str] = mapped_column(String(64))
    # Everything the card shows, and its title alone, as search reads them (services.store.search_text).
    search_text: Mapped[str] = mapped_column(Text, default="", server_default="")
    search_title: Mapped[str] = mapped_column(Text, default="", server_default="")


class Skill(Item):
    """A puzzle family at one level; each review generates a fresh puzzle."""

    __tablename__ = "skill"
    __mapper_args__ = {"polymorphic_identity": "skill"}

    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"), primary_key=True)
    family: Mapped[str] = mapped_column(String(TAG_MAX))


class ItemConcept(db.Model):
    """A concept tag on an item (the question browser filters on these)."""

    __tablename__ = "item_concept"

    item_id: Mapped[int] = mapped_column(ForeignKey("item.id", ondelete="CASCADE"), primary_key=True)
    concept: Mapped[str] = mapped_column(String(TAG_MAX), primary_key=True, index=True)

    item: Mapped[Item] = relationship(back_populates="concepts")


class Concept(db.Model):
    """A concept tag and its description, from content/concepts.yaml."""

    __tablename__ = "concept"

    tag: Mapped[str] = mapped_column(String(TAG_MAX), primary_key=True)
    description: Mapped[str] = mapped_column(Text)
