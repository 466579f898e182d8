"""Drop index item (kind, retired, new_order): no query reads it.

Revision ID: 5a7c3e91d2f0
Revises: b18e6f0c4d27
Create Date: 2026-11-30 03:10:00.000000

Nothing filters items by kind and retirement together. The study queue reads the bank through
(retired, new_order, id) (b18e6f0c4d27) and the importer finds items by the unique (kind, key);
the plan tests in tests/web/study/test_web_study_caching.py check, on SQLite and PostgreSQL, that the
study queue's lookups still neither scan the review tables nor sort. The old index only cost
writes when the bank is loaded.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '5a7c3e91d2f0'
down_revision = 'b18e6f0c4d27'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('item', schema=None) as batch_op:
        batch_op.drop_index('ix_item_kind_retired_new_order')


def downgrade():
    with op.batch_alter_table('item', schema=None) as batch_op:
        batch_op.create_index('ix_item_kind_retired_new_order', ['kind', 'retired', 'new_order'],
                              unique=False)
