"""User ids are never handed out twice on SQLite (AUTOINCREMENT), as PostgreSQL's sequence.

Revision ID: 1f7b3d9e5a20
Revises: 6e3a9b1c4d58
Create Date: 2026-12-01 01:00:00.000000

Accounts can now be deleted. Without AUTOINCREMENT, SQLite gives a new row the largest id in
use plus one, so the next account registered after the newest one was deleted took its id, and
what is keyed by a user id outlived the account: a study page left open by the deleted account
rated for the new one, and puzzle seeds repeated. SQLite cannot add AUTOINCREMENT in place, so
the table is copied (batch mode). Every other table refers to "user", and dropping the old copy
with foreign keys on would cascade into every account's reviews: foreign keys are turned off
for the copy (outside a transaction, the only place SQLite honours it), checked afterwards,
and migrations/env.py turns them on again once the upgrade is over. No account was ever
deleted before this revision, so the counter starts at the highest id in use. PostgreSQL
needs nothing: its sequences never go back.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '1f7b3d9e5a20'
down_revision = '6e3a9b1c4d58'
branch_labels = None
depends_on = None


def rebuild_user(autoincrement):
    bind = op.get_bind()
    if bind.dialect.name != 'sqlite':
        return
    bind.exec_driver_sql('PRAGMA foreign_keys=OFF')
    if bind.exec_driver_sql('PRAGMA foreign_keys').scalar():
        raise RuntimeError('foreign keys could not be turned off (a transaction is open), and '
                           'copying the user table with them on would delete every review. '
                           'Nothing was changed.')
    with op.batch_alter_table('user', recreate='always',
                              table_kwargs={'sqlite_autoincrement': autoincrement}):
        pass
    broken = bind.exec_driver_sql('PRAGMA foreign_key_check').fetchall()
    if broken:
        raise RuntimeError(f'rows refer to missing rows after copying the user table: {broken[:5]}')


def upgrade():
    rebuild_user(True)
    if op.get_bind().dialect.name == 'sqlite':
        op.execute("DELETE FROM sqlite_sequence WHERE name = 'user'")
        op.execute("INSERT INTO sqlite_sequence (name, seq) "
                   "SELECT 'user', COALESCE(MAX(id), 0) FROM \"user\"")


def downgrade():
    rebuild_user(False)
