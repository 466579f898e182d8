"""Add user.new_from_level: the lowest level whose new items the daily queue brings in.

Revision ID: 5c2e7a9d4f16
Revises: 3a6d8f1c2b94
Create Date: 2026-12-01 07:00:00.000000

A person preparing for a senior interview can leave junior (or junior and middle) items out of
the new items the queue introduces; cards and puzzle skills below it stay in the question
browser, and items already started keep their schedule. Every account keeps "junior" (every
level, junior first), as before. Added in place with plain ALTER TABLE, as the other user
columns were, so no review cascades away.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5c2e7a9d4f16'
down_revision = '3a6d8f1c2b94'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('user', sa.Column('new_from_level', sa.String(length=16),
                                    server_default='junior', nullable=False))


def downgrade():
    op.drop_column('user', 'new_from_level')
