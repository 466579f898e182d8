"""FSRS scheduling of one item: new states, reviews and the interval each rating would give."""

from __future__ import annotations

import math
from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import cast

from fsrs import Card, Rating, ReviewLog, Scheduler, State
from fsrs.card import CardDict
from fsrs.review_log import ReviewLogDict

from quizapp.srs.intervals import canonicalize_utc
from quizapp.srs.rating import EASY, GOOD, HARD, RATINGS, validate_rating
from quizapp.srs.study_day import compute_day_start_after, count_study_days_between

# Scheduler settings are pinned here rather than taken from fsrs defaults, so that a library
# upgrade which changes a default shows up as a failing golden test, not a silent reschedule.
# Fuzzing is off: the same state, rating and time must always give the same schedule (undo and
# the rating-button previews both depend on it).
DEFAULT_DESIRED_RETENTION = 0.9
# Anki's range for desired retention.  Outside it FSRS intervals stop being useful: near 1.0
# every interval collapses to one day, and even at 0.7 three on-time Goods already give ~8 years.
DESIRED_RETENTION_RANGE = (0.70, 0.99)
LEARNING_STEPS = (timedelta(minutes=1), timedelta(minutes=10))
RELEARNING_STEPS = (timedelta(minutes=10),)
# The longest wait between two reviews, in days: the default, and the range a user may set
# (Anki's "Maximum interval", whose default and upper bound are the same 100 years). A lower cap
# brings every item back within that many days of its last review, e.g. before an interview.
MAXIMUM_INTERVAL_DAYS = 36500
MAXIMUM_INTERVAL_RANGE = (1, 36500)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# The keys of fsrs's CardDict, i.e. what Card.to_dict() produces.
_STATE_KEYS = frozenset(
    {"card_id", "state", "step", "stability", "difficulty", "due", "last_review"}
)


@dataclass(frozen=True)
class ReviewResult:
    """Outcome of one review: the state to store, when the item is next due, and the fsrs log."""

    state: CardDict  # JSON-serialisable fsrs Card.to_dict()
    due: datetime  # timezone-aware UTC
    log: ReviewLogDict  # JSON-serialisable fsrs ReviewLog.to_dict()


def validate_desired_retention(desired_retention: object) -> float:
    """Return the retention as a float if it lies in DESIRED_RETENTION_RANGE, else ValueError."""
    low, high = DESIRED_RETENTION_RANGE
    if isinstance(desired_retention, bool) or not isinstance(desired_retention, int | float):
        raise ValueError(f"desired retention must be a number, got {desired_retention!r}")
    if not (math.isfinite(desired_retention) and low <= desired_retention <= high):
        raise ValueError(
            f"desired retention must be between {low} and {high}, got {desired_retention!r}"
        )
    return float(desired_retention)


def validate_maximum_interval(days: object) -> int:
    """Return ``days`` if it is a whole number of days in MAXIMUM_INTERVAL_RANGE, else
    ValueError."""
    low, high = MAXIMUM_INTERVAL_RANGE
    if isinstance(days, bool) or not isinstance(days, int):
        raise ValueError(f"maximum interval must be a whole number of days, got {days!r}")
    if not low <= days <= high:
        raise ValueError(f"maximum interval must be between {low} and {high} days, got {days}")
    return days


def _build_scheduler(desired_retention: object,
                     maximum_interval_days: object = MAXIMUM_INTERVAL_DAYS) -> Scheduler:
    """An fsrs Scheduler with the pinned settings, fuzzing off, at the given retention and
    maximum interval."""
    return Scheduler(
        desired_retention=validate_desired_retention(desired_retention),
        learning_steps=LEARNING_STEPS,
        relearning_steps=RELEARNING_STEPS,
        maximum_interval=validate_maximum_interval(maximum_interval_days),
        enable_fuzzing=False,
    )


