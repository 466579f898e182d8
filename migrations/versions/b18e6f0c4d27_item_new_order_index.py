"""Index item (retired, new_order, id): the next new item without sorting the bank.

Revision ID: b18e6f0c4d27
Revises: 7d41c2e8a9b3
Create Date: 2026-11-30 01:50:00.000000

Every study page that shows a new item asks for the first active item, in (new_order, id) order,
that the user has no state for. The (kind, retired, new_order) index cannot give that order
across kinds, so SQLite and PostgreSQL sorted every active item of the bank on each such page
(EXPLAIN, tests/web/study/test_web_study_caching.py); with this index they read it in order and stop
at the first unseen item.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b18e6f0c4d27'
down_revision = '7d41c2e8a9b3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('item', schema=None) as batch_op:
        batch_op.create_index('ix_item_retired_new_order_id', ['retired', 'new_order', 'id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('item', schema=None) as batch_op:
        batch_op.drop_index('ix_item_retired_new_order_id')
