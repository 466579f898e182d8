"""Add a partial unique index: at most one team_member row with role 'owner' per team.

Revision ID: a7d3e9b2c4f1
Revises: f3a9c7e1b5d2
Create Date: 2026-12-02 01:50:00.000000

A database that already holds a team with several owners (the rule used to rest on the
services' conditional updates only) keeps the earliest to join as the owner (the lowest
account id breaks a tie) and makes the others leads, so they keep a lead's rights and the
index can be built. Downgrading drops the index; the people demoted stay leads.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7d3e9b2c4f1'
down_revision = 'f3a9c7e1b5d2'
branch_labels = None
depends_on = None

OWNER = sa.text("role = 'owner'")


def upgrade():
    op.execute(
        "UPDATE team_member SET role = 'lead' WHERE role = 'owner' AND EXISTS ("
        "SELECT 1 FROM team_member AS earlier WHERE earlier.team_id = team_member.team_id "
        "AND earlier.role = 'owner' AND (earlier.joined_at < team_member.joined_at "
        "OR (earlier.joined_at = team_member.joined_at "
        "AND earlier.user_id < team_member.user_id)))")
    op.create_index('uq_team_member_team_id_owner', 'team_member', ['team_id'], unique=True,
                    sqlite_where=OWNER, postgresql_where=OWNER)


def downgrade():
    op.drop_index('uq_team_member_team_id_owner', table_name='team_member')
