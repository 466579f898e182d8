"""Add user.last_undo_item_id: an undo makes only the undone item's open pages out of date.

Revision ID: 8b2f4d6e1a37
Revises: 4e8a1c6d2f90
Create Date: 2026-11-30 16:30:00.000000

4e8a1c6d2f90 counts undos per user, and a puzzle page shown before the latest undo could not be
rated, whichever item was undone: undoing card A in one tab threw away the checked answer to
puzzle B open in another. With the item of the latest undo stored, a
page predates an undo of its own item only where that item was undone, or where more than one
undo came since (then it is not known which, and the page is refused as before). No foreign
key: items are retired, never deleted. Plain ALTER TABLE, as f6b1d3a8c2e7 explains.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8b2f4d6e1a37'
down_revision = '4e8a1c6d2f90'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('user', sa.Column('last_undo_item_id', sa.Integer(), nullable=True))


def downgrade():
    op.drop_column('user', 'last_undo_item_id')
