"""Add registration_attempt: registrations tried per address are limited.

Revision ID: d5e2a9c4f7b1
Revises: c3d8f1a6b2e4
Create Date: 2026-11-30 06:30:00.000000

One row per registration tried (taken names included), with the address it came from; the
register form refuses an address over QUIZAPP_REGISTER_LIMIT_PER_ADDRESS within the window
(quizapp/services/registration_limits.py). Rows older than a day are pruned as new ones come.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd5e2a9c4f7b1'
down_revision = 'c3d8f1a6b2e4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('registration_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_registration_attempt'))
    )
    with op.batch_alter_table('registration_attempt', schema=None) as batch_op:
        batch_op.create_index('ix_registration_attempt_address_at', ['address', 'attempted_at'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_registration_attempt_attempted_at'),
                              ['attempted_at'], unique=False)


def downgrade():
    with op.batch_alter_table('registration_attempt', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_registration_attempt_attempted_at'))
        batch_op.drop_index('ix_registration_attempt_address_at')
    op.drop_table('registration_attempt')