def _card_from_state(state: object) -> Card:
    """Rebuild the fsrs Card a stored state describes; a malformed state raises ValueError."""
    if not isinstance(state, dict):
        raise ValueError(f"scheduling state must be a dict, got {type(state).__name__}")
    if set(state) != _STATE_KEYS:
        raise ValueError(
            f"scheduling state must have exactly the keys {sorted(_STATE_KEYS)}, "
            f"got {sorted(map(str, state))}"
        )
    try:
        # Its keys are CardDict's (checked above); from_dict checks the values.
        card = Card.from_dict(cast(CardDict, state))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scheduling state is malformed: {exc}") from exc
    card.due = canonicalize_utc(card.due, "state due")
    if card.last_review is not None:
        card.last_review = canonicalize_utc(card.last_review, "state last_review")
    if (card.stability is None) != (card.difficulty is None):
        raise ValueError("scheduling state must set both stability and difficulty, or neither")
    if card.stability is not None and not (
        math.isfinite(card.stability) and card.stability > 0
        and card.difficulty is not None and math.isfinite(card.difficulty)
    ):
        raise ValueError("scheduling state needs a finite positive stability and finite difficulty")
    if card.state != State.Learning and card.stability is None:
        raise ValueError(f"scheduling state {card.state.name} needs stability and difficulty")
    # fsrs keeps a step index while learning or relearning and None once in Review.
    if card.state == State.Review:
        if card.step is not None:
            raise ValueError(f"scheduling state Review must have step None, got {card.step!r}")
    elif isinstance(card.step, bool) or not isinstance(card.step, int) or card.step < 0:
        raise ValueError(f"scheduling state {card.state.name} needs a step >= 0, got {card.step!r}")
    return card


def new_state(now: datetime, *, card_id: int | None = None) -> CardDict:
    """State of a never-reviewed item, due at ``now``.

    ``card_id`` only labels fsrs review logs; by default it is the epoch milliseconds of ``now``
    (fsrs's own default, but taken from the given clock instead of the system one).
    """
    moment = canonicalize_utc(now)
    if card_id is None:
        card_id = (moment - _EPOCH) // timedelta(milliseconds=1)
    elif isinstance(card_id, bool) or not isinstance(card_id, int):
        raise ValueError(f"card_id must be an int, got {card_id!r}")
    return Card(card_id=card_id, state=State.Learning, due=moment).to_dict()


def is_new(state: Mapping[str, object]) -> bool:
    """True if the item described by ``state`` has never been reviewed."""
    return _card_from_state(state).last_review is None


def is_learning(state: Mapping[str, object]) -> bool:
    """True while the item is in its learning or relearning steps (minutes apart, within the
    day), False once it is in Review, the state whose ratings the daily review limit counts."""
    return _card_from_state(state).state != State.Review


def state_stability(state: Mapping[str, object]) -> float | None:
    """The stability in days that ``state`` holds, None before its first rating: the value
    review_state keeps beside the state, so a forgetting curve is read without the JSON."""
    stability = state.get("stability")
    if stability is None:
        return None
    if isinstance(stability, bool) or not isinstance(stability, int | float):
        raise ValueError(f"scheduling state stability must be a number, got {stability!r}")
    return float(stability)


def state_due(state: Mapping[str, object]) -> datetime:
    """When the item described by ``state`` is due, as a timezone-aware UTC datetime."""
    return _card_from_state(state).due


def review(
    state: Mapping[str, object],
    rating: int,
    now: datetime,
    *,
    desired_retention: float = DEFAULT_DESIRED_RETENTION,
    maximum_interval_days: int = MAXIMUM_INTERVAL_DAYS,
    duration_ms: int | None = None,
    zone: tzinfo | int | None = None,
) -> ReviewResult:
    """Apply one review with ``rating`` (1..4) at ``now`` and return the new state and log.

    ``state`` is not modified.  Feeding the same state, rating, time and retention always gives
    an identical result, so restoring a stored previous state undoes a review exactly.

    With ``zone`` (the user's, as for queue.day_start) time is counted in study days, as Anki
    counts it: an interval of N days ends at the start of the Nth study day after today's ("2d"
    is the day after tomorrow from its first hour, not 48 hours to the minute, so a person who
    studies at a different hour each day finds that day's reviews waiting), and FSRS's memory
    model is given the study days since the last review (see _count_in_study_days).  Learning
    steps (minutes) are kept as they are.
    """
    grade = Rating(validate_rating(rating))
    moment = canonicalize_utc(now)
    if duration_ms is not None and (
        isinstance(duration_ms, bool) or not isinstance(duration_ms, int) or duration_ms < 0
    ):
        raise ValueError(f"duration_ms must be a non-negative int or None, got {duration_ms!r}")
    scheduler = _build_scheduler(desired_retention, maximum_interval_days)
    card, log = _answer_each_rating(
        scheduler, _count_in_study_days(_card_from_state(state), moment, zone), moment,
        duration_ms, up_to=grade)[grade]
    if zone is not None and card.due - moment >= timedelta(days=1):
        # fsrs schedules whole days (fuzzing is off): that many study days after today's.
        card.due = compute_day_start_after(moment, (card.due - moment).days, zone)
    return ReviewResult(state=card.to_dict(), due=card.due, log=log.to_dict())


