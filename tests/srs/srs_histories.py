"""Generated review histories for the scheduling tests: random ratings at random gaps."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from quizapp.srs import scheduling
from quizapp.srs.rating import RATINGS

RETENTIONS = (0.7, 0.8, 0.9, 0.95, 0.99)


def generated_histories(seed: int, count: int, *, caps: tuple[int, ...] | None = None,
                        most_ratings: int = 8):
    """(state, now, retention, cap) after up to ``most_ratings`` random ratings at random gaps
    (minutes to months), ``now`` some time after the last. Each history has its own retention
    and, from ``caps`` if given, its own maximum interval throughout (else the default)."""
    rng = random.Random(seed)
    for _ in range(count):
        retention = rng.choice(RETENTIONS)
        cap = rng.choice(caps) if caps else scheduling.MAXIMUM_INTERVAL_DAYS
        now = datetime(2026, 1, 1, 9, tzinfo=UTC) + timedelta(minutes=rng.randint(0, 10**6))
        state = scheduling.new_state(now)
        for _ in range(rng.randint(0, most_ratings)):
            now += rng.choice((timedelta(minutes=rng.randint(1, 30)),
                               timedelta(days=rng.randint(1, 90))))
            state = scheduling.review(state, rng.choice(tuple(RATINGS)), now,
                                      desired_retention=retention,
                                      maximum_interval_days=cap).state
        yield state, now + timedelta(minutes=rng.randint(1, 10**5)), retention, cap
