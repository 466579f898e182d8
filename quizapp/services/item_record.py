"""One user's record with one item (Anki's card info): its reviews, lapses, time and memory."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.models import Review, ReviewState
from quizapp.services import suspensions
from quizapp.services.reviews import load_state
from quizapp.services.users import StudyUser

# The newest reviews listed; the figures count every review. Anki's card info lists them all,
# but a card rated daily for years would make a page of a thousand rows.
RECORD_REVIEWS_SHOWN = 30


@dataclass(frozen=True)
class ItemRecord:
    """What ``compute_item_record`` found; ``reviews`` are the newest, newest first."""

    total: int
    lapses: int
    first_reviewed_at: datetime | None
    last_reviewed_at: datetime | None
    timed: int  # reviews with a duration (every rating from the study page has one)
    total_ms: int
    reviews: list[Review]
    memory: srs.Memory | None
    due: datetime | None

    @property
    def average_ms(self) -> int | None:
        return self.total_ms // self.timed if self.timed else None

    @property
    def more(self) -> int:
        """Reviews older than the ones listed."""
        return self.total - len(self.reviews)


def compute_item_record(session: Session, user: StudyUser, item_id: int,
                        state: ReviewState | None, now: datetime) -> ItemRecord | None:
    """The user's record with the item at ``now`` (``state``: their state row of it, as
    reviews.load_state reads it), or None if they have never rated it (or undid every rating).
    The reviews come from the (user_id, item_id, id) index, so the cost does not grow with the
    user's other reviews."""
    mine = and_(Review.user_id == user.id, Review.item_id == item_id)
    # A lapse is Anki's: an Again given to an item that was in Review (not in its first steps).
    lapse = case((and_(Review.rating == srs.AGAIN, Review.was_review), 1), else_=0)
    total, lapses, first, last, timed, total_ms = session.execute(
        select(func.count(), func.coalesce(func.sum(lapse), 0), func.min(Review.reviewed_at),
               func.max(Review.reviewed_at), func.count(Review.duration_ms),
               func.coalesce(func.sum(Review.duration_ms), 0)).where(mine)).one()
    if not total:
        return None
    reviews = list(session.scalars(select(Review).where(mine).order_by(Review.id.desc())
                                   .limit(RECORD_REVIEWS_SHOWN)))
    memory = due = None
    if state is not None:
        memory = srs.compute_memory(state.state, now, srs.compute_user_zone(user))
        due = state.due
    return ItemRecord(total=total, lapses=int(lapses), first_reviewed_at=first,
                      last_reviewed_at=last, timed=timed, total_ms=int(total_ms),
                      reviews=reviews, memory=memory, due=due)


@dataclass(frozen=True)
class ItemStanding:
    """Where a signed-in user stands with the item an item page shows."""

    state: ReviewState | None
    suspended: bool
    record: ItemRecord | None


VISITOR = ItemStanding(None, False, None)  # no account: nothing to stand on


def load_standing(session: Session, user: StudyUser, item_id: int, now: datetime) -> ItemStanding:
    """The user's state of the item, whether they suspended it, and their record with it."""
    state = load_state(session, user, item_id)
    return ItemStanding(state, suspensions.is_suspended(session, user.id, item_id),
                        compute_item_record(session, user, item_id, state, now))
