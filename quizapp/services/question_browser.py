"""Browsing the question bank: filters by level, concept, importance and text, with pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, or_, select
from sqlalchemy.orm import Session, load_only, selectinload

from quizapp import srs
from quizapp.models import Card, Concept, ItemConcept, Review
from quizapp.services.bank_import import FREQUENCY_ORDER, IMPORTANCE_ORDER, LEVEL_ORDER
from quizapp.services.errors import NotFound, ServiceError
from quizapp.services.paging import check_page_number, count_pages
from quizapp.services.store.card_search import (
    Term,
    compute_search_condition,
    compute_title_rank,
    count_matching,
    suggest_search,
)
from quizapp.services.store.search_text import compute_search_terms
from quizapp.services.store.study_items import CARD, ITEM, STATE, SUSPENSION, select_suspended
from quizapp.services.users import StudyUser

_REVIEW = Review.__table__
PER_PAGE = 25
TEXT_MAX = 100
# The list's orders (?sort=), as the order menu names them: the bank's own order (the order
# the study queue introduces cards in), titles from A to Z, the most often asked first.
SORTS = {"": "Study order", "title": "Title, A to Z", "asked": "Most asked first"}
# A signed-in person's own filter (?mine=): cards by where they stand with them.
MINE = {"": "Any progress", "new": "Not studied before today", "studied": "Studied",
        "due": "Due now", "suspended": "Suspended"}


@dataclass(frozen=True)
class CardFilters:
    level: str = ""
    concept: str = ""
    importance: str = ""
    text: str = ""
    page: int = 1
    sort: str = ""
    mine: str = ""  # MINE: read only with a user (list_cards' ``user_id``)


@dataclass(frozen=True)
class CardPage:
    cards: list[Card]
    total: int
    page: int
    pages: int
    suggestion: str | None = None  # a search that found nothing: the query spelled as the bank
    wider: int = 0  # a search that found nothing here: how many it finds in every level, concept
    # With a user: their state of each listed card they have studied (card id -> progress).
    progress: dict[int, CardProgress] | None = None


@dataclass(frozen=True)
class CardProgress:
    due: datetime | None  # when the card is next due for this user (None: never rated)
    suspended: bool = False  # taken out of their reviews (services.suspensions)


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
    if filters.sort not in SORTS:
        raise ServiceError(f"Unknown order {filters.sort[:40]!r}: use "
                           f"{', '.join(sort for sort in SORTS if sort)}, or none.")
    if filters.mine not in MINE:
        raise ServiceError(f"Unknown progress filter {filters.mine[:40]!r}: use "
                           f"{', '.join(mine for mine in MINE if mine)}, or none.")
    if len(filters.text) > TEXT_MAX:
        raise ServiceError(f"Search text is at most {TEXT_MAX} characters.")
    check_page_number(filters.page)


def escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class Viewer:
    """A signed-in person reading the list at ``now``: whose progress it shows and filters."""

    user_id: int
    now: datetime
    day_start: datetime  # the start of their study day ("not studied before today")


def compute_viewer(user: StudyUser, now: datetime) -> Viewer:
    day_start, _ = srs.compute_study_day(now, srs.compute_user_zone(user))
    return Viewer(user.id, now, day_start)


def select_own_state(user_id: int):
    """The user's state row of the listed item (a correlated subquery on ITEM)."""
    return select(STATE.c.id).where(STATE.c.user_id == user_id, STATE.c.item_id == ITEM.c.id)


def compute_mine_condition(mine: str, viewer: Viewer):
    """The cards the viewer had not rated before today (a card first rated today stays in its
    list through its learning steps, here and while the list is studied: were it dropped once
    rated, an Again would take it out of the list for good), has studied, has due now (a
    suspended card is not due), or suspended."""
    if mine == "suspended":
        return select_suspended(viewer.user_id)
    if mine == "new":
        return ~select(_REVIEW.c.id).where(_REVIEW.c.user_id == viewer.user_id,
                                           _REVIEW.c.item_id == ITEM.c.id,
                                           _REVIEW.c.reviewed_at < viewer.day_start).exists()
    state = select_own_state(viewer.user_id)
    if mine == "due":
        return state.where(STATE.c.due <= viewer.now).exists() & ~select_suspended(viewer.user_id)
    return state.exists()


