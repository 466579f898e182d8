"""Add practice_attempt: puzzles answered in free practice, outside the schedule.

Revision ID: f3a9c7e1b5d2
Revises: b3e7d1a9c5f2
Create Date: 2026-12-02 00:50:00.000000

A new table only; nothing from before changes. Downgrading drops it (and the attempts).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3a9c7e1b5d2'
down_revision = 'b3e7d1a9c5f2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'practice_attempt',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('family', sa.String(length=80), nullable=False),
        sa.Column('level', sa.String(length=16), nullable=False),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('answer', sa.Text(), nullable=False),
        sa.Column('correct', sa.Boolean(), nullable=False),
        sa.Column('hints_used', sa.Integer(), nullable=False),
        sa.Column('duration_ms', sa.Integer(), nullable=True),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'],
                                name=op.f('fk_practice_attempt_user_id_user'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_practice_attempt')),
        sa.UniqueConstraint('user_id', 'family', 'level', 'seed',
                            name=op.f('uq_practice_attempt_user_id_family_level_seed')),
        sqlite_autoincrement=True,
    )
    op.create_index('ix_practice_attempt_user_id_answered_at', 'practice_attempt',
                    ['user_id', 'answered_at', 'family', 'correct'], unique=False)


def downgrade():
    op.drop_index('ix_practice_attempt_user_id_answered_at', table_name='practice_attempt')
    op.drop_table('practice_attempt')
