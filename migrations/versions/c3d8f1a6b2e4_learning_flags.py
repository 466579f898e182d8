"""Add review_state.learning and review.was_review: learning steps are not held by the review limit.

Revision ID: c3d8f1a6b2e4
Revises: 9f2c6a4e1b83
Create Date: 2026-11-30 05:40:00.000000

As in Anki, an item in its learning or relearning steps (minutes apart) is shown when due even
over the daily review limit, and only ratings of items that were in Review count toward that
limit. Both flags are filled from the FSRS states already stored (fsrs.State: 1 Learning,
2 Review, 3 Relearning); the index finds a user's due learning steps without reading the
overdue reviews held by the limit. Downgrading drops them.
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


def upgrade():
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.add_column(sa.Column('learning', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
        batch_op.create_index(batch_op.f('ix_review_state_user_id_learning_due_id'),
                              ['user_id', 'learning', 'due', 'id'], unique=False)
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.add_column(sa.Column('was_review', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    # Filled in SQL from the JSON states (json_extract on SQLite, ->> on PostgreSQL), so a long
    # history is not read into Python; anything that is not an fsrs state stays False.
    states = sa.table('review_state', sa.column('state', sa.JSON),
                      sa.column('learning', sa.Boolean))
    reviews = sa.table('review', sa.column('was_new', sa.Boolean),
                       sa.column('state_before', sa.JSON), sa.column('was_review', sa.Boolean))
    op.execute(sa.update(states)
               .where(states.c.state['state'].as_integer().in_(LEARNING_STATES))
               .values(learning=True))
    op.execute(sa.update(reviews)
               .where(reviews.c.was_new.is_(False),
                      reviews.c.state_before['state'].as_integer() == REVIEW_STATE)
               .values(was_review=True))


def downgrade():
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.drop_column('was_review')
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_review_state_user_id_learning_due_id'))
        batch_op.drop_column('learning')
