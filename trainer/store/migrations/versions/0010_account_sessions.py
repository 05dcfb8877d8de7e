"""Accounts: a row per signed-in session, so signing out ends this browser's session only (and
every copy of its cookie), instead of a session generation that ended them all.

Sessions signed in before have no row: they are signed out once. Going down, the generation comes
back at 0 for every account.

Revision ID: 0010_account_sessions
Revises: 0009_class_seats
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = '0010_account_sessions'
down_revision = '0009_class_seats'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'account_sessions',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('account_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], name='fk_account_sessions_account_id_accounts'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_account_sessions')),
    )
    op.create_index('ix_account_sessions_account_id', 'account_sessions', ['account_id'], unique=False)
    # In place (SQLite has ALTER TABLE ... DROP COLUMN since 3.35): a batch copy of accounts would
    # drop the table the learners' rows point to.
    op.drop_column('accounts', 'session_generation')


def downgrade() -> None:
    op.add_column('accounts', sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False))
    op.drop_index('ix_account_sessions_account_id', table_name='account_sessions')
    op.drop_table('account_sessions')
