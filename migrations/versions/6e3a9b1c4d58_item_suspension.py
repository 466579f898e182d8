"""Add item_suspension: a user's items taken out of their reviews (Anki's "Suspend").

Revision ID: 6e3a9b1c4d58
Revises: 2d9c7f4b6e81
Create Date: 2026-12-01 10:00:00.000000

One row per (user, item) that the user suspended; resuming deletes it. The review state and
the review log are not touched, so a resumed item is due where its schedule left it. The
primary key (user_id, item_id) is the index the study queue's NOT EXISTS lookup reads. A new
table only: nothing stored before changes, and downgrading drops it (every item is then
offered again).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6e3a9b1c4d58'
down_revision = '2d9c7f4b6e81'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('item_suspension',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('suspended_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'],
                            name=op.f('fk_item_suspension_item_id_item'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'],
                            name=op.f('fk_item_suspension_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'item_id', name=op.f('pk_item_suspension'))
    )


def downgrade():
    op.drop_table('item_suspension')
