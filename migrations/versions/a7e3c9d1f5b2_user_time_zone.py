"""Replace user.utc_offset_minutes with user.time_zone: the study day follows daylight saving.

Revision ID: a7e3c9d1f5b2
Revises: d5e2a9c4f7b1
Create Date: 2026-11-30 07:20:00.000000

A fixed offset turned the study day over at 03:00 or 05:00 for half the year wherever clocks
change. The new column holds an IANA name ("Europe/Berlin") or, for accounts made before it, a
fixed offset spelled "UTC+05:30" ("UTC" for none), so every account keeps the day boundary it
had. Downgrading writes back each zone's offset as it is at that moment.

The columns are added and dropped with plain ALTER TABLE (SQLite 3.35+ drops a column in
place): batch mode would rebuild "user", and on SQLite with foreign keys on, dropping the old
table cascades into every user's reviews.
"""
from datetime import UTC, datetime, timedelta
import re
import sqlite3
import zoneinfo

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7e3c9d1f5b2'
down_revision = 'd5e2a9c4f7b1'
branch_labels = None
depends_on = None

USERS = sa.table('user', sa.column('utc_offset_minutes', sa.Integer),
                 sa.column('time_zone', sa.String))
FIXED = re.compile(r'UTC([+-])([0-9]{2}):([0-9]{2})')


def spell_offset(minutes):
    """As quizapp.srs.zones.format_fixed_offset (kept here: a migration stays as written)."""
    if not minutes:
        return 'UTC'
    sign = '+' if minutes > 0 else '-'
    return f'UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}'


def offset_now(name):
    """Minutes east of UTC of a stored zone name at this moment (0 for one unknown here)."""
    fixed = FIXED.fullmatch(name)
    if fixed:
        sign, hours, minutes = fixed.groups()
        total = int(hours) * 60 + int(minutes)
        return total if sign == '+' else -total
    try:
        zone = zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return 0
    return int(datetime.now(UTC).astimezone(zone).utcoffset() // timedelta(minutes=1))


def require_drop_column():
    """SQLite drops a column in place from 3.35 on; say so plainly rather than half-migrate."""
    if op.get_bind().dialect.name == 'sqlite' and sqlite3.sqlite_version_info < (3, 35):
        raise RuntimeError(
            f'this migration needs SQLite 3.35 or newer (ALTER TABLE ... DROP COLUMN); this '
            f'Python has {sqlite3.sqlite_version}. Nothing was changed.')


def upgrade():
    require_drop_column()
    op.add_column('user', sa.Column('time_zone', sa.String(length=64), server_default='UTC',
                                    nullable=False))
    # One UPDATE per distinct offset (a few dozen at most), not one per user.
    offsets = op.get_bind().execute(
        sa.select(USERS.c.utc_offset_minutes).distinct()).scalars().all()
    for minutes in offsets:
        if minutes:
            op.execute(sa.update(USERS).where(USERS.c.utc_offset_minutes == minutes)
                       .values(time_zone=spell_offset(minutes)))
    op.drop_column('user', 'utc_offset_minutes')


def downgrade():
    require_drop_column()
    # Comes back with a server default of 0 (the original column had none; SQLite cannot
    # drop a default in place, and rebuilding "user" would cascade into its reviews).
    op.add_column('user', sa.Column('utc_offset_minutes', sa.Integer(), server_default='0',
                                    nullable=False))
    names = op.get_bind().execute(sa.select(USERS.c.time_zone).distinct()).scalars().all()
    for name in names:
        minutes = offset_now(name)
        if minutes:
            op.execute(sa.update(USERS).where(USERS.c.time_zone == name)
                       .values(utc_offset_minutes=minutes))
    op.drop_column('user', 'time_zone')
