"""Index review_state (user_id, due, id): the first due item without sorting the due ones.

Revision ID: 7d41c2e8a9b3
Revises: 3c5e9a1d7b42
Create Date: 2026-11-30 01:50:00.000000

The study queue takes the first due state in (due, id) order. SQLite's (user_id, due) index
already ends in the rowid, so it gave that order; PostgreSQL's did not, and it sorted every due
state of the user on each study page (seen in EXPLAIN, tests/web/study/test_web_study_caching.py).
With id in the index both read one entry in index order.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '7d41c2e8a9b3'
down_revision = '3c5e9a1d7b42'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.create_index('ix_review_state_user_id_due_id', ['user_id', 'due', 'id'],
                              unique=False)
        batch_op.drop_index('ix_review_state_user_id_due')


def downgrade():
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.create_index('ix_review_state_user_id_due', ['user_id', 'due'], unique=False)
        batch_op.drop_index('ix_review_state_user_id_due_id')
