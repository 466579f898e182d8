"""Add practice_set, set_attempt and set_answer: saved practice sets and the goes at them.

Revision ID: a4c8e2f6b913
Revises: e7a1c4b9d302
Create Date: 2026-12-01 21:40:00.000000

A saved set keeps its parameters, seed and item keys frozen in order, under a random slug that
is its address. An attempt belongs to an account, or to nobody (a visitor, whose session holds
its id); a timed one has its deadline fixed when it starts. Each answer is one row per item
position. New tables only: nothing stored before changes, and downgrading drops them. Ids are
never reused (an attempt's address names its id).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a4c8e2f6b913'
down_revision = 'e7a1c4b9d302'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('practice_set',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('slug', sa.String(length=43), nullable=False),
    sa.Column('owner_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('parameters', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('time_limit_minutes', sa.Integer(), nullable=True),
    sa.Column('item_keys', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['owner_id'], ['user.id'],
                            name=op.f('fk_practice_set_owner_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_practice_set')),
    sa.UniqueConstraint('slug', name=op.f('uq_practice_set_slug')),
    sqlite_autoincrement=True
    )
    op.create_index('ix_practice_set_owner_id_created_at', 'practice_set',
                    ['owner_id', 'created_at'], unique=False)
    op.create_table('set_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('set_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('score', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['set_id'], ['practice_set.id'],
                            name=op.f('fk_set_attempt_set_id_practice_set'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'],
                            name=op.f('fk_set_attempt_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_set_attempt')),
    sqlite_autoincrement=True
    )
    op.create_index(op.f('ix_set_attempt_set_id'), 'set_attempt', ['set_id'], unique=False)
    op.create_index('ix_set_attempt_user_id_started_at', 'set_attempt',
                    ['user_id', 'started_at'], unique=False)
    op.create_table('set_answer',
    sa.Column('attempt_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('answer', sa.Text(), nullable=False),
    sa.Column('correct', sa.Boolean(), nullable=False),
    sa.Column('answered_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['attempt_id'], ['set_attempt.id'],
                            name=op.f('fk_set_answer_attempt_id_set_attempt'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('attempt_id', 'position', name=op.f('pk_set_answer'))
    )


def downgrade():
    op.drop_table('set_answer')
    op.drop_index('ix_set_attempt_user_id_started_at', table_name='set_attempt')
    op.drop_index(op.f('ix_set_attempt_set_id'), table_name='set_attempt')
    op.drop_table('set_attempt')
    op.drop_index('ix_practice_set_owner_id_created_at', table_name='practice_set')
    op.drop_table('practice_set')
