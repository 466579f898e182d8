"""Browsing the question bank: filters by level, concept, importance and text, with pages."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, load_only, selectinload

from quizapp.models import Card, Concept, ItemConcept
from quizapp.services.bank_import import IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.card_search import (
    Term,
    compute_search_condition,
    compute_title_rank,
    count_matching,
    suggest_search,
)
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.paging import check_page_number, count_pages
from quizapp.services.search_text import compute_search_terms
from quizapp.services.study_items import CARD, ITEM

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
    suggestion: str | None = None  # a search that found nothing: the query spelled as the bank
    wider: int = 0  # a search that found nothing here: how many it finds in every level, concept


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


def compute_card_conditions(filters: CardFilters, terms: list[Term]) -> tuple[list, list]:
    """The WHERE terms of ``filters`` (``terms``: its search text read by compute_search_terms):
    those on the item table alone, and those that also read the card table's columns (the
    count joins card only for these)."""
    on_item = [ITEM.c.kind == "card", ITEM.c.retired.is_(False)]
    on_card = []
    if filters.level:
        on_item.append(ITEM.c.level == filters.level)
    if filters.importance:
        on_card.append(CARD.c.importance == filters.importance)
    if filters.concept:
        on_item.append(ITEM.c.id.in_(
            select(ItemConcept.item_id).where(ItemConcept.concept == filters.concept)))
    if terms:
        on_card.append(compute_search_condition(terms))
    elif filters.text.strip():  # punctuation only ("()", "%"): as typed, in titles and questions
        pattern = f"%{escape_like(filters.text.strip())}%"
        on_card.append(or_(ITEM.c.title.ilike(pattern, escape="\\"),
                           CARD.c.question.ilike(pattern, escape="\\")))
    return on_item, on_card


def list_cards(session: Session, filters: CardFilters) -> CardPage:
    """Active cards matching every given filter: with search words, those with every word in
    the title first; then in the bank's order (level, importance, then its own)."""
    validate_filters(session, filters)
    terms = compute_search_terms(filters.text)
    on_item, on_card = compute_card_conditions(filters, terms)
    # Counted on the item table alone where the filters allow: joining card reads each card's
    # text (several KB), which made the count 10x the page query on a 5,000-card bank.
    counted = ITEM.join(CARD, CARD.c.item_id == ITEM.c.id) if on_card else ITEM
    total = session.scalar(
        select(func.count()).select_from(counted).where(*on_item, *on_card)) or 0
    pages = count_pages(total, PER_PAGE)
    page = min(filters.page, pages)
    # A search lists the cards whose title holds every term first (the bank's own order
    # within each part); without one, level then importance, as the study queue takes them.
    order = [compute_title_rank(terms)] if terms else []
    cards = list(session.scalars(
        select(Card).where(*on_item, *on_card)
        .options(load_only(Card.key, Card.title, Card.level, Card.importance, Card.new_order),
                 selectinload(Card.concepts))
        .order_by(*order, Card.new_order, Card.key)
        .offset((page - 1) * PER_PAGE).limit(PER_PAGE)))
    if total or not terms:
        return CardPage(cards, total, page, pages)
    narrowed = filters.level or filters.concept or filters.importance
    return CardPage(cards, total, page, pages, suggest_search(session, terms),
                    count_matching(session, terms) if narrowed else 0)


def load_card(session: Session, key: str) -> Card:
    """A card by its id (retired cards still open: old links and history point at them)."""
    # With the kind, the (kind, key) unique index finds it; the key alone scans the items.
    card = session.scalar(select(Card).where(Card.kind == "card", Card.key == key[:200]))
    if card is None:
        raise NotFound("There is no question with that id.")
    return card
