"""Add user.theme: light, dark, or follow the system's preference (the default).

Revision ID: b3e7d1a9c5f2
Revises: fc1dda5f1c76
Create Date: 2026-12-02 00:40:00.000000

Every page is drawn in the theme the account chose, set on <html> by the server, so no page
shows the other theme first. Every account follows the system (the server default), as every
page did before the setting. Added and dropped with plain ALTER TABLE, as the other user
columns were: batch mode would rebuild "user", and on SQLite with foreign keys on, dropping
the old table cascades into every user's reviews.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b3e7d1a9c5f2'
down_revision = 'fc1dda5f1c76'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('user', sa.Column('theme', sa.String(length=8), server_default='system',
                                    nullable=False))


def downgrade():
    op.drop_column('user', 'theme')