def compute_card_conditions(filters: CardFilters, terms: list[Term],
                            viewer: Viewer | None = None) -> tuple[list, list]:
    """The WHERE terms of ``filters`` (``terms``: its search text read by compute_search_terms):
    those on the item table alone, and those that also read the card table's columns (the
    count joins card only for these). ``filters.mine`` is read only with a ``viewer``."""
    on_item = [ITEM.c.kind == "card", ITEM.c.retired.is_(False)]
    if filters.mine and viewer is not None:
        on_item.append(compute_mine_condition(filters.mine, viewer))
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


def compute_card_order(filters: CardFilters, terms: list[Term]) -> list:
    """ORDER BY of the list: by title, or the most asked first (then the bank's order); else,
    with search words, the cards with every word in the title first, then the bank's order
    (level, importance, then its own)."""
    if filters.sort == "title":
        return [func.lower(Card.title), Card.key]
    if filters.sort == "asked":
        # FREQUENCY_ORDER is the most common first: its index is the rank.
        asked = case({name: rank for rank, name in enumerate(FREQUENCY_ORDER)},
                     value=Card.frequency, else_=len(FREQUENCY_ORDER))
        return [asked, Card.new_order, Card.key]
    return [*([compute_title_rank(terms)] if terms else []), Card.new_order, Card.key]


def list_cards(session: Session, filters: CardFilters, *,
               viewer: Viewer | None = None) -> CardPage:
    """Active cards matching every given filter, in the order ``filters.sort`` names
    (compute_card_order); with a ``viewer``, their progress filter is applied and their
    progress with each listed card read."""
    validate_filters(session, filters)
    terms = compute_search_terms(filters.text)
    on_item, on_card = compute_card_conditions(filters, terms, viewer)
    # Counted on the item table alone where the filters allow: joining card reads each card's
    # text (several KB), which made the count 10x the page query on a 5,000-card bank.
    counted = ITEM.join(CARD, CARD.c.item_id == ITEM.c.id) if on_card else ITEM
    total = session.scalar(
        select(func.count()).select_from(counted).where(*on_item, *on_card)) or 0
    pages = count_pages(total, PER_PAGE)
    page = min(filters.page, pages)
    cards = list(session.scalars(
        select(Card).where(*on_item, *on_card)
        .options(load_only(Card.key, Card.title, Card.level, Card.importance, Card.frequency,
                           Card.new_order),
                 selectinload(Card.concepts))
        .order_by(*compute_card_order(filters, terms))
        .offset((page - 1) * PER_PAGE).limit(PER_PAGE)))
    progress = None if viewer is None else list_progress(session, viewer.user_id, cards)
    if total or not terms:
        return CardPage(cards, total, page, pages, progress=progress)
    narrowed = filters.level or filters.concept or filters.importance or filters.mine
    return CardPage(cards, total, page, pages, suggest_search(session, terms),
                    count_matching(session, terms) if narrowed else 0, progress)


def list_progress(session: Session, user_id: int, cards: list[Card]) -> dict[int, CardProgress]:
    """The user's progress with each of ``cards`` they have studied or suspended (at most a
    page of them)."""
    if not cards:
        return {}
    ids = [card.id for card in cards]
    due = {row.item_id: row.due for row in session.execute(select(STATE.c.item_id, STATE.c.due)
           .where(STATE.c.user_id == user_id, STATE.c.item_id.in_(ids)))}
    suspended = set(session.scalars(select(SUSPENSION.c.item_id).where(
        SUSPENSION.c.user_id == user_id, SUSPENSION.c.item_id.in_(ids))))
    return {item_id: CardProgress(due.get(item_id), item_id in suspended)
            for item_id in due.keys() | suspended}


def list_current_cards(session: Session) -> list[Card]:
    """Every card the bank holds now (not retired), in the order new cards are studied."""
    return list(session.scalars(select(Card).where(Card.retired.is_(False))
                                .order_by(Card.new_order, Card.id)))


def load_card(session: Session, key: str) -> Card:
    """A card by its id (retired cards still open: old links and history point at them)."""
    # With the kind, the (kind, key) unique index finds it; the key alone scans the items.
    card = session.scalar(select(Card).where(Card.kind == "card", Card.key == key[:200]))
    if card is None:
        raise NotFound("There is no question with that id.")
    return card
