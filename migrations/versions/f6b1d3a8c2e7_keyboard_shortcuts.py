"""Add user.keyboard_shortcuts: single-key shortcuts on study pages can be turned off.

Revision ID: f6b1d3a8c2e7
Revises: b8f4d2e6a1c3
Create Date: 2026-11-30 11:20:00.000000

Space, 1-4 and u act on study pages wherever the focus is (except in text fields). WCAG 2.1.4
asks that single-character shortcuts can be turned off: a speech-input user's stray words or a
key pressed on the wrong control would otherwise rate or undo. Every account keeps them on
(the server default), as before. Added and dropped with plain ALTER TABLE, as the time zone
column was: batch mode would rebuild "user", and on SQLite with foreign keys on, dropping the
old table cascades into every user's reviews (SQLite 3.35+, already required by a7e3c9d1f5b2).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f6b1d3a8c2e7'
down_revision = 'b8f4d2e6a1c3'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('user', sa.Column('keyboard_shortcuts', sa.Boolean(), server_default=sa.true(),
                                    nullable=False))


def downgrade():
    op.drop_column('user', 'keyboard_shortcuts')
