"""Index review (user_id, id): the newest reviews of one user without sorting all of them.

Revision ID: 3c5e9a1d7b42
Revises: 870eb94f5794
Create Date: 2026-11-29 22:15:00.000000

Every study page asks for the user's latest review (the undo button), undo checks it again and
the history lists the newest hundred. With only (user_id, reviewed_at) SQLite sorted every
review of the user on each page; with (user_id, id) it reads the newest entries in index order.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '3c5e9a1d7b42'
down_revision = '870eb94f5794'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.create_index('ix_review_user_id_id', ['user_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.drop_index('ix_review_user_id_id')
