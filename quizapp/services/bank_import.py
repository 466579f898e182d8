"""Import the question bank and puzzle skills: keyed by id, updated in place, retired not deleted."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from quizapp.content import FREQUENCY, IMPORTANCE, LEVELS
from quizapp.content import Card as ContentCard
from quizapp.models import Card, Concept, Item, ItemConcept, Skill
from quizapp.services.errors import ServiceError
from quizapp.services.store.search_text import compute_search_text, compute_spaced_text

# The bank's own vocabulary (quizapp.content), in the order new items are introduced.
LEVEL_ORDER = LEVELS
IMPORTANCE_ORDER = IMPORTANCE
FREQUENCY_ORDER = tuple(reversed(FREQUENCY))  # the most common first
# New items are introduced level by level; within a level one skill follows every N cards.
CARDS_PER_SKILL = 3


@dataclass
class ImportReport:
    """Keys touched by one import, by what happened to them."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return ", ".join(f"{len(getattr(self, name))} {name}" for name in
                         ("added", "updated", "unchanged", "retired", "restored"))


def compute_card_fields(card: ContentCard) -> dict:
    """The stored columns of a card (JSON-friendly)."""
    return {
        "title": card.title, "level": card.level, "importance": card.importance,
        "frequency": card.frequency, "question": card.question, "basics": card.basics,
        "solid": card.solid, "code": card.code, "code_output": card.code_output,
        "go_deeper": [list(pair) for pair in card.go_deeper],
        "follow_ups": [asdict(follow_up) for follow_up in card.follow_ups],
        "red_flags": list(card.red_flags), "source_path": card.source_path,
    }


