"""Covering indexes for the study counts and Stats: item (retired, kind, key), review figures.

Revision ID: 0c7e5b2a9d14
Revises: f6b1d3a8c2e7
Create Date: 2026-11-30 12:30:00.000000

Found on a database grown to 6,000 cards and 822,000 reviews. Every study
page counts the items on offer (active, and a skill only if this code can generate it): with
(retired, kind, key) in one index that count never reads an item row. The Stats page counts
the ratings of the last 30 days and sums the last 14 days' answering time: with was_review,
rating and duration_ms beside (user_id, reviewed_at) the index answers both without reading
the review rows (each holds three JSON states), so the page stays fast for a user with years
of history. The wider review index replaces (user_id, reviewed_at), whose every reader it
also serves. Plain CREATE/DROP INDEX: batch mode is not needed for indexes, and must not
rebuild a table here.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0c7e5b2a9d14'
down_revision = 'f6b1d3a8c2e7'
branch_labels = None
depends_on = None

REVIEW_FIGURES = ['user_id', 'reviewed_at', 'was_review', 'rating', 'duration_ms']


def upgrade():
    op.create_index('ix_item_retired_kind_key', 'item', ['retired', 'kind', 'key'], unique=False)
    op.create_index('ix_review_user_id_reviewed_at_figures', 'review', REVIEW_FIGURES,
                    unique=False)
    op.drop_index('ix_review_user_id_reviewed_at', table_name='review')


def downgrade():
    op.create_index('ix_review_user_id_reviewed_at', 'review', ['user_id', 'reviewed_at'],
                    unique=False)
    op.drop_index('ix_review_user_id_reviewed_at_figures', table_name='review')
    op.drop_index('ix_item_retired_kind_key', table_name='item')
