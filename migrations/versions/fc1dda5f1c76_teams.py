"""Add teams: members and roles, join codes, tracks of steps, assignments; attempts for a team.

Revision ID: fc1dda5f1c76
Revises: d2f7b9c1e4a6
Create Date: 2026-12-02 00:24:22.000000

New tables team, team_member, team_join_code, join_code_attempt, track, track_step,
assignment and assignment_member, and two nullable columns on set_attempt (team_id, step_id)
naming the team and track step an attempt was taken for. Nothing stored before changes:
existing attempts have neither. Downgrading drops the columns, then the new tables.

SQLite cannot add a named foreign key to a table in place (ALTER TABLE ADD COLUMN keeps no
constraint name or ON DELETE that reflection reads back), nor drop a column a foreign key
names, so there set_attempt is copied (batch mode) both ways. set_answer refers to it, and
dropping the old copy with foreign keys on would delete every answer: they are turned off for
the copy (outside a transaction, as 1f7b3d9e5a20 does for "user"), checked afterwards, and
migrations/env.py turns them on again. The AUTOINCREMENT counter is carried over, so ids of
deleted attempts are still never handed out again.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'fc1dda5f1c76'
down_revision = 'd2f7b9c1e4a6'
branch_labels = None
depends_on = None

NEW_COLUMNS = (  # set_attempt column, referred table, foreign key name
    ('team_id', 'team', 'fk_set_attempt_team_id_team'),
    ('step_id', 'track_step', 'fk_set_attempt_step_id_track_step'),
)


def upgrade():
    op.create_table('team',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_team')),
    sqlite_autoincrement=True
    )
    op.create_table('team_member',
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_active_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['team_id'], ['team.id'], name=op.f('fk_team_member_team_id_team'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_team_member_user_id_user'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('team_id', 'user_id', name=op.f('pk_team_member'))
    )
    op.create_index(op.f('ix_team_member_user_id'), 'team_member', ['user_id'], unique=False)
    op.create_table('team_join_code',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=8), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('max_uses', sa.Integer(), nullable=True),
    sa.Column('uses', sa.Integer(), server_default='0', nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['team_id'], ['team.id'],
                            name=op.f('fk_team_join_code_team_id_team'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_team_join_code')),
    sa.UniqueConstraint('code', name=op.f('uq_team_join_code_code')),
    sqlite_autoincrement=True
    )
    op.create_index(op.f('ix_team_join_code_team_id'), 'team_join_code', ['team_id'],
                    unique=False)
    op.create_table('join_code_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('succeeded', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_join_code_attempt'))
    )
    op.create_index('ix_join_code_attempt_address_at', 'join_code_attempt',
                    ['address', 'attempted_at'], unique=False)
    op.create_index('ix_join_code_attempt_attempted_at', 'join_code_attempt', ['attempted_at'],
                    unique=False)
    op.create_table('track',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('team_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['created_by'], ['user.id'], name=op.f('fk_track_created_by_user'),
                            ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['team_id'], ['team.id'], name=op.f('fk_track_team_id_team'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_track')),
    sqlite_autoincrement=True
    )
    op.create_index(op.f('ix_track_team_id'), 'track', ['team_id'], unique=False)
    op.create_table('track_step',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('track_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('practice_set_id', sa.Integer(), nullable=True),
    sa.Column('pass_mark', sa.Integer(), nullable=True),
    sa.Column('item_keys', sa.JSON(), nullable=False),
    sa.Column('filter_query', sa.String(length=2000), nullable=True),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['practice_set_id'], ['practice_set.id'],
                            name=op.f('fk_track_step_practice_set_id_practice_set'),
                            ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['track_id'], ['track.id'], name=op.f('fk_track_step_track_id_track'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_track_step')),
    sqlite_autoincrement=True
    )
    op.create_index(op.f('ix_track_step_practice_set_id'), 'track_step', ['practice_set_id'],
                    unique=False)
    op.create_index('ix_track_step_track_id_position', 'track_step', ['track_id', 'position'],
                    unique=False)
    op.create_table('assignment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('track_id', sa.Integer(), nullable=False),
    sa.Column('whole_team', sa.Boolean(), nullable=False),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['track_id'], ['track.id'], name=op.f('fk_assignment_track_id_track'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_assignment')),
    sqlite_autoincrement=True
    )
    op.create_index(op.f('ix_assignment_track_id'), 'assignment', ['track_id'], unique=False)
    op.create_table('assignment_member',
    sa.Column('assignment_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['assignment_id'], ['assignment.id'],
                            name=op.f('fk_assignment_member_assignment_id_assignment'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'],
                            name=op.f('fk_assignment_member_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('assignment_id', 'user_id', name=op.f('pk_assignment_member'))
    )
    op.create_index(op.f('ix_assignment_member_user_id'), 'assignment_member', ['user_id'],
                    unique=False)
    if op.get_bind().dialect.name == 'sqlite':
        rebuild_sqlite_set_attempt(add=True)
    else:
        for column, table, name in NEW_COLUMNS:
            op.add_column('set_attempt', sa.Column(column, sa.Integer(), nullable=True))
            op.create_foreign_key(name, 'set_attempt', table, [column], ['id'],
                                  ondelete='SET NULL')
    for column, _table, _name in NEW_COLUMNS:
        op.create_index(f'ix_set_attempt_{column}', 'set_attempt', [column], unique=False)


def downgrade():
    bind = op.get_bind()
    for column, _table, _name in reversed(NEW_COLUMNS):
        op.drop_index(f'ix_set_attempt_{column}', table_name='set_attempt')
    if bind.dialect.name == 'sqlite':
        rebuild_sqlite_set_attempt(add=False)
    else:
        for column, _table, name in reversed(NEW_COLUMNS):
            op.drop_constraint(name, 'set_attempt', type_='foreignkey')
            op.drop_column('set_attempt', column)
    op.drop_index(op.f('ix_assignment_member_user_id'), table_name='assignment_member')
    op.drop_table('assignment_member')
    op.drop_index(op.f('ix_assignment_track_id'), table_name='assignment')
    op.drop_table('assignment')
    op.drop_index('ix_track_step_track_id_position', table_name='track_step')
    op.drop_index(op.f('ix_track_step_practice_set_id'), table_name='track_step')
    op.drop_table('track_step')
    op.drop_index(op.f('ix_track_team_id'), table_name='track')
    op.drop_table('track')
    op.drop_index('ix_join_code_attempt_attempted_at', table_name='join_code_attempt')
    op.drop_index('ix_join_code_attempt_address_at', table_name='join_code_attempt')
    op.drop_table('join_code_attempt')
    op.drop_index(op.f('ix_team_join_code_team_id'), table_name='team_join_code')
    op.drop_table('team_join_code')
    op.drop_index(op.f('ix_team_member_user_id'), table_name='team_member')
    op.drop_table('team_member')
    op.drop_table('team')


def rebuild_sqlite_set_attempt(add):
    """Copy set_attempt with (``add``) or without the two columns and their foreign keys."""
    bind = op.get_bind()
    bind.exec_driver_sql('PRAGMA foreign_keys=OFF')
    if bind.exec_driver_sql('PRAGMA foreign_keys').scalar():
        raise RuntimeError('foreign keys could not be turned off (a transaction is open), and '
                           'copying the set_attempt table with them on would delete every '
                           'answer. Nothing was changed.')
    counter = bind.exec_driver_sql(
        "SELECT seq FROM sqlite_sequence WHERE name = 'set_attempt'").scalar()
    with op.batch_alter_table('set_attempt', recreate='always',
                              table_kwargs={'sqlite_autoincrement': True}) as batch_op:
        for column, table, name in NEW_COLUMNS if add else reversed(NEW_COLUMNS):
            if add:
                batch_op.add_column(sa.Column(column, sa.Integer(), nullable=True))
                batch_op.create_foreign_key(name, table, [column], ['id'], ondelete='SET NULL')
            else:
                batch_op.drop_constraint(name, type_='foreignkey')
                batch_op.drop_column(column)
    if counter is not None:
        op.execute("DELETE FROM sqlite_sequence WHERE name = 'set_attempt'")
        op.execute(sa.text("INSERT INTO sqlite_sequence (name, seq) SELECT 'set_attempt', "
                           "MAX(:seq, COALESCE(MAX(id), 0)) FROM set_attempt")
                   .bindparams(seq=counter))
    broken = bind.exec_driver_sql('PRAGMA foreign_key_check').fetchall()
    if broken:
        raise RuntimeError(f'rows refer to missing rows after copying set_attempt: {broken[:5]}')
