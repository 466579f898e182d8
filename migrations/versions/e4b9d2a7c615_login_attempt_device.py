"""Add login_attempt.device: attempts made with a device cookie are counted per device.

Revision ID: e4b9d2a7c615
Revises: 5a7c3e91d2f0
Create Date: 2026-11-30 05:10:00.000000

A client that logged in to an account before carries a signed device cookie; its failed
attempts are counted against its own small limit instead of the account's anonymous one, so
strangers cannot lock an account's owner out (quizapp/services/login_limits.py). Existing rows
keep NULL: they count as anonymous attempts, as they did.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e4b9d2a7c615'
down_revision = '5a7c3e91d2f0'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('login_attempt', schema=None) as batch_op:
        batch_op.add_column(sa.Column('device', sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table('login_attempt', schema=None) as batch_op:
        batch_op.drop_column('device')
