"""Initial schema: accounts, login attempts, items (cards, skills), review state and log.

Revision ID: 870eb94f5794
Revises:
Create Date: 2026-11-29 21:09:54.648347

Reviewed by hand after autogenerate: the app's UTCDateTime type decorator is written as plain
sa.DateTime(timezone=True) (what it stores), so this file never imports application code.
Datetimes are stored as UTC; on SQLite without a zone, on PostgreSQL as timestamptz.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '870eb94f5794'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('concept',
    sa.Column('tag', sa.String(length=80), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('tag', name=op.f('pk_concept'))
    )
    op.create_table('item',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=120), nullable=False),
    sa.Column('title', sa.String(length=300), nullable=False),
    sa.Column('level', sa.String(length=16), nullable=False),
    sa.Column('new_order', sa.Integer(), nullable=False),
    sa.Column('retired', sa.Boolean(), nullable=False),
    sa.Column('retired_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_item')),
    sa.UniqueConstraint('kind', 'key', name=op.f('uq_item_kind_key'))
    )
    with op.batch_alter_table('item', schema=None) as batch_op:
        batch_op.create_index('ix_item_kind_retired_new_order', ['kind', 'retired', 'new_order'], unique=False)

    op.create_table('login_attempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('attempted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('succeeded', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_login_attempt'))
    )
    with op.batch_alter_table('login_attempt', schema=None) as batch_op:
        batch_op.create_index('ix_login_attempt_address_at', ['address', 'attempted_at'], unique=False)
        batch_op.create_index('ix_login_attempt_attempted_at', ['attempted_at'], unique=False)
        batch_op.create_index('ix_login_attempt_username_at', ['username', 'attempted_at'], unique=False)

    op.create_table('user',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('session_version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('desired_retention', sa.Double(), nullable=False),
    sa.Column('new_per_day', sa.Integer(), nullable=False),
    sa.Column('reviews_per_day', sa.Integer(), nullable=False),
    sa.Column('utc_offset_minutes', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user')),
    sa.UniqueConstraint('username', name=op.f('uq_user_username'))
    )
    op.create_table('card',
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('importance', sa.String(length=16), nullable=False),
    sa.Column('frequency', sa.String(length=16), nullable=False),
    sa.Column('question', sa.Text(), nullable=False),
    sa.Column('basics', sa.Text(), nullable=False),
    sa.Column('solid', sa.Text(), nullable=False),
    sa.Column('code', sa.Text(), nullable=False),
    sa.Column('code_output', sa.Text(), nullable=False),
    sa.Column('go_deeper', sa.JSON(), nullable=False),
    sa.Column('follow_ups', sa.JSON(), nullable=False),
    sa.Column('red_flags', sa.JSON(), nullable=False),
    sa.Column('source_path', sa.String(length=300), nullable=False),
    sa.Column('content_hash', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'], name=op.f('fk_card_item_id_item'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('item_id', name=op.f('pk_card'))
    )
    op.create_table('item_concept',
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('concept', sa.String(length=80), nullable=False),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'], name=op.f('fk_item_concept_item_id_item'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('item_id', 'concept', name=op.f('pk_item_concept'))
    )
    with op.batch_alter_table('item_concept', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_item_concept_concept'), ['concept'], unique=False)

    op.create_table('review',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('reviewed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('duration_ms', sa.Integer(), nullable=True),
    sa.Column('answer', sa.Text(), nullable=True),
    sa.Column('correct', sa.Boolean(), nullable=True),
    sa.Column('puzzle_seed', sa.BigInteger(), nullable=True),
    sa.Column('was_new', sa.Boolean(), nullable=False),
    sa.Column('state_before', sa.JSON(), nullable=True),
    sa.Column('due_before', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_reviewed_before', sa.DateTime(timezone=True), nullable=True),
    sa.Column('state_after', sa.JSON(), nullable=False),
    sa.Column('due_after', sa.DateTime(timezone=True), nullable=False),
    sa.Column('version_after', sa.Integer(), nullable=False),
    sa.Column('fsrs_log', sa.JSON(), nullable=False),
    sa.CheckConstraint('rating >= 1 AND rating <= 4', name=op.f('ck_review_rating_range')),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'], name=op.f('fk_review_item_id_item'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_review_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_review'))
    )
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.create_index('ix_review_user_id_reviewed_at', ['user_id', 'reviewed_at'], unique=False)

    op.create_table('review_state',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('state', sa.JSON(), nullable=False),
    sa.Column('due', sa.DateTime(timezone=True), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('reps', sa.Integer(), nullable=False),
    sa.Column('last_reviewed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'], name=op.f('fk_review_state_item_id_item'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_review_state_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_review_state')),
    sa.UniqueConstraint('user_id', 'item_id', name=op.f('uq_review_state_user_id_item_id'))
    )
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.create_index('ix_review_state_user_id_due', ['user_id', 'due'], unique=False)

    op.create_table('skill',
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('family', sa.String(length=80), nullable=False),
    sa.ForeignKeyConstraint(['item_id'], ['item.id'], name=op.f('fk_skill_item_id_item'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('item_id', name=op.f('pk_skill'))
    )


def downgrade():
    op.drop_table('skill')
    with op.batch_alter_table('review_state', schema=None) as batch_op:
        batch_op.drop_index('ix_review_state_user_id_due')

    op.drop_table('review_state')
    with op.batch_alter_table('review', schema=None) as batch_op:
        batch_op.drop_index('ix_review_user_id_reviewed_at')

    op.drop_table('review')
    with op.batch_alter_table('item_concept', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_item_concept_concept'))

    op.drop_table('item_concept')
    op.drop_table('card')
    op.drop_table('user')
    with op.batch_alter_table('login_attempt', schema=None) as batch_op:
        batch_op.drop_index('ix_login_attempt_username_at')
        batch_op.drop_index('ix_login_attempt_attempted_at')
        batch_op.drop_index('ix_login_attempt_address_at')

    op.drop_table('login_attempt')
    with op.batch_alter_table('item', schema=None) as batch_op:
        batch_op.drop_index('ix_item_kind_retired_new_order')

    op.drop_table('item')
    op.drop_table('concept')
