"""UTCDateTime reads what SQLite keeps (naive UTC text in any ISO form) as aware UTC, and what
it was given with a zone converted, as the decorator's usual chain did."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from quizapp.models.base import UTCDateTime

MOMENT = datetime(2025, 5, 6, 7, 8, 9, 120000, tzinfo=UTC)


@pytest.fixture
def table():
    engine = sa.create_engine("sqlite://")
    metadata = sa.MetaData()
    times = sa.Table("times", metadata, sa.Column("id", sa.Integer, primary_key=True),
                     sa.Column("at", UTCDateTime()))
    metadata.create_all(engine)
    with engine.begin() as connection:
        yield connection, times


@pytest.mark.parametrize("stored, expected", [
    ("2025-05-06 07:08:09.120000", MOMENT),  # as SQLAlchemy writes it
    ("2025-05-06 07:08:09", MOMENT.replace(microsecond=0)),  # CURRENT_TIMESTAMP's form
    ("2025-05-06T07:08:09.12", MOMENT),
    ("2025-05-06T09:08:09.120000+02:00", MOMENT),  # a zone, as raw SQL may have stored it
    ("2025-05-06T07:08:09.12Z", MOMENT),
    ("2025-05-06", MOMENT.replace(hour=0, minute=0, second=0, microsecond=0)),  # a bare date
])
def test_stored_text_is_read_as_aware_utc(table, stored, expected):
    connection, times = table
    connection.execute(sa.text("INSERT INTO times (at) VALUES (:at)"), {"at": stored})
    read = connection.execute(sa.select(times.c.at)).scalar_one()
    assert read == expected and read.tzinfo is UTC


def test_a_written_time_comes_back_as_it_went_in(table):
    connection, times = table
    elsewhere = MOMENT.astimezone(timezone(timedelta(hours=-7)))
    connection.execute(sa.insert(times), [{"at": MOMENT}, {"at": elsewhere}, {"at": None}])
    assert connection.execute(sa.select(times.c.at).order_by(times.c.id)).scalars().all() == [
        MOMENT, MOMENT, None]
    assert connection.execute(sa.select(sa.func.max(times.c.at))).scalar_one() == MOMENT


def test_a_value_that_is_not_a_time_is_refused(table):
    connection, times = table
    connection.execute(sa.text("INSERT INTO times (at) VALUES (5)"))
    with pytest.raises((ValueError, TypeError)):
        connection.execute(sa.select(times.c.at)).scalar_one()
