"""Studying a question list ("Study these"): its new and due cards, one at a time, in its order."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.models import Review, User
from quizapp.services.question_browser import (
    CardFilters,
    compute_card_conditions,
    compute_card_order,
    validate_filters,
)
from quizapp.services.search_text import compute_search_terms
from quizapp.services.settings import compute_user_zone
from quizapp.services.study_items import CARD, ITEM, STATE, load_item_and_state
from quizapp.services.study_queue import LEARN_AHEAD, QueueView, compute_status

_REVIEW = Review.__table__
# The list's studied cards, for when the next one falls due: an alias, so the Yours filter's own
# subquery on review_state is not correlated with it (notes/s12/lists.md #1).
_STUDIED = STATE.alias("studied")


@dataclass(frozen=True)
class ListStudy:
    """The list's next card to study (``view.item``, None when none is left), how many of its
    cards are new or due (that one included), and, with none left, when the next falls due."""

    view: QueueView
    left: int
    next_due: datetime | None = None


def compute_to_study_condition(user_id: int, until: datetime):
    """Cards ``user_id`` has never studied or has due by ``until``: those without a state due
    later (learning steps included, as in Anki's filtered decks)."""
    return ~select(STATE.c.id).where(STATE.c.user_id == user_id, STATE.c.item_id == ITEM.c.id,
                                     STATE.c.due > until).exists()


def compute_new_before_condition(user_id: int, day_start: datetime):
    """Cards ``user_id`` had not rated before ``day_start``: "Not studied yet" while a list is
    studied, so a card first rated today stays in the list through its learning steps
    (notes/s12/lists.md #2), where "not studied" alone would drop it at its first rating."""
    return ~select(_REVIEW.c.id).where(_REVIEW.c.user_id == user_id,
                                       _REVIEW.c.item_id == ITEM.c.id,
                                       _REVIEW.c.reviewed_at < day_start).exists()


def compute_list_study(session: Session, user: User, now: datetime,
                       filters: CardFilters) -> ListStudy:
    """The first card of the list ``filters`` selects, in the list's order, that is new or due
    for ``user``, with the status bar's view; ServiceError on filters the list would refuse.
    The daily limits do not hold it back: the person chose these cards. When none is due, one
    whose step ends within LEARN_AHEAD is shown early, as the queue does."""
    validate_filters(session, filters)
    terms = compute_search_terms(filters.text)
    on_item, on_card = compute_card_conditions(
        replace(filters, mine="") if filters.mine == "new" else filters, terms, user.id, now)
    if filters.mine == "new":
        day_start, _ = srs.compute_study_day(now, compute_user_zone(user))
        on_item.append(compute_new_before_condition(user.id, day_start))
    in_list = [*on_item, *on_card]
    joined = ITEM.join(CARD, CARD.c.item_id == ITEM.c.id)
    status = compute_status(session, user, now)
    for until in (now, now + LEARN_AHEAD):
        to_study = [*in_list, compute_to_study_condition(user.id, until)]
        left = session.scalar(select(func.count()).select_from(joined).where(*to_study)) or 0
        if left:
            first = session.scalar(select(ITEM.c.id).select_from(joined).where(*to_study)
                                   .order_by(*compute_card_order(filters, terms)).limit(1))
            item, state = load_item_and_state(session, user.id, first)
            return ListStudy(replace(status, item=item, state=state,
                                     learned_ahead=until != now), left)
    next_due = session.scalar(
        select(func.min(_STUDIED.c.due))
        .select_from(joined.join(_STUDIED, _STUDIED.c.item_id == ITEM.c.id))
        .where(*in_list, _STUDIED.c.user_id == user.id))
    return ListStudy(status, 0, next_due)
