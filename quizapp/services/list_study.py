"""Studying a question list ("Study these"): its new and due cards, one at a time, in its order."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from quizapp.services.question_browser import (
    CardFilters,
    compute_card_conditions,
    compute_card_order,
    compute_viewer,
    select_own_state,
    validate_filters,
)
from quizapp.services.store.search_text import compute_search_terms
from quizapp.services.store.study_items import (
    CARD,
    ITEM,
    STATE,
    load_item_and_state,
    select_suspended,
)
from quizapp.services.study_queue import LEARN_AHEAD, QueueView, compute_status
from quizapp.services.users import StudyUser

# The list's studied cards, for when the next one falls due: an alias, so the Yours filter's own
# subquery on review_state is not correlated with it.
_STUDIED = STATE.alias("studied")


@dataclass(frozen=True)
class ListStudy:
    """The list's next card to study (``view.item``, None when none is left), how many of its
    cards are new or due (that one included), and, with none left, when the next falls due."""

    view: QueueView
    left: int
    next_due: datetime | None = None


def compute_to_study_condition(user_id: int, now: datetime):
    """Cards ``user_id`` has never studied or has due at ``now``: those without a state due
    later (learning steps included, as in Anki's filtered decks)."""
    return ~select_own_state(user_id).where(STATE.c.due > now).exists()


def compute_learning_by_condition(user_id: int, until: datetime):
    """Cards in learning steps for ``user_id`` that are due by ``until``: learned ahead, as the
    queue does, never a review (due at a study day's start, it would count toward the day
    before)."""
    return select_own_state(user_id).where(STATE.c.learning.is_(True),
                                           STATE.c.due <= until).exists()


def compute_list_study(session: Session, user: StudyUser, now: datetime,
                       filters: CardFilters) -> ListStudy:
    """The first card of the list ``filters`` selects, in the list's order, that is new or due
    for ``user``, with the status bar's view; ServiceError on filters the list would refuse.
    The daily limits do not hold it back: the person chose these cards. When none is due, one
    in a learning step ending within LEARN_AHEAD is shown early, as the queue does."""
    validate_filters(session, filters)
    terms = compute_search_terms(filters.text)
    viewer = compute_viewer(user, now)
    on_item, on_card = compute_card_conditions(filters, terms, viewer)
    # Suspended cards stay out of a studied list too, as out of the queue (and of its next due).
    in_list = [*on_item, *on_card, ~select_suspended(user.id)]
    joined = ITEM.join(CARD, CARD.c.item_id == ITEM.c.id)
    status = compute_status(session, user, now)
    ahead = now + LEARN_AHEAD
    for until, condition in ((now, compute_to_study_condition(user.id, now)),
                             (ahead, compute_learning_by_condition(user.id, ahead))):
        to_study = [*in_list, condition]
        left = session.scalar(select(func.count()).select_from(joined).where(*to_study)) or 0
        if left:
            first = session.execute(select(ITEM.c.id).select_from(joined).where(*to_study)
                                    .order_by(*compute_card_order(filters, terms))
                                    .limit(1)).scalar_one()
            item, state = load_item_and_state(session, user.id, first)
            return ListStudy(replace(status, item=item, state=state,
                                     learned_ahead=until != now), left)
    if filters.mine == "due":  # its cards are all rated: when is the next of them due?
        on_item, on_card = compute_card_conditions(replace(filters, mine=""), terms, viewer)
        in_list = [*on_item, *on_card, ~select_suspended(user.id)]
    next_due = session.scalar(
        select(func.min(_STUDIED.c.due))
        .select_from(joined.join(_STUDIED, _STUDIED.c.item_id == ITEM.c.id))
        .where(*in_list, _STUDIED.c.user_id == user.id))
    return ListStudy(status, 0, next_due)
