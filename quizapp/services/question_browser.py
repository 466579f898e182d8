"""Browsing the question bank: filters by level, concept, importance and text, with pages."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, load_only, selectinload

from quizapp.models import Card, Concept, ItemConcept
from quizapp.services.bank_import import IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.paging import check_page_number, count_pages

PER_PAGE = 25
TEXT_MAX = 100


@dataclass(frozen=True)
class CardFilters:
    level: str = ""
    concept: str = ""
    importance: str = ""
    text: str = ""
    page: int = 1


@dataclass(frozen=True)
class CardPage:
    cards: list[Card]
    total: int
    page: int
    pages: int


def list_concepts(session: Session) -> list[Concept]:
    return list(session.scalars(select(Concept).order_by(Concept.tag)))


def validate_filters(session: Session, filters: CardFilters) -> None:
    if filters.level and filters.level not in LEVEL_ORDER:
        raise ServiceError(f"Unknown level {filters.level[:40]!r}: use {', '.join(LEVEL_ORDER)}.")
    if filters.importance and filters.importance not in IMPORTANCE_ORDER:
        raise ServiceError(
            f"Unknown importance {filters.importance[:40]!r}: use {', '.join(IMPORTANCE_ORDER)}.")
    if filters.concept and session.get(Concept, filters.concept[:80]) is None:
        raise ServiceError(f"Unknown concept {filters.concept[:40]!r}: pick one from the list.")
    if len(filters.text) > TEXT_MAX:
        raise ServiceError(f"Search text is at most {TEXT_MAX} characters.")
    check_page_number(filters.page)


def escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def list_cards(session: Session, filters: CardFilters) -> CardPage:
    """Active cards matching every given filter, in level then importance then title order."""
    validate_filters(session, filters)
    query = select(Card).where(Card.retired.is_(False))
    if filters.level:
        query = query.where(Card.level == filters.level)
    if filters.importance:
        query = query.where(Card.importance == filters.importance)
    if filters.concept:
        query = query.where(Card.id.in_(
            select(ItemConcept.item_id).where(ItemConcept.concept == filters.concept)))
    if filters.text.strip():
        pattern = f"%{escape_like(filters.text.strip())}%"
        query = query.where(or_(Card.title.ilike(pattern, escape="\\"),
                                Card.question.ilike(pattern, escape="\\")))
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    pages = count_pages(total, PER_PAGE)
    page = min(filters.page, pages)
    cards = list(session.scalars(query.options(
        load_only(Card.key, Card.title, Card.level, Card.importance, Card.new_order),
        selectinload(Card.concepts))
                                 .order_by(Card.new_order, Card.key)
                                 .offset((page - 1) * PER_PAGE).limit(PER_PAGE)))
    return CardPage(cards, total, page, pages)


def load_card(session: Session, key: str) -> Card:
    """A card by its id (retired cards still open: old links and history point at them)."""
    card = session.scalar(select(Card).where(Card.key == key[:200]))
    if card is None:
        raise NotFound("There is no question with that id.")
    return card
