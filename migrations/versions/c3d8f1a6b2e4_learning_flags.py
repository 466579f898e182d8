"""Add review_state.learning and review.was_review: learning steps are not held by the review limit.

Revision ID: c3d8f1a6b2e4
Revises: 9f2c6a4e1b83
Create Date: 2026-11-30 05:40:00.000000

As in Anki, an item in its learning or relearning steps (minutes apart) is shown when due even
over the daily review limit, and only ratings of items that were in Review count toward that
limit. Both flags are filled from the FSRS states already stored (fsrs.State: 1 Learning,
2 Review, 3 Relearning); downgrading drops them.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3d8f1a6b2e4'
down_revision = '9f2c6a4e1b83'
branch_labels = None
depends_on = None

REVIEW_STATE = 2  # fsrs.State.Review
LEARNING_STATES = (1, 3)  # fsrs.State.Learning, fsrs.State.Relearning
BATCH = 1000


def fsrs_state(stored):
    """The fsrs.State number a stored state dict holds (None for anything else: left False)."""
    return stored.get("state") if isinstance(stored, dict) else None


def upgrade():
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.add_column(sa.Column('learning', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.add_column(sa.Column('was_review', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    bind = op.get_bind()
    states = sa.table('review_state', sa.column('id', sa.Integer), sa.column('state', sa.JSON),
                      sa.column('learning', sa.Boolean))
    reviews = sa.table('review', sa.column('id', sa.Integer), sa.column('was_new', sa.Boolean),
                       sa.column('state_before', sa.JSON), sa.column('was_review', sa.Boolean))
    learning = [row.id for row in bind.execute(sa.select(states.c.id, states.c.state))
                if fsrs_state(row.state) in LEARNING_STATES]
    was_review = [row.id for row in bind.execute(
        sa.select(reviews.c.id, reviews.c.state_before).where(reviews.c.was_new.is_(False)))
                  if fsrs_state(row.state_before) == REVIEW_STATE]
    for table, flag, ids in ((states, 'learning', learning), (reviews, 'was_review', was_review)):
        for start in range(0, len(ids), BATCH):
            bind.execute(sa.update(table).where(table.c.id.in_(ids[start:start + BATCH]))
                         .values({flag: True}))


def downgrade():
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.drop_column('was_review')
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.drop_column('learning')
