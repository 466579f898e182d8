"""How ready a member will be: FSRS's predicted recall of the track's items at its due time.

The recall of one item is fsrs's retrievability of the member's stored state at that moment
(srs.compute_recall: whole 24-hour periods since the last review, as fsrs counts them; the
member's reviews count study days instead, which moves a projection weeks ahead by less than
a day, and costs a hundred times more per item on a page projecting a team's). An item the member
has never reviewed has no memory for FSRS to project; fsrs itself gives such a card a
retrievability of 0, and so does the dashboard: readiness is what the member can be expected
to recall, and nothing was learnt of an item never studied. How many items were studied is
shown beside it, so a low figure says whether it comes from forgetting or from never starting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from quizapp import srs


def compute_recall_moment(due_at: datetime | None, now: datetime) -> datetime:
    """When readiness is predicted for: the due time, or now once it has passed (the stored
    state then reflects reviews made after it, and FSRS predicts forward only) or when the
    track has none."""
    if due_at is None or due_at < now:
        return now
    return due_at


def compute_recall(state: Mapping[str, object] | None, at: datetime) -> float | None:
    """The chance, 0..1, that the member recalls the item at ``at``; None for an item they
    never reviewed (no state, or a new one) or whose stored state cannot be read."""
    return _recall_at(compute_curve(state), at)


def _recall_at(curve: srs.Curve | None, at: datetime) -> float | None:
    if curve is None:
        return None
    try:
        return curve.recall_at(at)
    except ValueError:
        return None  # a moment fsrs cannot read (naive): no prediction, as for a damaged state


def read_curve(last_review: object, stability: object) -> srs.Curve | None:
    """The item's forgetting curve from its state's two fields as a query read them; None
    for an item never reviewed or whose fields cannot be read (as compute_curve)."""
    try:
        return srs.read_curve(last_review, stability)
    except ValueError:
        return None


def compute_curve(state: Mapping[str, object] | None) -> srs.Curve | None:
    """The item's forgetting curve, read once for every moment it is projected at; None for
    an item never reviewed or whose stored state cannot be read."""
    if state is None:
        return None
    try:
        return srs.compute_curve(state)
    except ValueError:
        return None  # a damaged state: no prediction rather than a broken dashboard


def _read_moment(at: datetime) -> datetime | None:
    """``at`` in UTC, converted once for all of a member's items; None for a moment fsrs
    cannot read (naive): no prediction, as for a damaged state."""
    try:
        return srs.canonicalize_utc(at)
    except ValueError:
        return None


_UNSEEN: Any = object()  # not looked up yet (None is a real answer: never reviewed)


@dataclass(frozen=True)
class Readiness:
    """One member's predicted recall at ``at``: over the track's ``items`` (never-studied ones
    counted as 0), how many they ``studied``, and the same mean per concept."""

    at: datetime
    items: int
    studied: int
    recall: float | None  # None when the track has no items
    by_concept: Mapping[str, float]

    @property
    def percent(self) -> int | None:
        return None if self.recall is None else round(self.recall * 100)


def compute_readiness(item_concepts: Mapping[int, Iterable[str]],
                      states: Mapping[int, Mapping[str, object] | None], at: datetime,
                      known: dict[tuple[int, datetime], float | None] | None = None,
                      *, per_concept: bool = True,
                      curves: dict[int, srs.Curve | None] | None = None) -> Readiness:
    """Readiness over the items of ``item_concepts`` (item id -> its distinct concepts) from the
    member's stored ``states`` (item id -> fsrs state; absent: never reviewed). ``known``
    keeps the recalls computed, by (item, moment), for the member's next call; without
    ``per_concept`` the means per concept are left out (the CSV's per-step figures);
    ``curves`` keeps each item's state as read (item id -> its curve), for the member's calls
    at other moments (a step's due): each state is read once, whatever the moments."""
    known = {} if known is None else known
    curves = {} if curves is None else curves
    moment = _read_moment(at)
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    total, studied = 0.0, 0
    for item_id, concepts in item_concepts.items():
        key = (item_id, at)
        recall = known.get(key, _UNSEEN)
        if recall is _UNSEEN:
            curve = curves.get(item_id, _UNSEEN)
            if curve is _UNSEEN:
                curve = curves[item_id] = compute_curve(states.get(item_id))
            recall = known[key] = (None if curve is None or moment is None
                                   else curve.recall_at(moment))
        if recall is not None:
            studied += 1
            total += recall
        if not per_concept:
            continue
        chance = recall or 0.0
        for concept in concepts:  # each once: an item's concepts are a set
            sums[concept] = sums.get(concept, 0.0) + chance
            counts[concept] = counts.get(concept, 0) + 1
    items = len(item_concepts)
    return Readiness(at=at, items=items, studied=studied,
                     recall=total / items if items else None,
                     by_concept={concept: sums[concept] / counts[concept]
                                 for concept in sorted(sums)})


def compute_mean_readiness(item_ids: Iterable[int], curves: Mapping[int, srs.Curve | None],
                           at: datetime) -> Readiness:
    """compute_readiness without the means per concept, from curves already read (item id ->
    curve; absent or None: never reviewed or unreadable), keeping nothing for later calls:
    what sorting a whole team by recall needs of each member, and no more."""
    moment = _read_moment(at)
    total, studied, items = 0.0, 0, 0
    for item_id in item_ids:  # the same order as compute_readiness: the same float sum
        items += 1
        curve = curves.get(item_id)
        if curve is not None and moment is not None:
            total += curve.recall_at(moment)
            studied += 1
    return Readiness(at=at, items=items, studied=studied,
                     recall=total / items if items else None, by_concept={})
