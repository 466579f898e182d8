"""The dashboard's recall, reading each state once, equals the old per-cell computation."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from quizapp import srs
from quizapp.teams import compute_mean_readiness, compute_readiness
from quizapp.teams.readiness import compute_curve

T0 = datetime(2026, 3, 2, 10, tzinfo=UTC)


def old_readiness(item_concepts, states, at):
    """The figures as the dashboard computed them before: one srs call per item and cell."""
    chances, studied = [], 0
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for item_id, concepts in item_concepts.items():
        state = states.get(item_id)
        try:
            recall = None if state is None else srs.compute_recall(state, at)
        except ValueError:
            recall = None
        studied += recall is not None
        chances.append(recall or 0.0)
        for concept in concepts:
            sums[concept] = sums.get(concept, 0.0) + (recall or 0.0)
            counts[concept] = counts.get(concept, 0) + 1
    recall = sum(chances) / len(chances) if chances else None
    return recall, studied, {c: sums[c] / counts[c] for c in sorted(sums)}


def generated_member(rng: random.Random):
    concepts = ("view", "stride", "offset", "contiguity")
    items = {item: tuple(rng.sample(concepts, rng.randint(0, 2))) for item in range(40)}
    states: dict[int, dict[str, object]] = {}
    for item in items:
        kind = rng.random()
        if kind < 0.2:
            continue  # never reviewed
        last = T0 - timedelta(days=rng.randint(0, 400), seconds=rng.randint(0, 86399))
        if kind < 0.25:
            states[item] = {"stability": None, "last_review": None}  # a new card
        elif kind < 0.28:
            states[item] = {"stability": -1.0, "last_review": last.isoformat()}  # damaged
        else:
            states[item] = {"stability": rng.uniform(0.1, 400.0),
                            "last_review": last.isoformat()}
    return items, states


def test_shared_memory_gives_the_per_cell_figures_on_generated_members():
    rng = random.Random(20261202)
    for _ in range(60):
        items, states = generated_member(rng)
        steps = [dict(rng.sample(sorted(items.items()), rng.randint(0, 12))) for _ in range(6)]
        moments = [T0 + timedelta(days=rng.randint(-30, 120), hours=rng.randint(0, 23))
                   for _ in steps]
        track_at = rng.choice(moments + [T0])
        known: dict = {}
        cells = [(items, track_at)] + list(zip(steps, moments, strict=True))
        for step_items, at in cells:
            ready = compute_readiness(step_items, states, at, known)
            recall, studied, by_concept = old_readiness(step_items, states, at)
            assert (ready.recall, ready.studied, dict(ready.by_concept)) == (
                recall, studied, by_concept)


def test_the_mean_alone_is_readinesss_own_to_the_last_bit():
    """The sort's lean figure (compute_mean_readiness, from curves) equals compute_readiness's
    without means per concept, float for float, on generated members."""
    rng = random.Random(20261203)
    for _ in range(80):
        items, states = generated_member(rng)
        curves = {item: compute_curve(state) for item, state in states.items()}
        at = T0 + timedelta(days=rng.randint(-30, 200), hours=rng.randint(0, 23))
        full = compute_readiness(items, states, at, per_concept=False)
        lean = compute_mean_readiness(items, curves, at)
        assert (lean.recall, lean.studied, lean.items, lean.at) == (
            full.recall, full.studied, full.items, full.at)
        assert lean.by_concept == {} and full.by_concept == {}