def cap_state_due(state: Mapping[str, object], maximum_interval_days: int,
                  zone: tzinfo | int | None = None) -> tuple[CardDict, datetime] | None:
    """(state, due) for an item in Review whose due lies further after its last review than
    ``maximum_interval_days`` allows: due then ``maximum_interval_days`` after the last review
    (study days with ``zone``, as review counts them), which may be in the past (overdue).
    None if nothing is to change: within the cap, or still in learning steps (minutes away).
    Only the due moves, as when review keeps the buttons in order; stability and difficulty
    stay, so the next rating sees the real time since the last review, as fsrs expects."""
    card = _card_from_state(state)
    days = validate_maximum_interval(maximum_interval_days)
    if card.state != State.Review or card.last_review is None:
        return None
    if zone is None:
        capped = card.last_review + timedelta(days=days)
    else:
        capped = compute_day_start_after(card.last_review, days, zone)
    if card.due <= capped:
        return None
    card.due = capped
    return card.to_dict(), capped


def _count_in_study_days(card: Card, moment: datetime, zone: tzinfo | int | None) -> Card:
    """``card`` as fsrs should see it at ``moment``: with ``zone``, last reviewed exactly as
    many days before as study days have begun since (fsrs counts whole 24-hour periods).

    Dues fall at the start of a study day, so a review is often taken less than N x 24 hours
    after the last one although N study days have passed; fsrs would count N - 1 days, or the
    same-day formula for N = 1, and two people studying on the same days would grow apart by
    the hour they study at. fsrs sets last_review to the review's real time afterwards."""
    if zone is None or card.last_review is None:
        return card
    counted = copy(card)
    counted.last_review = moment - timedelta(
        days=count_study_days_between(card.last_review, moment, zone))
    return counted


def preview_intervals(
    state: Mapping[str, object], now: datetime, *, desired_retention: float = DEFAULT_DESIRED_RETENTION,
    maximum_interval_days: int = MAXIMUM_INTERVAL_DAYS, zone: tzinfo | int | None = None,
) -> dict[int, timedelta]:
    """For each rating 1..4, the interval fsrs gives if rated so at ``now`` (its label: a
    review ends at the start of a study day, see review); the settings and ``zone`` as for
    review."""
    moment = canonicalize_utc(now)
    scheduler = _build_scheduler(desired_retention, maximum_interval_days)
    card = _count_in_study_days(_card_from_state(state), moment, zone)
    answers = _answer_each_rating(scheduler, card, moment, None)
    return {rating: reviewed.due - moment for rating, (reviewed, _) in answers.items()}


def _answer_each_rating(scheduler: Scheduler, card: Card, moment: datetime,
                        duration_ms: int | None, *, up_to: int = EASY
                        ) -> dict[int, tuple[Card, ReviewLog]]:
    """fsrs's card and log for each rating at ``moment``, with day-long intervals in order as
    Anki keeps them: Hard < Good < Easy, a day apart at least. fsrs schedules each rating on its
    own, and with a small stability or a high retention it gave two of them the same number of
    days, so two buttons promised the same ("Good 1d / Easy 1d"). Only
    the due moves; stability and difficulty stay fsrs's (Anki does the same). A rating's due
    depends only on the ratings below it, so a review computes those ``up_to`` its own."""
    answers = {rating: scheduler.review_card(card, Rating(rating), review_datetime=moment,
                                             review_duration=duration_ms)
               for rating in RATINGS if rating <= up_to}
    previous_days = None  # the last passing rating's whole days, when day-long
    for rating in (HARD, GOOD, EASY)[: max(up_to - 1, 0)]:
        reviewed, log = answers[rating]
        if reviewed.due - moment < timedelta(days=1):
            continue  # a learning step (minutes): the steps keep their own order
        days = (reviewed.due - moment).days  # whole days: fuzzing is off
        if previous_days is not None and days <= previous_days and (
                days < scheduler.maximum_interval):
            # Never past the maximum interval: at it, two buttons are equal.
            days = min(previous_days + 1, scheduler.maximum_interval)
            reviewed = copy(reviewed)
            reviewed.due = moment + timedelta(days=days)
            answers[rating] = (reviewed, log)
        previous_days = days
    return answers
