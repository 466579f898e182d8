"""Interval labels for rating buttons and UTC canonicalisation of moments."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from quizapp.srs import canonicalize_utc, format_interval


@pytest.mark.parametrize(
    ("delta", "label"),
    [
        (timedelta(0), "0s"),
        (timedelta(seconds=45), "45s"),
        (timedelta(seconds=59, milliseconds=400), "59s"),
        (timedelta(seconds=59, milliseconds=600), "1m"),  # rounds up into the next unit
        (timedelta(minutes=1), "1m"),
        (timedelta(minutes=5, seconds=30), "6m"),  # half rounds up, not to even
        (timedelta(minutes=4, seconds=30), "5m"),
        (timedelta(minutes=10), "10m"),
        (timedelta(minutes=59, seconds=40), "1h"),
        (timedelta(hours=3), "3h"),
        (timedelta(hours=23, minutes=40), "1d"),
        (timedelta(days=1), "1d"),
        (timedelta(days=3), "3d"),
        (timedelta(days=29), "29d"),
        (timedelta(days=30), "1mo"),  # 30 / (365 / 12) = 0.99
        (timedelta(days=64), "2.1mo"),
        (timedelta(days=91), "3mo"),  # 2.99 -> shown without a trailing .0
        (timedelta(days=364), "1y"),  # 11.97 months rounds to 12 -> one year
        (timedelta(days=365), "1y"),
        (timedelta(days=475), "1.3y"),
        (timedelta(days=36500), "100y"),
    ],
)
def test_format_interval_table(delta, label):
    assert format_interval(delta) == label


@pytest.mark.parametrize("bad", [timedelta(seconds=-1), 60, "1d", None])
def test_format_interval_rejects_negative_or_non_timedelta(bad):
    with pytest.raises(ValueError, match="interval"):
        format_interval(bad)


def test_canonicalize_utc_converts_aware_and_rejects_naive():
    tokyo = datetime(2024, 3, 1, 9, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
    converted = canonicalize_utc(tokyo)
    assert converted == datetime(2024, 3, 1, 0, 0, tzinfo=UTC)
    assert converted.tzinfo is UTC
    with pytest.raises(ValueError, match="naive"):
        canonicalize_utc(datetime(2024, 3, 1, 9, 0))
    with pytest.raises(ValueError, match="due"):
        canonicalize_utc(datetime(2024, 3, 1).date(), "due")