def compute_content_hash(fields: Mapping, concepts: Sequence[str]) -> str:
    payload = json.dumps({"fields": fields, "concepts": sorted(concepts)}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def validate_unique_keys(keys: Sequence[str], what: str) -> None:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ServiceError(f"{what} {key!r} appears twice in one import")
        seen.add(key)
    if not seen:
        raise ServiceError(f"no {what}s given: refusing to retire every {what} in the database")


def set_concepts(item: Item, tags: Sequence[str]) -> None:
    wanted = sorted(set(tags))
    if item.concept_tags != wanted:
        item.concepts = [ItemConcept(concept=tag) for tag in wanted]


def retire_missing(existing: Mapping[str, Item], present: set[str], now: datetime,
                   report: ImportReport) -> None:
    """Items no longer in the source stay (their reviews point at them) but stop being studied."""
    for key, item in existing.items():
        if key not in present and not item.retired:
            item.retired, item.retired_at, item.updated_at = True, now, now
            report.retired.append(key)


def sync_cards(session: Session, cards: Sequence[ContentCard], now: datetime) -> ImportReport:
    """Add, update, restore and retire cards; review history is never touched.  No commit."""
    validate_unique_keys([card.id for card in cards], "card")
    report = ImportReport()
    existing = {card.key: card for card in session.scalars(select(Card))}
    for source in cards:
        fields = compute_card_fields(source)
        digest = compute_content_hash(fields, source.concepts)
        # Derived, so outside the hash.
        fields["search_text"] = compute_search_text(fields, source.concepts)
        fields["search_title"] = compute_spaced_text(fields["title"])
        card = existing.get(source.id)
        if card is None:
            card = Card(key=source.id, created_at=now, updated_at=now, content_hash=digest, **fields)
            session.add(card)
            set_concepts(card, source.concepts)
            report.added.append(source.id)
            continue
        # Each key is counted once: a card back in the bank is "restored", changed or not.
        restored = card.retired
        if restored:
            card.retired, card.retired_at, card.updated_at = False, None, now
            report.restored.append(source.id)
        if card.content_hash == digest:
            if not restored:
                report.unchanged.append(source.id)
            continue
        for name, value in fields.items():
            setattr(card, name, value)
        set_concepts(card, source.concepts)
        card.content_hash, card.updated_at = digest, now
        if not restored:
            report.updated.append(source.id)
    retire_missing(existing, {card.id for card in cards}, now, report)
    return report


def compute_skill_rows(families: Sequence[Mapping]) -> list[dict]:
    """One skill per (family, level) the puzzles package offers."""
    rows = []
    for family in families:
        for level in family["levels"]:
            rows.append({
                "key": f"{family['id']}/{level}", "family": family["id"], "level": level,
                "title": f"{family['title']} ({level})", "concepts": list(family["concepts"]),
            })
    return rows


def sync_skills(session: Session, families: Sequence[Mapping], now: datetime) -> ImportReport:
    """Add, update, restore and retire puzzle skills.  No commit."""
    rows = compute_skill_rows(families)
    validate_unique_keys([row["key"] for row in rows], "skill")
    report = ImportReport()
    existing = {skill.key: skill for skill in session.scalars(select(Skill))}
    for row in rows:
        skill = existing.get(row["key"])
        if skill is None:
            skill = Skill(key=row["key"], family=row["family"], level=row["level"],
                          title=row["title"], created_at=now, updated_at=now)
            session.add(skill)
            set_concepts(skill, row["concepts"])
            report.added.append(row["key"])
            continue
        restored = skill.retired
        if restored:
            skill.retired, skill.retired_at, skill.updated_at = False, None, now
            report.restored.append(row["key"])
        if skill.title == row["title"] and skill.concept_tags == sorted(set(row["concepts"])):
            if not restored:
                report.unchanged.append(row["key"])
            continue
        skill.title, skill.updated_at = row["title"], now
        set_concepts(skill, row["concepts"])
        if not restored:
            report.updated.append(row["key"])
    retire_missing(existing, {row["key"] for row in rows}, now, report)
    return report


def sync_concepts(session: Session, concepts: Mapping[str, str]) -> None:
    """Concept descriptions mirror concepts.yaml (tags on items are plain strings).  No commit."""
    existing = {concept.tag: concept for concept in session.scalars(select(Concept))}
    for tag, description in concepts.items():
        if tag in existing:
            existing[tag].description = description
        else:
            session.add(Concept(tag=tag, description=description))
    for tag, concept in existing.items():
        if tag not in concepts:
            session.delete(concept)


def compute_card_rank(card: Card) -> tuple:
    return (_rank(IMPORTANCE_ORDER, card.importance), _rank(FREQUENCY_ORDER, card.frequency),
            card.key)


def _rank(order: Sequence[str], value: str) -> int:
    return order.index(value) if value in order else len(order)


def renumber_new_order(session: Session) -> None:
    """Introduce items level by level, important cards first, a skill after every few cards."""
    session.flush()
    items = session.scalars(select(Item).where(Item.retired.is_(False))).all()
    position = 0
    for level in sorted({item.level for item in items}, key=lambda lv: _rank(LEVEL_ORDER, lv)):
        cards = sorted((i for i in items if isinstance(i, Card) and i.level == level),
                       key=compute_card_rank)
        skills = sorted((i for i in items if isinstance(i, Skill) and i.level == level),
                        key=lambda s: s.key)
        merged: list[Item] = []
        while cards or skills:
            merged.extend(cards[:CARDS_PER_SKILL])
            del cards[:CARDS_PER_SKILL]
            if skills:
                merged.append(skills.pop(0))
        for item in merged:
            position += 1
            if item.new_order != position:
                item.new_order = position


def import_cards(session: Session, cards: Sequence[ContentCard], now: datetime) -> ImportReport:
    """Import the question bank alone (commits)."""
    report = sync_cards(session, cards, now)
    renumber_new_order(session)
    session.commit()
    return report


def compute_unknown_family_concepts(families: Sequence[Mapping],
                                    concepts: Mapping[str, str]) -> list[str]:
    """One sentence per puzzle family tagged with a concept concepts.yaml does not list (a
    card's tags are checked when the card is read; a family's are written in code)."""
    return [f"puzzle family {family['id']!r} is tagged with {', '.join(unknown)}, which "
            f"concepts.yaml does not list; add the concept there or fix the family's tags"
            for family in families
            if (unknown := sorted(set(family["concepts"]) - set(concepts)))]


def validate_family_concepts(families: Sequence[Mapping], concepts: Mapping[str, str]) -> None:
    """ServiceError naming the first family compute_unknown_family_concepts finds."""
    if unknown := compute_unknown_family_concepts(families, concepts):
        raise ServiceError(f"{unknown[0]}. Nothing was imported.")


def load_bank(
    session: Session, cards: Sequence[ContentCard], concepts: Mapping[str, str],
    families: Sequence[Mapping], now: datetime,
) -> dict[str, ImportReport]:
    """Cards, concepts and skills in one transaction: all of it lands, or none (commits)."""
    validate_family_concepts(families, concepts)
    try:
        reports = {"cards": sync_cards(session, cards, now),
                   "skills": sync_skills(session, families, now)}
        sync_concepts(session, concepts)
        renumber_new_order(session)
    except Exception:
        session.rollback()
        raise
    session.commit()
    return reports


def import_concepts(session: Session, concepts: Mapping[str, str]) -> None:
    """Replace the concept descriptions alone (commits)."""
    sync_concepts(session, concepts)
    session.commit()
