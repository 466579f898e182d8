"""Add queued_item: items a user asked to study next ("Add to my reviews" on a set).

Revision ID: c6e1a8d4f2b7
Revises: a4c8e2f6b913
Create Date: 2026-12-01 21:50:00.000000

One row per (user, item) brought forward among that user's new items, with when and in which
order. The study queue offers such an item first while the user has no state for it; review
states and the review log are not touched. A new table only: downgrading drops it, and every
item then comes in at its usual turn.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c6e1a8d4f2b7'
down_revision = 'a4c8e2f6b913'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('queued_item',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('queued_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'],
                            name=op.f('fk_queued_item_item_id_item'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'],
                            name=op.f('fk_queued_item_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'item_id', name=op.f('pk_queued_item'))
    )
    op.create_index('ix_queued_item_user_id_queued_at_position', 'queued_item',
                    ['user_id', 'queued_at', 'position'], unique=False)


def downgrade():
    op.drop_index('ix_queued_item_user_id_queued_at_position', table_name='queued_item')
    op.drop_table('queued_item')
