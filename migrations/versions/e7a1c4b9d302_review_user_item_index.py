"""Index review (user_id, item_id, id): one user's reviews of one item, newest first.

Revision ID: e7a1c4b9d302
Revises: 5c2e7a9d4f16
Create Date: 2026-12-01 10:40:00.000000

A card's page shows the signed-in user's record with it (every review, lapses, time spent). With
only (user_id, id) the database would read all of the user's reviews to find one item's; with
this index it reads that item's alone.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e7a1c4b9d302'
down_revision = '5c2e7a9d4f16'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.create_index('ix_review_user_id_item_id_id', ['user_id', 'item_id', 'id'],
                              unique=False)


def downgrade():
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.drop_index('ix_review_user_id_item_id_id')
