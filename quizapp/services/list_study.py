"""Studying a question list ("Study these"): its new and due cards, one at a time, in its order."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from quizapp.models import User
from quizapp.services.question_browser import (
    CardFilters,
    compute_card_conditions,
    compute_card_order,
    validate_filters,
)
from quizapp.services.search_text import compute_search_terms
from quizapp.services.study_items import CARD, ITEM, STATE, load_item_and_state
from quizapp.services.study_queue import QueueView, compute_status


@dataclass(frozen=True)
class ListStudy:
    """The list's next card to study (``view.item``, None when none is left) and how many of
    its cards are new or due, that one included."""

    view: QueueView
    left: int
    next_due: datetime | None = None  # none left: when the list's next card falls due


def compute_to_study_condition(user_id: int, now: datetime):
    """Cards ``user_id`` has never studied or has due at ``now``: those without a state due
    later (learning steps included, as in Anki's filtered decks)."""
    return ~select(STATE.c.id).where(STATE.c.user_id == user_id, STATE.c.item_id == ITEM.c.id,
                                     STATE.c.due > now).exists()


def compute_list_study(session: Session, user: User, now: datetime,
                       filters: CardFilters) -> ListStudy:
    """The first card of the list ``filters`` selects, in the list's order, that is new or due
    for ``user``, with the status bar's view; ServiceError on filters the list would refuse.
    The daily limits do not hold it back: the person chose these cards."""
    validate_filters(session, filters)
    terms = compute_search_terms(filters.text)
    on_item, on_card = compute_card_conditions(filters, terms, user.id, now)
    in_list = [*on_item, *on_card]
    to_study = [*in_list, compute_to_study_condition(user.id, now)]
    joined = ITEM.join(CARD, CARD.c.item_id == ITEM.c.id)
    left = session.scalar(select(func.count()).select_from(joined).where(*to_study)) or 0
    status = compute_status(session, user, now)
    if not left:  # every card of the list is studied and not due: when is the next one?
        next_due = session.scalar(
            select(func.min(STATE.c.due))
            .select_from(joined.join(STATE, STATE.c.item_id == ITEM.c.id))
            .where(*in_list, STATE.c.user_id == user.id))
        return ListStudy(status, 0, next_due)
    first = session.scalar(select(ITEM.c.id).select_from(joined).where(*to_study)
                           .order_by(*compute_card_order(filters, terms)).limit(1))
    item, state = load_item_and_state(session, user.id, first)
    return ListStudy(replace(status, item=item, state=state), left)
