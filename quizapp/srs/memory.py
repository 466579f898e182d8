"""What FSRS believes about one item's memory now: stage, stability, difficulty, recall chance."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import NamedTuple

from fsrs import State

from quizapp.srs.intervals import canonicalize_utc
from quizapp.srs.scheduling import (
    DEFAULT_DESIRED_RETENTION,
    _build_scheduler,
    _card_from_state,
    _count_in_study_days,
)

# fsrs's State values, named as a person reads them (Anki's card info says the same).
STAGE_NAMES = {State.Learning: "learning", State.Review: "review",
               State.Relearning: "relearning"}
# Retrievability depends only on the memory model's parameters, never on the desired retention
# or the maximum interval, so one scheduler with the pinned settings serves every user.
_SCHEDULER = _build_scheduler(DEFAULT_DESIRED_RETENTION)


@dataclass(frozen=True)
class Memory:
    """One rated item as FSRS models it at a moment.

    ``stability`` is in days: how long until the chance of recall falls to 90%. ``difficulty``
    runs from 1 (easiest) to 10. ``retrievability`` is the chance, 0..1, of recalling it at the
    moment asked about. ``elapsed_days`` are the study days since the last review, which is
    what fsrs is given when the item is next rated (scheduling._count_in_study_days).
    """

    stage: str
    stability: float
    difficulty: float
    retrievability: float
    elapsed_days: int


def compute_memory(state: Mapping[str, object], now: datetime, zone: tzinfo | int | None = None
                   ) -> Memory | None:
    """The memory ``state`` describes at ``now`` (days counted as study days with ``zone``, as
    review counts them); None for an item never rated, which has no memory to describe."""
    moment = canonicalize_utc(now)
    card = _card_from_state(state)
    if card.last_review is None or card.stability is None:
        return None
    # _card_from_state sets stability and difficulty together, and _count_in_study_days keeps
    # a last review that was there.
    assert card.difficulty is not None
    counted = _count_in_study_days(card, moment, zone)
    assert counted.last_review is not None
    # A last review after ``now`` (a clock set back) counts as just now, as fsrs counts it.
    elapsed = max(0, (moment - counted.last_review).days)
    return Memory(stage=STAGE_NAMES[card.state], stability=card.stability,
                  difficulty=card.difficulty,
                  retrievability=_SCHEDULER.get_card_retrievability(counted, moment),
                  elapsed_days=elapsed)


class Curve(NamedTuple):
    """An item's forgetting curve: its last review and stability, read once from its state so
    a page can project it at many moments (a track's due and each of its steps'). A named
    tuple: a team's dashboard reads tens of thousands."""

    last_review: datetime  # in UTC
    stability: float

    def recall_at(self, moment: datetime) -> float:
        """fsrs's retrievability at ``moment``: whole 24-hour periods since the last review."""
        if moment.tzinfo is not UTC:  # a UTC moment (the usual one) needs no converting
            moment = canonicalize_utc(moment)
        elapsed = max(0, (moment - self.last_review).days)
        # fsrs's forgetting curve with the pinned scheduler's own constants (see the golden test).
        return float((1 + _SCHEDULER._FACTOR * elapsed / self.stability) ** _SCHEDULER._DECAY)


def compute_curve(state: Mapping[str, object]) -> Curve | None:
    """The forgetting curve of the item ``state`` describes; None for an item never reviewed.

    It reads the stability and the last review only, without rebuilding and checking the whole
    card as compute_memory does; either field not as review writes it raises ValueError.
    """
    return read_curve(state.get("last_review"), state.get("stability"))


def read_curve(last: object, stability: object) -> Curve | None:
    """The forgetting curve from a state's two fields as stored (the last review as ISO text
    or an aware datetime, the stability in days), read by a query without decoding the whole
    state; None when either is missing (a new item), ValueError when either is not as review
    writes it."""
    # The usual case from the columns, checked in the fewest steps: a finite positive float
    # (NaN fails both comparisons) and a UTC datetime. A team's dashboard reads 18,000.
    if type(stability) is float and 0.0 < stability < math.inf and type(last) is datetime \
            and last.tzinfo is UTC:
        return Curve(last, stability)
    if last is None or stability is None:
        return None
    if (not isinstance(last, str | datetime) or isinstance(stability, bool)
            or not isinstance(stability, int | float)
            or not (math.isfinite(stability) and stability > 0)):
        raise ValueError("scheduling state needs a last review and a finite positive stability")
    try:
        last_review = datetime.fromisoformat(last) if isinstance(last, str) else last
        if last_review.tzinfo is not UTC:  # review writes UTC; another zone is converted
            last_review = canonicalize_utc(last_review, "state last_review")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"scheduling state is malformed: {exc}") from exc
    return Curve(last_review, float(stability))


def compute_recall(state: Mapping[str, object], moment: datetime) -> float | None:
    """fsrs's chance of recalling, at ``moment``, the item ``state`` describes: its
    retrievability with whole 24-hour periods since the last review, as fsrs counts them
    (Scheduler.get_card_retrievability); None for an item never reviewed. A state not as
    review writes it raises ValueError (compute_curve).
    """
    curve = compute_curve(state)
    return None if curve is None else curve.recall_at(moment)
