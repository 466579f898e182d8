"""Review ids are never handed out twice on SQLite (AUTOINCREMENT), as PostgreSQL's sequence.

Revision ID: b8f4d2e6a1c3
Revises: a7e3c9d1f5b2
Create Date: 2026-11-30 07:45:00.000000

Without AUTOINCREMENT, SQLite gives a new row the largest id in use plus one, so after Undo
deleted the newest review, the next rating took its id; an Undo button left open in another
tab, naming the old id, then took back that newer rating. SQLite cannot add AUTOINCREMENT to
a table in place, so the table is copied (batch mode; nothing references review, so dropping
the old copy cascades nowhere). PostgreSQL needs nothing: its sequences never go back.
The primary key's constraint name is not kept by the copy (SQLite does not use it).
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b8f4d2e6a1c3'
down_revision = 'a7e3c9d1f5b2'
branch_labels = None
depends_on = None


def rebuild_review(autoincrement):
    if op.get_bind().dialect.name != 'sqlite':
        return
    with op.batch_alter_table('review', recreate='always',
                              table_kwargs={'sqlite_autoincrement': autoincrement}):
        pass


def upgrade():
    rebuild_review(True)
    if op.get_bind().dialect.name == 'sqlite':
        # The copy starts the counter at the highest id left; ids undone before this upgrade
        # (above it) are not known, so a margin keeps an Undo form still open from before from
        # naming a new rating.
        op.execute("DELETE FROM sqlite_sequence WHERE name = 'review'")
        op.execute("INSERT INTO sqlite_sequence (name, seq) "
                   "SELECT 'review', COALESCE(MAX(id), 0) + 1000 FROM review")


def downgrade():
    rebuild_review(False)
