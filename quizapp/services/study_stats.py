"""A user's progress: items by stage, the coming week's workload, retention and recent days."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from sqlalchemy import case, exists, func, literal, select
from sqlalchemy.orm import Session

from quizapp import srs
from quizapp.models import Review
from quizapp.services.settings import compute_new_levels, takes_every_level
from quizapp.services.store.study_items import ITEM, OFFERED, STATE, SUSPENSION, select_suspended
from quizapp.services.users import StudyUser

FORECAST_DAYS = 7  # today (overdue items included) and the six study days after it
RECENT_DAYS = 14  # today and the thirteen study days before it
# Retention is read over the reviews of items that were in Review (Anki's "true retention":
# learning steps left out), in the last 30 days: enough ratings to mean something, recent
# enough to follow a change of the desired retention.
RETENTION_WINDOW = timedelta(days=30)


@dataclass(frozen=True)
class DayCount:
    """One study day (starting at ``start``, UTC) and what falls in it."""

    start: datetime
    count: int
    seconds: int = 0  # time spent answering, for past days


@dataclass(frozen=True)
class StudyStats:
    new: int  # in the bank, never rated by this user (suspended ones left out, as below)
    learning: int  # in learning or relearning steps
    review: int  # past their steps, scheduled days ahead
    suspended: int  # taken out of the reviews by this user, whatever their stage
    forecast: tuple[DayCount, ...]  # due per study day, today first (overdue counted today)
    recent: tuple[DayCount, ...]  # ratings per study day, today first
    retention_reviews: int  # ratings of items in Review within RETENTION_WINDOW
    retention_passed: int  # of those, rated Hard, Good or Easy (not Again)
    desired_retention: float
    # Of ``new``, those of the levels the queue introduces (Settings' "New items from level").
    new_from_levels: int = 0

    @property
    def retention(self) -> float | None:
        """Share of reviews recalled (None before the first review of an item in Review)."""
        return self.retention_passed / self.retention_reviews if self.retention_reviews else None


def compute_day_starts(now: datetime, zone: tzinfo, before: int, after: int) -> list[datetime]:
    """Starts of the study days from ``before`` days back to ``after`` days ahead of today's,
    in order (one more than before + after: the end of the last day is included)."""
    today, tomorrow = srs.compute_study_day(now, zone)
    starts = [today, tomorrow]
    for _ in range(after - 1):
        starts.append(srs.next_day_start(starts[-1], zone))
    for _ in range(before):
        # The instant before a day's start lies in the day before it (23 to 25 hours long).
        starts.insert(0, srs.day_start(starts[0] - timedelta(microseconds=1), zone))
    return starts


def _count_stages(session: Session, user: StudyUser) -> tuple[int, int, int, int]:
    """(new, learning, review, suspended) among the items the study pages offer (OFFERED):
    each item in one of them, a suspended one only in the last."""
    # On the tables, not the Item entity: it would join card and skill to every item, and
    # reading each card's text to count it made Stats 10x slower on a 6,000-card bank.
    learning, seen = session.execute(
        select(func.coalesce(func.sum(case((STATE.c.learning.is_(True), 1), else_=0)), 0),
               func.count())
        .select_from(STATE.join(ITEM, STATE.c.item_id == ITEM.c.id))
        .where(STATE.c.user_id == user.id, OFFERED, ~select_suspended(user.id))).one()
    total = session.execute(select(func.count()).select_from(ITEM).where(OFFERED)).scalar_one()
    suspended = session.execute(
        select(func.count()).select_from(SUSPENSION.join(ITEM, SUSPENSION.c.item_id == ITEM.c.id))
        .where(SUSPENSION.c.user_id == user.id, OFFERED)).scalar_one()
    return total - seen - suspended, learning, seen - learning, suspended


def _count_new_from_levels(session: Session, user: StudyUser, new: int) -> int:
    """Of the ``new`` items, those of the levels whose new items the queue introduces: all of
    them when that is every level, as by default (no statement then)."""
    if takes_every_level(user):
        return new
    levels = compute_new_levels(user)
    seen = exists().where(STATE.c.user_id == user.id, STATE.c.item_id == ITEM.c.id)
    return session.execute(
        select(func.count()).select_from(ITEM)
        .where(OFFERED, ITEM.c.level.in_(levels), ~seen, ~select_suspended(user.id))).scalar_one()


def _count_by_day(session: Session, moment, weight, where: list,
                  starts: list[datetime]) -> list[tuple[int, int]]:
    """(how many rows, their total ``weight``) whose ``moment`` falls in each study day
    [starts[i], starts[i + 1]), counted in SQL: a heavy user's weeks are thousands of rows,
    which took 20 ms to bring into Python. Rows before starts[0] count in the first day."""
    day = case(*((moment < start, index) for index, start in enumerate(starts[1:])))
    rows = select(day.label("day"), weight.label("weight")).where(
        *where, moment < starts[-1]).subquery()
    totals = dict.fromkeys(range(len(starts) - 1), (0, 0))
    for index, count, total in session.execute(
            select(rows.c.day, func.count(), func.coalesce(func.sum(rows.c.weight), 0))
            .group_by(rows.c.day)):
        totals[index] = (count, int(total))
    return [totals[index] for index in range(len(starts) - 1)]


def compute_study_stats(session: Session, user: StudyUser, now: datetime) -> StudyStats:
    """Progress of ``user`` at ``now``, its days counted in the user's time zone."""
    zone = srs.compute_user_zone(user)
    starts = compute_day_starts(now, zone, RECENT_DAYS - 1, FORECAST_DAYS)
    past, coming = starts[:RECENT_DAYS + 1], starts[RECENT_DAYS - 1:]
    new, learning, review, suspended = _count_stages(session, user)

    # Overdue items are waiting today: they count in today's column.
    due_by_day = _count_by_day(
        session, STATE.c.due, literal(0),
        [STATE.c.user_id == user.id, STATE.c.item_id == ITEM.c.id, OFFERED,
         ~select_suspended(user.id)], coming)
    forecast = tuple(DayCount(start, count) for start, (count, _) in zip(
        coming[:-1], due_by_day, strict=True))

    by_day = _count_by_day(
        session, Review.reviewed_at, func.coalesce(Review.duration_ms, 0),
        [Review.user_id == user.id, Review.reviewed_at >= past[0]], past)
    recent = tuple(DayCount(start, count, spent_ms // 1000) for start, (count, spent_ms)
                   in reversed(list(zip(past[:-1], by_day, strict=True))))

    retention_reviews, retention_passed = session.execute(
        select(func.count(), func.coalesce(func.sum(case((Review.rating > 1, 1), else_=0)), 0))
        .where(Review.user_id == user.id, Review.was_review.is_(True),
               Review.reviewed_at >= now - RETENTION_WINDOW)).one()
    return StudyStats(new, learning, review, suspended, forecast, recent, retention_reviews,
                      retention_passed, user.desired_retention,
                      _count_new_from_levels(session, user, new))
