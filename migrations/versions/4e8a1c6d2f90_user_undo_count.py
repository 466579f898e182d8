"""Add user.undo_count: an undone first rating of a puzzle skill deals a fresh puzzle.

Revision ID: 4e8a1c6d2f90
Revises: 0c7e5b2a9d14
Create Date: 2026-11-30 15:00:00.000000

A skill's puzzle seed is derived from the user, the item and its state version. Undoing an
item's first rating deletes its state, so the version is 0 again and the puzzle whose answer
the person had just seen came back. The count of undone ratings is
mixed into the seed. Every account starts at 0 (the server default), which keeps the seeds
they are shown now. Added and dropped with plain ALTER TABLE, as f6b1d3a8c2e7 explains: batch
mode would rebuild "user", and on SQLite that cascades into every user's reviews.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4e8a1c6d2f90'
down_revision = '0c7e5b2a9d14'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('user', sa.Column('undo_count', sa.Integer(), server_default='0',
                                    nullable=False))


def downgrade():
    op.drop_column('user', 'undo_count')
