"""Add login_session.last_seen_at and .browser: Settings lists the account's sessions.

Revision ID: d2f7b9c1e4a6
Revises: c6e1a8d4f2b7
Create Date: 2026-12-01 23:00:00.000000

Both nullable: logins from before this revision show their start as last seen and no browser
until their next request renews the time. Downgrading drops the two columns only.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd2f7b9c1e4a6'
down_revision = 'c6e1a8d4f2b7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('login_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('browser', sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table('login_session', schema=None) as batch_op:
        batch_op.drop_column('browser')
        batch_op.drop_column('last_seen_at')
