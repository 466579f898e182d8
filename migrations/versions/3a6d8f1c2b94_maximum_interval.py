"""Add user.maximum_interval_days: the longest wait between two reviews, set in Settings.

Revision ID: 3a6d8f1c2b94
Revises: 1f7b3d9e5a20
Create Date: 2026-12-01 06:00:00.000000

Anki's "Maximum interval": a person preparing for an interview on a known date lowers it so
every item comes back before then. Every account keeps the scheduler's old fixed cap, 36500
days (the server default), so no schedule changes. Added and dropped with plain ALTER TABLE, as
the keyboard shortcut column was: batch mode would rebuild "user", and on SQLite with foreign
keys on, dropping the old table cascades into every user's reviews.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3a6d8f1c2b94'
down_revision = '1f7b3d9e5a20'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('user', sa.Column('maximum_interval_days', sa.Integer(),
                                    server_default='36500', nullable=False))


def downgrade():
    op.drop_column('user', 'maximum_interval_days')
