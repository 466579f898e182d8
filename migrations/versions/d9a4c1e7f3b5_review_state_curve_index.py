"""Add review_state.stability and index (user_id, item_id, last_reviewed_at, stability).

Revision ID: d9a4c1e7f3b5
Revises: b8e4f2a6d1c3
Create Date: 2026-12-02 06:30:00.000000

A lead's dashboard draws each member's forgetting curve for every item of a track from the
state's last review and stability. Extracted from the JSON state, that read cost ~90 ms of SQL
for 200 members with ~100 items each (18,000 rows), every row read from the table. The
stability is now a column of its own, written with the state by every write of it, and beside
last_reviewed_at (the state's last review as a UTC instant) in an index on the member and item,
so the read is index-only (~38 ms). The column is filled from the states already stored, in SQL
(json_extract on SQLite; on PostgreSQL the state is json, read with ->> and cast to float), so a
long history is not read into Python; a state without a stability (never rated) stays NULL.
Downgrading drops the index and the column.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd9a4c1e7f3b5'
down_revision = 'b8e4f2a6d1c3'
branch_labels = None
depends_on = None

COLUMNS = ['user_id', 'item_id', 'last_reviewed_at', 'stability']


def upgrade():
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stability', sa.Double(), nullable=True))
    states = sa.table('review_state', sa.column('state', sa.JSON),
                      sa.column('stability', sa.Double))
    # CAST(JSON_EXTRACT(state, '$."stability"') AS FLOAT) on SQLite, CAST(state ->> 'stability'
    # AS FLOAT) on PostgreSQL: a JSON null, or no such key, gives NULL on both.
    op.execute(sa.update(states).values(stability=states.c.state['stability'].as_float()))
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.create_index('ix_review_state_user_id_item_id_curve', COLUMNS, unique=False)


def downgrade():
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.drop_index('ix_review_state_user_id_item_id_curve')
        batch_op.drop_column('stability')
