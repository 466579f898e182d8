"""Add login_session: one row per login, so logging out ends the session on the server.

Revision ID: 9f2c6a4e1b83
Revises: e4b9d2a7c615
Create Date: 2026-11-30 05:25:00.000000

The Flask-Login identity (in the session cookie and the remember cookie) names a login row
and carries its nonce (stored here as a SHA-256 hash); a request is signed in only while the
row exists. Logging out deletes it, a password change deletes every other login of the
account. Existing cookies hold the old "<id>.<version>" identity and are treated as signed
out after this upgrade: everyone logs in once more. Downgrading drops the table (and with it
every login); identities of the new form are then refused by the old code (not digits).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9f2c6a4e1b83'
down_revision = 'e4b9d2a7c615'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('login_session',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('nonce_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'],
                            name=op.f('fk_login_session_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_session'))
    )
    with op.batch_alter_table('login_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_login_session_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_session_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('login_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_login_session_user_id'))
        batch_op.drop_index(batch_op.f('ix_login_session_created_at'))

    op.drop_table('login_session')
